/**
 * A `subscriptions/listen` stream (MCP 2026-07-28) from the browser, through streamed `/api/rpc`.
 *
 * The proxy relays the server's notifications as `notification` events: first
 * `notifications/subscriptions/acknowledged` (the subscription id and the filter the server agreed to
 * honour), then what the filter asked for. The stream ends with one `result` event (the server closed the
 * subscription gracefully: stop) or `error` event (the proxy failed: retry unless it is our request's fault),
 * or just drops. Drops and transient failures reconnect with exponential backoff and jitter.
 */
import type { ConnectionDescriptor, ProxyErrorBody, RpcResponse, RpcStreamEvent, UserHeaders } from "../mcp/contract.ts";
import { SseParser } from "../mcp/sse-parser.ts";
import { isObject } from "../json/guards.ts";

/** The `notifications` filter of `subscriptions/listen`. */
export interface ListenFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId";
export const ACKNOWLEDGED_METHOD = "notifications/subscriptions/acknowledged";

export type ListenStatus =
  | { state: "connecting"; attempt: number }
  | {
      state: "subscribed";
      subscriptionId: string | number;
      /** What the server agreed to honour. */
      acknowledged: ListenFilter;
      /** Requested filter keys the server left out (it does not support them). */
      declined: string[];
      /** 1 for the first subscription of this client, more after reconnects (changes may have been missed). */
      subscriptions: number;
    }
  | { state: "reconnecting"; attempt: number; inMs: number; reason: string }
  | { state: "closed"; reason: "graceful" | "stopped" | "failed"; message?: string };

export interface BackoffOptions {
  /** First delay, before jitter (default 1 s). */
  baseMs?: number;
  /** Largest delay (default 30 s). */
  maxMs?: number;
  /** A number in [0, 1), e.g. Math.random. */
  random?: () => number;
}

export const DEFAULT_BACKOFF_BASE_MS = 1_000;
export const DEFAULT_BACKOFF_MAX_MS = 30_000;

/**
 * The wait before reconnect `attempt` (1-based): exponential (base · 2^(attempt-1)) capped at `maxMs`, with
 * "equal jitter": half of it fixed, half random, so clients spread out but never hammer the server.
 */
export function backoffDelay(
  attempt: number,
  { baseMs = DEFAULT_BACKOFF_BASE_MS, maxMs = DEFAULT_BACKOFF_MAX_MS, random = Math.random }: BackoffOptions = {},
): number {
  const n = Math.max(1, Math.floor(attempt));
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(n - 1, 30));
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling / 2 + (r * ceiling) / 2);
}

/** A timer seam for tests: schedule `fn` after `ms`, return a cancel function. */
export type Schedule = (fn: () => void, ms: number) => () => void;

const defaultSchedule: Schedule = (fn, ms) => {
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
};

export interface ListenOptions {
  connection: ConnectionDescriptor;
  filter: ListenFilter;
  headers?: UserHeaders;
  onStatus: (status: ListenStatus) => void;
  /** Each notification of the subscription (the acknowledgment is reported through `onStatus` instead). */
  onNotification: (message: Record<string, unknown>) => void;
  backoff?: BackoffOptions;
  /** A subscription that lived this long resets the backoff (default 10 s). */
  stableMs?: number;
  /** Seams for tests. */
  fetch?: typeof fetch;
  schedule?: Schedule;
  now?: () => number;
  endpoint?: string;
}

export interface ListenHandle {
  /** Close the stream (ends the subscription) and stop reconnecting. Idempotent. */
  close(): void;
}

/** How one stream attempt ended. */
type Outcome = { kind: "graceful" } | { kind: "fatal"; message: string } | { kind: "retry"; reason: string };

/** Filter keys asked for and not honoured. */
export function declinedFilterKeys(requested: ListenFilter, acknowledged: ListenFilter): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(requested) as [keyof ListenFilter, unknown][]) {
    if (value === undefined || value === false) continue;
    if (Array.isArray(value)) {
      const kept = new Set(acknowledged.resourceSubscriptions ?? []);
      for (const uri of value as string[]) if (!kept.has(uri)) out.push(`${key}:${uri}`);
    } else if (acknowledged[key] !== true) out.push(key);
  }
  return out;
}

/** Which proxy failures are worth retrying: the server or the network, not our own request. */
function retryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

/** JSON-RPC errors that will not go away by asking again. */
const PERMANENT_RPC_ERRORS = new Set([-32600, -32601, -32602, -32022]);

/** Reads the outcome of a final `result` event (the JSON-RPC response to the listen request). */
function resultOutcome(body: RpcResponse): Outcome {
  const response = body.response;
  if (isObject(response) && isObject(response.error)) {
    const code = typeof response.error.code === "number" ? response.error.code : 0;
    const message = `The server refused subscriptions/listen: ${String(response.error.message ?? "error")} (${code}).`;
    return PERMANENT_RPC_ERRORS.has(code) ? { kind: "fatal", message } : { kind: "retry", reason: message };
  }
  return { kind: "graceful" };
}

/** Opens the listen stream and keeps it open until `close()`, the server's graceful closure, or a permanent failure. */
export function openListen(opts: ListenOptions): ListenHandle {
  const doFetch = opts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const schedule = opts.schedule ?? defaultSchedule;
  const now = opts.now ?? Date.now;
  const stableMs = opts.stableMs ?? 10_000;
  let stopped = false;
  let controller: AbortController | undefined;
  let wake: (() => void) | undefined;
  let failures = 0;
  let subscriptions = 0;
  let nextId = 0;

  const status = (s: ListenStatus) => {
    if (!stopped || s.state === "closed") opts.onStatus(s);
  };

  async function attempt(): Promise<Outcome> {
    controller = new AbortController();
    const id = ++nextId;
    let subscribedAt: number | undefined;
    let outcome: Outcome | undefined;
    const res = await doFetch(opts.endpoint ?? "/api/rpc", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        connection: opts.connection,
        headers: opts.headers ?? {},
        message: { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: opts.filter } },
      }),
      signal: controller.signal,
    });
    if (!(res.headers.get("content-type") ?? "").includes("text/event-stream") || !res.body) {
      let message = `Toolscope answered HTTP ${res.status}.`;
      try {
        message = ((await res.json()) as ProxyErrorBody).error?.message ?? message;
      } catch {
        // not JSON: keep the status line
      }
      return retryableStatus(res.status) ? { kind: "retry", reason: message } : { kind: "fatal", message };
    }

    const onEvent = (event: RpcStreamEvent) => {
      if (event.type === "notification") {
        const message = event.message;
        if (message.method === ACKNOWLEDGED_METHOD && subscribedAt === undefined) {
          const params = isObject(message.params) ? message.params : {};
          const meta = isObject(params._meta) ? params._meta : {};
          const acknowledged = (isObject(params.notifications) ? params.notifications : {}) as ListenFilter;
          const subscriptionId = (meta[SUBSCRIPTION_ID_META_KEY] as string | number | undefined) ?? id;
          subscribedAt = now();
          subscriptions++;
          status({
            state: "subscribed",
            subscriptionId,
            acknowledged,
            declined: declinedFilterKeys(opts.filter, acknowledged),
            subscriptions,
          });
          return;
        }
        opts.onNotification(message);
      } else if (event.type === "result") {
        outcome = resultOutcome(event.body);
      } else if (event.type === "error") {
        const message = event.body?.error?.message ?? `HTTP ${event.status}`;
        outcome = retryableStatus(event.status) ? { kind: "retry", reason: message } : { kind: "fatal", message };
      }
    };

    const parser = new SseParser((e) => {
      try {
        onEvent(JSON.parse(e.data) as RpcStreamEvent);
      } catch (err) {
        if (err instanceof SyntaxError) return; // not one of our events: ignore it
        throw err;
      }
    });
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(value);
        if (outcome) break;
      }
    } finally {
      if (subscribedAt !== undefined && now() - subscribedAt >= stableMs) failures = 0;
      reader.cancel().catch(() => undefined);
    }
    return outcome ?? { kind: "retry", reason: "The listen stream dropped." };
  }

  async function run(): Promise<void> {
    while (!stopped) {
      status({ state: "connecting", attempt: failures + 1 });
      let outcome: Outcome;
      try {
        outcome = await attempt();
      } catch (err) {
        if (stopped) return;
        outcome = { kind: "retry", reason: `Toolscope's server could not be reached (${(err as Error).message}).` };
      }
      if (stopped) return;
      if (outcome.kind === "graceful") {
        stopped = true;
        return opts.onStatus({ state: "closed", reason: "graceful", message: "The server ended the subscription." });
      }
      if (outcome.kind === "fatal") {
        stopped = true;
        return opts.onStatus({ state: "closed", reason: "failed", message: outcome.message });
      }
      failures++;
      const inMs = backoffDelay(failures, opts.backoff);
      status({ state: "reconnecting", attempt: failures, inMs, reason: outcome.reason });
      await new Promise<void>((resolve) => {
        const cancel = schedule(resolve, inMs);
        wake = () => {
          cancel();
          resolve();
        };
      });
      wake = undefined;
    }
  }

  void run();

  return {
    close() {
      if (stopped) return;
      stopped = true;
      controller?.abort();
      wake?.();
      opts.onStatus({ state: "closed", reason: "stopped" });
    },
  };
}
