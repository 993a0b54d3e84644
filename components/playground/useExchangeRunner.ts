"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ConnectionDescriptor, ProxyErrorBody, RpcResponse, UserHeaders } from "@/lib/mcp/contract";
import { api, ApiError } from "@/lib/playground/api-client";
import { buildRetryMessage, MAX_MRTR_ROUNDS, nextStep, retryId, type InputRequest, type RoundRecord } from "@/lib/playground/mrtr";
import { withPlaygroundMeta, type LogLevelChoice } from "@/lib/playground/notifications";

export type Outcome = { kind: "response"; rpc: RpcResponse } | { kind: "proxy-error"; error: ProxyErrorBody["error"] };

/** One request/response pair of an exchange. `message` is what the playground sent (before the proxy's stamping). */
export interface Round {
  n: number;
  message: Record<string, unknown>;
  outcome: Outcome;
  /** The inputResponses this round carried (rounds 2+). */
  answered?: Record<string, unknown>;
}

export type ExchangeState = "running" | "asking" | "done" | "stopped" | "cancelled" | "abandoned";

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
}

/** The input requests of the latest round, waiting for the user. */
export interface PendingAsk {
  requests: InputRequest[];
  /** The round that asked (1-based). */
  round: number;
  repeated: boolean;
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
  maxRounds?: number;
}

/**
 * Runs exchanges: sends a message through /api/rpc (streamed, so progress and log messages show as they come), and while the server answers `input_required`, asks the
 * user (through `ask`/`answer`) and retries with the answers, up to the round limit. One exchange at a time:
 * a new `run` or `cancel` aborts the one in flight.
 */
export function useExchangeRunner({ connection, headers, headerOverrides, logLevel = "off", onConnection, onFinished, maxRounds = MAX_MRTR_ROUNDS }: Options) {
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [ask, setAsk] = useState<PendingAsk | null>(null);
  /** Notifications of the round in flight, as they stream in (progress, log messages). */
  const [live, setLive] = useState<Record<string, unknown>[]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const resolverRef = useRef<((answers: Record<string, unknown> | null) => void) | null>(null);
  const latest = useRef({ connection, headers, headerOverrides, logLevel, onConnection, onFinished });
  useEffect(() => {
    latest.current = { connection, headers, headerOverrides, logLevel, onConnection, onFinished };
  });

  const run = useCallback(
    async (original: Record<string, unknown>, text: string) => {
      abortRef.current?.abort();
      resolverRef.current?.(null);
      const ctrl = new AbortController();
      abortRef.current = ctrl;
      let conn = latest.current.connection;
      if (!conn) return;
      // Fixed for the whole exchange: every MRTR round carries the same experiment.
      const overrides = latest.current.headerOverrides;
      let ex: Exchange = { id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, startedAt: Date.now(), text, rounds: [], state: "running" };
      const publish = (next: Exchange) => {
        ex = next;
        if (abortRef.current === ctrl) setExchange(next);
      };
      const finish = (state: ExchangeState, note?: string) => {
        publish({ ...ex, state, ...(note ? { note } : {}) });
        if (abortRef.current === ctrl) abortRef.current = null;
        latest.current.onFinished?.(ex);
      };
      publish(ex);
      setAsk(null);
      const used = new Set<unknown>([original.id]);
      let current = original;
      let answered: Record<string, unknown> | undefined;
      for (let n = 1; ; n++) {
        let outcome: Outcome;
        const { message: wire, added } = withPlaygroundMeta(current, conn.era, latest.current.logLevel);
        try {
          if (abortRef.current === ctrl) setLive([]);
          const rpc = await api.rpcStream(conn, wire, latest.current.headers, (n) => {
            if (abortRef.current === ctrl) setLive((l) => [...l, n]);
          }, ctrl.signal, overrides);
          rpc.added = [...added, ...rpc.added];
          if (rpc.connection) {
            conn = rpc.connection;
            latest.current.onConnection?.(rpc.connection);
          }
          outcome = { kind: "response", rpc };
        } catch (err) {
          if ((err as Error).name === "AbortError" || ctrl.signal.aborted) return finish("cancelled");
          outcome = { kind: "proxy-error", error: toProxyError(err) };
        }
        publish({ ...ex, rounds: [...ex.rounds, { n, message: current, outcome, ...(answered ? { answered } : {}) }] });
        if (outcome.kind === "proxy-error") return finish("done");
        const records: RoundRecord[] = ex.rounds.map((r) => ({ message: r.message, response: r.outcome.kind === "response" ? r.outcome.rpc.response : null }));
        const step = nextStep(records, maxRounds);
        if (step.kind === "done") return finish("done");
        if (step.kind === "stop") return finish("stopped", step.reason);
        let inputResponses: Record<string, unknown> = {};
        if (step.kind === "ask") {
          publish({ ...ex, state: "asking" });
          setAsk({ requests: step.requests, round: n, repeated: step.repeated });
          const answers = await new Promise<Record<string, unknown> | null>((resolve) => {
            resolverRef.current = resolve;
          });
          resolverRef.current = null;
          if (abortRef.current === ctrl) setAsk(null);
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
    [maxRounds],
  );

  /** The user's answers to the pending requests (keyed like them), or null to stop without retrying. */
  const answer = useCallback((answers: Record<string, unknown> | null) => resolverRef.current?.(answers), []);

  const cancel = useCallback(() => {
    abortRef.current?.abort();
    resolverRef.current?.(null);
    setAsk(null);
  }, []);

  useEffect(() => () => abortRef.current?.abort(), []);

  const busy = exchange?.state === "running" || exchange?.state === "asking";
  return { exchange, ask, live, busy, run, answer, cancel };
}
