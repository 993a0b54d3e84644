"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ConnectionDescriptor, ProxyErrorBody, RpcResponse, UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/client/api-client";
import {
  buildRetryMessage,
  MAX_MRTR_ROUNDS,
  nextStep,
  retryId,
  type InputRequest,
  type RoundRecord,
} from "@/lib/playground/server-requests/mrtr";
import { withPlaygroundMeta, type LogLevelChoice } from "@/lib/playground/notifications";
import { followTask } from "@/lib/playground/tasks/follow-task";
import { taskHandleOf } from "@/lib/playground/tasks/task-handle";
import { TASK_POLL_LIMITS } from "@/lib/mcp/tasks/task-poll";
import type { TaskState } from "@/lib/mcp/tasks/task-shapes";
import { NO_ATTEMPTS, type AuthAttempts } from "@/lib/playground/oauth/oauth-policy";
import {
  answerFailedNotice,
  answerRequest,
  CANCEL_FALLBACK_MS,
  cancelledLocally,
  endedNotice,
  enqueueAsk,
  removeAsk,
  toServerAsk,
  type ServerAsk,
} from "@/lib/playground/server-requests/server-requests";

export type Outcome = { kind: "response"; rpc: RpcResponse } | { kind: "proxy-error"; error: ProxyErrorBody["error"] };

/** One request/response pair of an exchange. `message` is what the playground sent (before the proxy's stamping). */
export interface Round {
  n: number;
  message: Record<string, unknown>;
  outcome: Outcome;
  /** The inputResponses this round carried (rounds 2+). */
  answered?: Record<string, unknown>;
  /** Milliseconds from sending to the outcome, as the browser saw it. */
  elapsedMs?: number;
  /** Cancel was pressed while this round was in flight. */
  cancelled?: boolean;
}

/**
 * `asking`: waiting for the user, either between MRTR rounds or (a request in flight) for an answer to a request the
 * server sent mid-call; `cancelling`: Cancel was pressed and the proxy is stopping the call (its stream still ends
 * with the exchanges so far).
 */
export type ExchangeState = "running" | "asking" | "cancelling" | "done" | "stopped" | "cancelled" | "abandoned";

/** Everything that happened for one press of Send: the rounds of an MRTR conversation, or just one. */
export interface Exchange {
  id: string;
  startedAt: number;
  /** The request text as it was in the editor. */
  text: string;
  rounds: Round[];
  state: ExchangeState;
  /** Why the exchange stopped early (round limit, loop, malformed input_required). */
  note?: string;
  /** What happened to the server's mid-call requests that the user did not answer here (timed out, withdrawn…). */
  notices?: string[];
  /** The call became a task: as last polled, and when following it began (epoch ms). */
  task?: TaskState & { startedAt: number; seenAt: number };
}

/** The input requests of the latest round, waiting for the user. */
export interface PendingAsk {
  requests: InputRequest[];
  /** The round that asked (1-based). */
  round: number;
  repeated: boolean;
  /** The input a running task waits for (tasks/update), not an MRTR round. */
  forTask?: boolean;
}

function toProxyError(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

interface Options {
  connection: ConnectionDescriptor | undefined;
  headers: UserHeaders;
  /** `Mcp-Name` / `Mcp-Param-*` overrides for every round of the next exchanges (experiments). */
  headerOverrides?: Record<string, string>;
  /** The per-request log level to ask modern servers for (`off`: none). */
  logLevel?: LogLevelChoice;
  /** A replacement descriptor from the proxy (e.g. a new legacy session). */
  onConnection?: (c: ConnectionDescriptor) => void;
  /** Called once per exchange when it ends (for history). */
  onFinished?: (exchange: Exchange) => void;
  /**
   * Each message the server sent outside the call's result, as it arrives: the call's notifications (`call`) and, on
   * HTTP+SSE, the session's own messages (`session`, with the result). For the notifications pane.
   */
  onNotification?: (messages: Record<string, unknown>[], origin: "call" | "session") => void;
  maxRounds?: number;
  /** Declare the tasks extension on calls (2026-07-28), so a server may answer with a task, followed to its end. */
  tasks?: boolean;
  /** The headers to start an exchange with, when they must be made first (an OAuth token about to expire is refreshed). */
  prepareHeaders?: () => Promise<UserHeaders>;
  /**
   * A round was refused for want of authorization (`upstream-auth`): resolves with the headers to send it again with
   * (after a refresh or the user's sign-in), or null to let the exchange end with the refusal.
   */
  onAuthRefusal?: (
    error: ProxyErrorBody["error"],
    attempts: AuthAttempts,
    sent: UserHeaders,
  ) => Promise<{ headers: UserHeaders; attempts: AuthAttempts } | null>;
}

/** A round the server refused for want of authorization: sent again with a token, so no MRTR round of its own. */
function isAuthRefusal(r: Round): boolean {
  return r.outcome.kind === "proxy-error" && r.outcome.error.kind === "upstream-auth";
}

/** The rounds as MRTR counts them (refused-for-authorization rounds left out). */
function mrtrRecords(rounds: readonly Round[]): RoundRecord[] {
  return rounds
    .filter((r) => !isAuthRefusal(r))
    .map((r) => ({ message: r.message, response: r.outcome.kind === "response" ? r.outcome.rpc.response : null }));
}

/** The request in flight: its stream (once announced) and how to stop it. */
interface Flight {
  ctrl: AbortController;
  streamId?: string;
  /** Cancel was pressed: the outcome is recorded as a cancelled round. */
  cancelRequested: boolean;
  /** Closes the connection if the proxy does not end the stream in time after a cancel. */
  fallback?: ReturnType<typeof setTimeout>;
}

/**
 * Runs exchanges: sends a message through /api/rpc (streamed, so progress and log messages show as they come), and while the server answers `input_required`, asks the
 * user (through `ask`/`answer`) and retries with the answers, up to the round limit. Requests the server sends during a
 * call (elicitation, sampling, roots) queue up in `serverAsks` until the user answers them (`answerServerRequest`).
 * One exchange at a time: a new `run` aborts the one in flight; `cancel` asks the proxy to stop the call and keeps
 * reading until the stream ends, so the round is recorded with its exchanges.
 */
export function useExchangeRunner({
  connection,
  headers,
  headerOverrides,
  logLevel = "off",
  onConnection,
  onFinished,
  onNotification,
  maxRounds = MAX_MRTR_ROUNDS,
  prepareHeaders,
  onAuthRefusal,
  tasks = false,
}: Options) {
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [ask, setAsk] = useState<PendingAsk | null>(null);
  /** Notifications of the round in flight, as they stream in (progress, log messages). */
  const [live, setLive] = useState<Record<string, unknown>[]>([]);
  /** Requests the server sent during the call in flight, oldest first, waiting for the user. */
  const [serverAsks, setServerAsks] = useState<ServerAsk[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const flightRef = useRef<Flight | null>(null);
  const asksRef = useRef<ServerAsk[]>([]);
  /** Publishes a change to the exchange in flight (set by `run`, so callbacks outside it can update the exchange). */
  const updateRef = useRef<((f: (ex: Exchange) => Exchange) => void) | null>(null);
  const resolverRef = useRef<((answers: Record<string, unknown> | null) => void) | null>(null);
  /** The task being followed (the call came back as one): Cancel then sends tasks/cancel instead of closing anything. */
  const taskRef = useRef<{ cancel: () => void } | null>(null);
  // This render's inputs, read by callbacks that outlive it (a call in flight outlasts re-renders).
  const inputs = {
    connection,
    headers,
    headerOverrides,
    logLevel,
    onConnection,
    onFinished,
    onNotification,
    prepareHeaders,
    onAuthRefusal,
    tasks,
  };
  const latest = useRef(inputs);
  useEffect(() => {
    latest.current = inputs;
  });

  const setAsks = useCallback((queue: ServerAsk[]) => {
    asksRef.current = queue;
    setServerAsks(queue);
  }, []);

  /** Add a notice to the exchange in flight; `asking` follows whether server requests still wait. */
  const afterAsksChanged = useCallback((notice?: string) => {
    updateRef.current?.((ex) => ({
      ...ex,
      ...(ex.state === "running" || ex.state === "asking" ? { state: asksRef.current.length > 0 ? "asking" : "running" } : {}),
      ...(notice ? { notices: [...(ex.notices ?? []), notice] } : {}),
    }));
  }, []);

  const run = useCallback(
    async (original: Record<string, unknown>, text: string) => {
      abortRef.current?.abort();
      if (flightRef.current?.fallback) clearTimeout(flightRef.current.fallback);
      flightRef.current = null;
      taskRef.current = null;
      resolverRef.current?.(null);
      const ctrl = new AbortController();
      abortRef.current = ctrl;
      let conn = latest.current.connection;
      if (!conn) return;
      // Fixed for the whole exchange: every MRTR round carries the same experiment.
      const overrides = latest.current.headerOverrides;
      let ex: Exchange = {
        id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        startedAt: Date.now(),
        text,
        rounds: [],
        state: "running",
      };
      const isCurrent = () => abortRef.current === ctrl;
      const publish = (next: Exchange) => {
        ex = next;
        if (isCurrent()) setExchange(next);
      };
      updateRef.current = (f) => publish(f(ex));
      const finish = (state: ExchangeState, note?: string) => {
        publish({ ...ex, state, ...(note ? { note } : {}) });
        if (isCurrent()) {
          abortRef.current = null;
          updateRef.current = null;
        }
        latest.current.onFinished?.(ex);
      };
      publish(ex);
      setAsk(null);
      setAsks([]);
      // The headers of this exchange: a sign-in or refresh during it replaces them for the rounds after.
      let headers = latest.current.prepareHeaders ? await latest.current.prepareHeaders() : latest.current.headers;
      if (!isCurrent()) return;
      let authAttempts = NO_ATTEMPTS;
      const used = new Set<unknown>([original.id]);
      // The tasks extension is declared on the call (2026-07-28) when the person allows tasks: the server may then
      // answer with a task handle, followed below to its end.
      const declareTasks = latest.current.tasks === true && conn.era === "modern";
      let n = 0;

      /** Send one message as a round of this exchange; undefined when the exchange was aborted (a new Send). */
      const sendRound = async (message: Record<string, unknown>, answered?: Record<string, unknown>): Promise<Round | undefined> => {
        n++;
        let outcome: Outcome;
        const { message: wire, added } = withPlaygroundMeta(message, conn!.era, latest.current.logLevel);
        const flight: Flight = { ctrl, cancelRequested: false };
        if (isCurrent()) flightRef.current = flight;
        const sentAt = performance.now();
        let streamed = 0;
        try {
          if (isCurrent()) setLive([]);
          const rpc = await api.rpcStream(
            conn!,
            wire,
            headers,
            {
              onNotification: (note) => {
                streamed++;
                latest.current.onNotification?.([note], "call");
                if (isCurrent()) setLive((l) => [...l, note]);
              },
              onStream: (streamId) => {
                flight.streamId = streamId;
              },
              onServerRequest: (event) => {
                if (!isCurrent() || flight.cancelRequested) return;
                setAsks(enqueueAsk(asksRef.current, toServerAsk(event, Date.now())));
                afterAsksChanged();
              },
              onServerRequestEnded: (event) => {
                if (!isCurrent()) return;
                const { queue, removed } = removeAsk(asksRef.current, event.pendingId);
                if (!removed) return;
                setAsks(queue);
                afterAsksChanged(flight.cancelRequested ? undefined : endedNotice(event, removed));
              },
            },
            ctrl.signal,
            overrides,
            // The tasks methods need the extension declared as well (the server answers -32021 otherwise).
            declareTasks && typeof message.method === "string" && (message.method === "tools/call" || message.method.startsWith("tasks/")),
          );
          rpc.added = [...added, ...rpc.added];
          // An API that answered with JSON instead of a stream hands the notifications over with the result only.
          if (streamed === 0 && rpc.notifications.length) latest.current.onNotification?.(rpc.notifications, "call");
          if (rpc.sessionNotifications?.length) latest.current.onNotification?.(rpc.sessionNotifications, "session");
          if (rpc.connection) {
            conn = rpc.connection;
            latest.current.onConnection?.(rpc.connection);
          }
          outcome = { kind: "response", rpc };
        } catch (err) {
          if (!flight.cancelRequested && ((err as Error).name === "AbortError" || ctrl.signal.aborted)) return undefined;
          // After Cancel, the proxy ends the stream with an error carrying the exchanges so far; when it did not
          // (no stream yet, or no answer in time), the connection was closed here and the round says so.
          outcome = {
            kind: "proxy-error",
            error:
              err instanceof ApiError || !flight.cancelRequested
                ? toProxyError(err)
                : cancelledLocally(flight.streamId ? "no-confirmation" : "before-stream"),
          };
        } finally {
          if (flight.fallback) clearTimeout(flight.fallback);
          if (flightRef.current === flight) flightRef.current = null;
          if (isCurrent() && asksRef.current.length) setAsks([]);
        }
        const round: Round = { n, message, outcome, elapsedMs: performance.now() - sentAt, ...(answered ? { answered } : {}) };
        publish({ ...ex, state: flight.cancelRequested ? "cancelling" : "running", rounds: [...ex.rounds, round] });
        if (flight.cancelRequested) round.cancelled = true;
        return round;
      };

      /** Wait for the person's answers to input requests (MRTR rounds, a task's input); null: they closed the dialog. */
      const askPerson = async (pending: PendingAsk): Promise<Record<string, unknown> | null> => {
        publish({ ...ex, state: "asking" });
        setAsk(pending);
        const answers = await new Promise<Record<string, unknown> | null>((resolve) => {
          resolverRef.current = resolve;
        });
        resolverRef.current = null;
        if (isCurrent()) setAsk(null);
        return answers;
      };

      /** The call came back as a task: follow it (polls, input, cancel) as further rounds of this exchange. */
      const follow = async (handle: TaskState): Promise<void> => {
        let cancelled = false;
        let wake: ((passed: boolean) => void) | undefined;
        const startedAt = Date.now();
        taskRef.current = {
          cancel: () => {
            cancelled = true;
            wake?.(false);
            resolverRef.current?.(null);
          },
        };
        const showTask = (task: TaskState) =>
          publish({ ...ex, state: ex.state === "cancelling" ? "cancelling" : "running", task: { ...task, startedAt, seenAt: Date.now() } });
        try {
          const ended = await followTask(
            handle,
            original.id,
            {
              send: async (message) => {
                const round = await sendRound(message);
                if (!round) throw new DOMException("A new Send replaced this exchange.", "AbortError");
                return round.outcome.kind === "response" ? round.outcome.rpc.response : null;
              },
              // A new Send (the signal aborted) stops following without cancelling the task: it runs on, unpolled.
              wait: (ms) =>
                new Promise<boolean>((resolve, reject) => {
                  if (ctrl.signal.aborted) return reject(new DOMException("A new Send replaced this exchange.", "AbortError"));
                  if (cancelled) return resolve(false);
                  const timer = setTimeout(() => resolve(true), ms);
                  wake = (passed) => {
                    clearTimeout(timer);
                    resolve(passed);
                  };
                  ctrl.signal.addEventListener(
                    "abort",
                    () => {
                      clearTimeout(timer);
                      reject(new DOMException("A new Send replaced this exchange.", "AbortError"));
                    },
                    { once: true },
                  );
                }),
              now: () => Date.now(),
              ask: (requests) => askPerson({ requests, round: n, repeated: false, forTask: true }),
              onTask: showTask,
              cancelled: () => cancelled,
            },
            TASK_POLL_LIMITS,
          );
          if (!isCurrent()) return;
          if (ended.end === "done") return finish("done");
          return finish(ended.end, ended.note);
        } catch (err) {
          if ((err as Error).name === "AbortError" || ctrl.signal.aborted) return finish("cancelled");
          throw err;
        } finally {
          if (taskRef.current && isCurrent()) taskRef.current = null;
        }
      };

      let current = original;
      let answered: Record<string, unknown> | undefined;
      for (;;) {
        const round = await sendRound(current, answered);
        if (!round) return finish("cancelled");
        const outcome = round.outcome;
        if (round.cancelled) {
          // The call may have finished before the cancel reached it: then its answer stands.
          if (outcome.kind === "response" && nextStep(mrtrRecords(ex.rounds), maxRounds).kind === "done")
            return finish("done", "The call had already finished when you cancelled it.");
          return finish("cancelled");
        }
        if (outcome.kind === "proxy-error" && outcome.error.kind === "upstream-auth" && latest.current.onAuthRefusal) {
          // Waiting for a refresh or the user's sign-in; then the same message goes again with the token.
          publish({ ...ex, state: "asking" });
          const next = await Promise.race([
            latest.current.onAuthRefusal(outcome.error, authAttempts, headers),
            new Promise<null>((resolve) => ctrl.signal.addEventListener("abort", () => resolve(null), { once: true })),
          ]);
          if (!isCurrent() || ctrl.signal.aborted) return finish("cancelled");
          if (!next) return finish("done");
          headers = next.headers;
          authAttempts = next.attempts;
          publish({ ...ex, state: "running" });
          continue;
        }
        if (outcome.kind === "proxy-error") return finish("done");
        const records = mrtrRecords(ex.rounds);
        const step = nextStep(records, maxRounds);
        if (step.kind === "done") {
          const handle = taskHandleOf(current, outcome.rpc.response, conn.era, declareTasks);
          if (!handle) return finish("done");
          if (!handle.ok) return finish("stopped", handle.error);
          return follow(handle.task);
        }
        if (step.kind === "stop") return finish("stopped", step.reason);
        let inputResponses: Record<string, unknown> = {};
        if (step.kind === "ask") {
          const answers = await askPerson({ requests: step.requests, round: n, repeated: step.repeated });
          if (ctrl.signal.aborted) return finish("cancelled");
          if (answers === null) return finish("abandoned", "You closed the input dialog, so the call was not retried.");
          inputResponses = answers;
          publish({ ...ex, state: "running" });
        }
        const id = retryId(original.id, n + 1, used);
        used.add(id);
        current = buildRetryMessage(original, { inputResponses, requestState: step.requestState, id });
        answered = inputResponses;
      }
    },
    [maxRounds, setAsks, afterAsksChanged],
  );

  /** The user's answers to the pending requests (keyed like them), or null to stop without retrying. */
  const answer = useCallback((answers: Record<string, unknown> | null) => resolverRef.current?.(answers), []);

  /**
   * The user's answer to a server request: a result (ElicitResult, CreateMessageResult, ListRootsResult), or null to
   * leave it unanswered (the server gets an error). The dialog moves on at once; a late or failed delivery is told.
   */
  const answerServerRequest = useCallback(
    (target: ServerAsk, result: Record<string, unknown> | null) => {
      const { queue, removed } = removeAsk(asksRef.current, target.pendingId);
      if (!removed) return;
      setAsks(queue);
      afterAsksChanged();
      const update = updateRef.current;
      api.answer(answerRequest(removed, result)).catch((err: unknown) => {
        const body = toProxyError(err);
        const notice = answerFailedNotice(removed.method, { status: err instanceof ApiError ? err.status : 0, body });
        if (updateRef.current === update) update?.((ex) => ({ ...ex, notices: [...(ex.notices ?? []), notice] }));
      });
    },
    [setAsks, afterAsksChanged],
  );

  const cancel = useCallback(() => {
    if (taskRef.current) {
      updateRef.current?.((ex) => ({ ...ex, state: "cancelling" }));
      taskRef.current.cancel();
      return;
    }
    resolverRef.current?.(null);
    setAsk(null);
    const flight = flightRef.current;
    if (!flight) {
      abortRef.current?.abort();
      return;
    }
    if (flight.cancelRequested) return;
    flight.cancelRequested = true;
    setAsks([]);
    updateRef.current?.((ex) => ({ ...ex, state: "cancelling" }));
    if (!flight.streamId) {
      flight.ctrl.abort();
      return;
    }
    // The proxy aborts the upstream call and ends the stream with the exchanges so far; if it does not within a few
    // seconds (or cannot be asked), close the connection, which stops the call as well.
    flight.fallback = setTimeout(() => flight.ctrl.abort(), CANCEL_FALLBACK_MS);
    api.cancel({ streamId: flight.streamId }).catch((err: unknown) => {
      // 404: the stream has ended meanwhile, so its last event is on its way.
      if (!(err instanceof ApiError && err.status === 404)) flight.ctrl.abort();
    });
  }, [setAsks]);

  useEffect(() => () => abortRef.current?.abort(), []);

  const busy = exchange?.state === "running" || exchange?.state === "asking" || exchange?.state === "cancelling";
  return { exchange, ask, serverAsks, live, busy, run, answer, answerServerRequest, cancel };
}
