import type { HttpExchange, ServerRequestRecord } from "@/lib/mcp/contract";
import { ProxyError } from "../errors/proxy-error.ts";
import { WITHDRAWN, type ServerRequestAsker } from "./server-request-asker.ts";
import { streamCutError, watchExchange, type ExchangeWatchdog, type StreamLimits } from "./stream-watchdog.ts";
import { isObject } from "@/lib/json/guards";

/**
 * The one exchange function of the proxy: one JSON-RPC message to an upstream server and what comes back, over any
 * transport. A transport supplies a `Channel` (Streamable HTTP, HTTP+SSE and stdio wrap the SDK's transports); this
 * module matches the response, sorts notifications, answers the server's own requests (through the asker: the
 * browser, or a refusal), enforces the limits, and fails one way (ExchangeFailure, with what was recorded).
 */

/** One transport's side of one exchange. */
export interface Channel {
  /**
   * Every message the server sends while the exchange runs. `shared`: it came on a stream other requests share (an
   * HTTP+SSE session stream, a stdio pipe, a legacy session's GET stream), so it is this call's only when it says so.
   */
  onmessage?: (message: Record<string, unknown>, shared: boolean) => void;
  /** A failure of the channel (the stream or the process broke). */
  onerror?: (err: unknown) => void;
  /** Write the exchange's message. `ended` fires when no answer can come any more (its response stream closed). */
  send(message: Record<string, unknown>, opts: { signal: AbortSignal; ended: () => void }): Promise<void>;
  /** Write our answer to a server request. */
  reply(message: Record<string, unknown>): Promise<void>;
  /** What went over the wire so far (HTTP requests with their responses and events; stdio lines). */
  exchanges(): HttpExchange[];
  /** Close what this exchange opened (a per-exchange transport); shared ones stay. */
  release(): Promise<void>;
}

export interface ExchangeOptions {
  /** Opens the channel; the watchdog takes the transport's signs of life (stream opened, bytes). */
  open: (watchdog: ExchangeWatchdog) => Promise<Channel>;
  /** The JSON-RPC message, already stamped. */
  message: Record<string, unknown>;
  era: "modern" | "legacy";
  /** Until the response is an open event stream (and for the whole exchange when `stream` is not given). */
  timeoutMs: number;
  /** Limits that replace `timeoutMs` once the response streams: a call with progress, a listen stream. */
  stream?: StreamLimits;
  /** Fires when our caller goes away (the browser closed the request). */
  signal?: AbortSignal;
  /** Who answers the server's requests (elicitation, sampling, roots). */
  asker: ServerRequestAsker;
  /** A notification for this request (progress, log message), as soon as it arrives. */
  onNotification?: (message: Record<string, unknown>) => void;
}

export interface ExchangeResult {
  response: Record<string, unknown> | null;
  /** Messages for this request (progress, logs; on a modern server also requests it should not have sent). */
  notifications: Record<string, unknown>[];
  /** Messages on a shared stream that belong to no request of ours. */
  sessionNotifications: Record<string, unknown>[];
  serverRequests: ServerRequestRecord[];
  exchanges: HttpExchange[];
  durationMs: number;
}

/** Failure after some traffic happened: the exchanges go back to the user with the error. */
export class ExchangeFailure extends Error {
  constructor(
    readonly cause: unknown,
    readonly exchanges: HttpExchange[],
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/** The request timeout ran out before the answer came. */
export function noResponseWithin(timeoutMs: number): ProxyError {
  return new ProxyError(
    "upstream-timeout",
    `No response within ${timeoutMs} ms.`,
    "The server may be slow or hung; raise TOOLSCOPE_REQUEST_TIMEOUT_MS when running locally.",
  );
}

/**
 * The response stream ended without the answer (HTTP-15): the request is lost. Toolscope does not re-issue it on
 * its own: a tool call may have had its effect before the stream broke, and only the user can say it is safe to repeat.
 */
export function streamBroken(method: unknown): ProxyError {
  return new ProxyError(
    "stream-broken",
    `The server's event stream closed before the answer to ${typeof method === "string" ? method : "the request"} arrived.`,
    "The request may or may not have run on the server. Send it again to re-issue it (use a new id); if it changes something (not read-only, not idempotent), check its effect first.",
  );
}

/** Our caller went away (the browser closed its request or stream, or pressed Cancel). */
export function cancelledByCaller(): ProxyError {
  return new ProxyError("bad-request", "The request was cancelled.");
}

/**
 * What ends the questions still open when an exchange is over. One shared instance: an Error captures a stack trace,
 * and making one for every call that simply finished showed up in the proxy's CPU profile (issue 15).
 */
const EXCHANGE_OVER = cancelledByCaller();

/**
 * The JSON-RPC error a failed HTTP exchange carried as its body: the server's answer. Its `id` is ours, `null`, or
 * missing (servers that refuse before reading the request, e.g. an unknown session, often leave it out).
 */
function jsonRpcErrorBody(exchange: HttpExchange | undefined, id: unknown): Record<string, unknown> | undefined {
  const body = exchange?.response?.body;
  if (!body || id === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return parsed.jsonrpc === "2.0" && isObject(parsed.error) && (parsed.id === id || parsed.id === null || !("id" in parsed))
      ? parsed
      : undefined;
  } catch {
    return undefined;
  }
}

/** A message on a shared stream is this request's when it names it: its progress token or its id. */
function belongsTo(m: Record<string, unknown>, id: unknown, progressToken: unknown): boolean {
  const params = isObject(m.params) ? m.params : {};
  if (progressToken !== undefined && params.progressToken === progressToken) return true;
  return id !== undefined && params.requestId === id;
}

/** Send one message upstream over the channel `open` gives, and wait for its response (not for a notification). */
export async function runExchange(opts: ExchangeOptions): Promise<ExchangeResult> {
  const started = performance.now();
  const at = () => Math.round(performance.now() - started);
  // One controller for every early end: our limits abort it with the error naming them, our caller with
  // `cancelledByCaller`. Not AbortSignal.any(): Node pins a composite signal with an abort listener until it fires
  // (nodejs/node#57584), which kept every exchange alive. Both listeners are removed when the exchange ends.
  const cut = new AbortController();
  const watchdog = watchExchange({
    timeoutMs: opts.timeoutMs,
    stream: opts.stream,
    onExpire: (expiry) => cut.abort(expiry === "request" ? noResponseWithin(opts.timeoutMs) : streamCutError(expiry, opts.stream!)),
  });
  const id = opts.message.id;
  const expectsResponse = id !== undefined && typeof opts.message.method === "string";
  const progressToken =
    isObject(opts.message.params) && isObject(opts.message.params._meta) ? opts.message.params._meta.progressToken : undefined;
  const notifications: Record<string, unknown>[] = [];
  const sessionNotifications: Record<string, unknown>[] = [];
  const serverRequests: ServerRequestRecord[] = [];
  const answering = new Set<Promise<void>>();
  let channel: Channel | undefined;

  let settle!: { resolve(m: Record<string, unknown> | null): void; reject(err: unknown): void };
  const response = new Promise<Record<string, unknown> | null>((resolve, reject) => (settle = { resolve, reject }));
  response.catch(() => undefined);
  const onCut = () => settle.reject(cut.signal.reason);
  const onCallerGone = () => cut.abort(cancelledByCaller());
  cut.signal.addEventListener("abort", onCut, { once: true });
  if (opts.signal?.aborted) onCallerGone();
  else opts.signal?.addEventListener("abort", onCallerGone, { once: true });

  /** Server requests being asked, by their JSON id: the server may cancel one (notifications/cancelled). */
  const asking = new Map<string, AbortController>();
  const onCutAsks = () => asking.forEach((c) => c.abort(cut.signal.reason));
  cut.signal.addEventListener("abort", onCutAsks, { once: true });

  /** Ask whoever answers for this exchange, send the answer upstream, keep the record. The watchdog waits meanwhile. */
  const answer = (request: Record<string, unknown>) => {
    const atMs = at();
    const release = watchdog.hold();
    const key = JSON.stringify(request.id);
    const ask = new AbortController();
    // A request that arrives after the exchange ended (its answer came, or it was cut) is over before it starts.
    if (cut.signal.aborted) ask.abort(cut.signal.reason);
    asking.set(key, ask);
    // Never synchronously: an asker that throws must not break the transport's reading loop.
    const done = Promise.resolve()
      .then(() => opts.asker.ask(request, ask.signal))
      .then(async ({ answer: body, answeredBy }) => {
        const reply = { jsonrpc: "2.0", id: request.id, ...body };
        serverRequests.push({ request, answer: reply, answeredBy, atMs, answeredAtMs: at() });
        // The server withdrew the request: it expects no answer any more.
        if (ask.signal.reason !== WITHDRAWN) await channel?.reply(reply);
      })
      .catch((err: unknown) => settle.reject(err))
      .finally(() => {
        release();
        asking.delete(key);
        answering.delete(done);
      });
    answering.add(done);
  };

  /** `notifications/cancelled` for one of the server's own requests: stop asking (the dialog closes). */
  const withdraw = (m: Record<string, unknown>): boolean => {
    const requestId = isObject(m.params) ? m.params.requestId : undefined;
    const ask = m.method === "notifications/cancelled" && requestId !== undefined ? asking.get(JSON.stringify(requestId)) : undefined;
    ask?.abort(WITHDRAWN);
    return ask !== undefined;
  };

  const route = (m: Record<string, unknown>, shared: boolean) => {
    const isResponse = m.method === undefined && ("result" in m || "error" in m);
    if (isResponse) {
      if (expectsResponse && m.id === id) settle.resolve(m);
      return; // a late answer to a request given up on, or another request's on a shared stream: not ours
    }
    const isRequest = typeof m.method === "string" && m.id !== undefined;
    // 2026-07-28 servers ask with input_required results, never with requests: listed (the conduct check names it), not answered.
    if (isRequest && opts.era === "legacy") return answer(m);
    if (withdraw(m)) {
      sessionNotifications.push(m);
      opts.onNotification?.(m);
      return;
    }
    if (shared && !isRequest && !belongsTo(m, id, progressToken)) {
      sessionNotifications.push(m);
      opts.onNotification?.(m);
      return;
    }
    notifications.push(m);
    opts.onNotification?.(m);
  };

  try {
    channel = await opts.open(watchdog);
    channel.onmessage = route;
    channel.onerror = (err) => settle.reject(err);
    if (cut.signal.aborted) throw cut.signal.reason;
    await channel.send(opts.message, { signal: cut.signal, ended: () => settle.reject(streamBroken(opts.message.method)) });
    const result = expectsResponse ? await response : null;
    return {
      response: result,
      notifications,
      sessionNotifications,
      serverRequests,
      exchanges: channel.exchanges(),
      durationMs: performance.now() - started,
    };
  } catch (err) {
    const exchanges = channel?.exchanges() ?? [];
    const cause = cut.signal.aborted ? cut.signal.reason : err;
    // Servers answer some errors with an HTTP error status *and* a JSON-RPC error body: that is the server's answer.
    const answered = cut.signal.aborted ? undefined : jsonRpcErrorBody(exchanges.at(-1), id);
    if (answered)
      return {
        response: answered,
        notifications,
        sessionNotifications,
        serverRequests,
        exchanges,
        durationMs: performance.now() - started,
      };
    throw new ExchangeFailure(cause, exchanges);
  } finally {
    watchdog.stop();
    // The caller's signal outlives the exchange (it is the browser request's): nothing of ours may stay attached to it.
    opts.signal?.removeEventListener("abort", onCallerGone);
    cut.signal.removeEventListener("abort", onCut);
    cut.signal.removeEventListener("abort", onCutAsks);
    // Questions still open end with the exchange (the answer came, or the call was cut): the asker sees the abort,
    // the browser is told, and the server gets an error for each.
    if (!cut.signal.aborted) cut.abort(EXCHANGE_OVER);
    onCutAsks();
    await Promise.allSettled([...answering]);
    await channel?.release().catch(() => undefined);
  }
}
