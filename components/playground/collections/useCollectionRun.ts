"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api-client";
import { preparedServerAnswer, runCollection, type CallReport, type Collection, type RunReport, type Sender } from "@/lib/collections";
import type { ConnectionDescriptor, RpcResponse, Tool, UserHeaders } from "@/lib/mcp/contract";
import { namesPattern } from "@/lib/collections/editing/working-collection";
import type { InputRequest } from "@/lib/playground/server-requests/mrtr";
import { answerRequest, enqueueAsk, removeAsk, toServerAsk, type ServerAsk } from "@/lib/playground/server-requests/server-requests";

/** One round of a call as the run view shows it: what /api/rpc reported (the wire, the server's requests, notes). */
export type RunRound = Pick<RpcResponse, "sent" | "response" | "exchanges" | "added" | "durationMs" | "notes" | "serverRequests">;

/** The MRTR input a call's prepared answers did not cover, waiting for the person. */
export interface RunQuestion {
  call: string;
  requests: InputRequest[];
  answer: (answers: Record<string, unknown> | null) => void;
}

export interface RunState {
  running: boolean;
  /** The calls reported so far (the whole report once the run ends). */
  calls: CallReport[];
  /** The call in flight. */
  current?: string;
  report?: RunReport;
  /** Why the run could not start or ended early (a proxy error listing tools…). */
  error?: string;
  /** What the calls of the runs so far captured: a run of one call or of the failed ones starts from these. */
  captured: Record<string, unknown>;
}

interface Options {
  connection: ConnectionDescriptor | undefined;
  headers: UserHeaders;
  /** A replacement descriptor from the proxy (a new legacy session): the playground keeps it too. */
  onConnection?: (connection: ConnectionDescriptor) => void;
}

/**
 * Runs a collection in the browser through the shared runner (lib/collections), each message sent as the editor's
 * Send sends it (streamed /api/rpc), so the wire, limits and masking are the playground's. The server's requests mid-call
 * are answered from the call's prepared answers by method, else queued for the person (`serverAsks`); MRTR input no
 * prepared answer covers waits in `question`. Stop aborts the call in flight, and the rest are reported skipped.
 */
export function useCollectionRun({ connection, headers, onConnection }: Options) {
  const [state, setState] = useState<RunState>({ running: false, calls: [], captured: {} });
  const [question, setQuestion] = useState<RunQuestion | null>(null);
  const [serverAsks, setServerAsks] = useState<ServerAsk[]>([]);
  const asksRef = useRef<ServerAsk[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const connectionRef = useRef(connection);
  connectionRef.current = connection;
  const latest = useRef({ headers, onConnection });
  latest.current = { headers, onConnection };

  const setAsks = useCallback((queue: ServerAsk[]) => {
    asksRef.current = queue;
    setServerAsks(queue);
  }, []);

  // Leaving the panel (hidden, another tab) ends its run: no call goes out for a person who is not there.
  useEffect(() => () => abortRef.current?.abort(), []);

  const run = useCallback(
    async (
      collection: Collection,
      { names, bail, variables }: { names?: readonly string[]; bail: boolean; variables?: Record<string, unknown> },
    ) => {
      const conn = connectionRef.current;
      if (!conn) return;
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      // Only the newest run writes: an aborted one still settles, after the next has started.
      const current = () => abortRef.current === abort;
      const update = (f: (s: RunState) => RunState) => current() && setState(f);
      setState((s) => ({ running: true, calls: [], captured: s.captured }));
      const send: Sender = async (message, { signal, answers }) => {
        const descriptor = connectionRef.current ?? conn;
        let streamId: string | undefined;
        try {
          const rpc = await api.rpcStream(
            descriptor,
            message,
            latest.current.headers,
            {
              onStream: (id) => (streamId = id),
              onServerRequest: (event) => {
                if (!current()) return;
                const ask = toServerAsk(event, Date.now());
                const prepared = preparedServerAnswer(answers ?? {}, ask.method);
                if (!prepared) return setAsks(enqueueAsk(asksRef.current, ask));
                // A prepared answer that cannot be delivered goes to the person rather than leaving the server waiting.
                api.answer({ ...answerRequest(ask, prepared), prepared: true }).catch(() => {
                  if (current()) setAsks(enqueueAsk(asksRef.current, ask));
                });
              },
              onServerRequestEnded: (event) => setAsks(removeAsk(asksRef.current, event.pendingId).queue),
            },
            signal,
          );
          if (rpc.connection) {
            connectionRef.current = rpc.connection;
            latest.current.onConnection?.(rpc.connection);
          }
          const round: RunRound = {
            sent: rpc.sent,
            response: rpc.response,
            exchanges: rpc.exchanges,
            added: rpc.added,
            durationMs: rpc.durationMs,
            ...(rpc.notes ? { notes: rpc.notes } : {}),
            ...(rpc.serverRequests ? { serverRequests: rpc.serverRequests } : {}),
          };
          return { response: rpc.response, durationMs: rpc.durationMs, exchanges: [round] };
        } finally {
          // A call that ended (answered, timed out, stopped) takes its unanswered questions with it.
          if (streamId !== undefined) setAsks(asksRef.current.filter((a) => a.streamId !== streamId));
        }
      };
      try {
        const report = await runCollection(collection, {
          send,
          // The server's list as it is now (tool-listed, output-schema), not the one the explorer fetched earlier.
          listTools: async () =>
            (await api.tools(connectionRef.current ?? conn, latest.current.headers, abort.signal, true)).tools as Tool[],
          grep: names ? namesPattern(names) : undefined,
          bail,
          ...(variables ? { variables } : {}),
          signal: abort.signal,
          // The MRTR dialog lasts as long as its call: the call's signal (its timeout, Stop) closes it unanswered.
          ask: (call) => (requests, signal) =>
            new Promise((resolve) => {
              if (signal?.aborted || !current()) return resolve(null);
              const done = (answers: Record<string, unknown> | null) => {
                signal?.removeEventListener("abort", cancel);
                if (current()) setQuestion(null);
                resolve(answers);
              };
              const cancel = () => done(null);
              signal?.addEventListener("abort", cancel, { once: true });
              setQuestion({ call: call.name, requests, answer: done });
            }),
          onStart: (call) => update((s) => ({ ...s, current: call.name })),
          onCall: (report) => update((s) => ({ ...s, calls: [...s.calls, report], current: undefined })),
        });
        const captured = Object.assign({}, ...report.calls.map((c) => c.captured ?? {})) as Record<string, unknown>;
        update((s) => ({ running: false, calls: report.calls, report, captured: { ...s.captured, ...captured } }));
      } catch (err) {
        update((s) => ({ ...s, running: false, current: undefined, error: (err as Error)?.message ?? String(err) }));
      } finally {
        if (current()) {
          abortRef.current = null;
          setAsks([]);
          setQuestion(null);
        }
      }
    },
    [setAsks],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);

  /** The person's answer to a server request of the call in flight (null: leave it unanswered). */
  const answerServerRequest = useCallback(
    (ask: ServerAsk, result: Record<string, unknown> | null) => {
      const { queue, removed } = removeAsk(asksRef.current, ask.pendingId);
      if (!removed) return;
      setAsks(queue);
      void api.answer(answerRequest(removed, result)).catch(() => undefined);
    },
    [setAsks],
  );

  return { state, question, serverAsks, run, stop, answerServerRequest };
}
