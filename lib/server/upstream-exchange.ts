import "server-only";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, HttpExchange, SseEvent, UserHeaders } from "@/lib/mcp/contract";
import { createRecorder } from "./recording-fetch.ts";
import type { Target } from "./targets.ts";
import { ProxyError } from "./proxy-error.ts";
import { streamCutError, watchExchange, type StreamLimits } from "./stream-watchdog.ts";

export interface ExchangeOptions {
  target: Target;
  descriptor: Pick<ConnectionDescriptor, "era" | "protocolVersion" | "sessionId">;
  /** The JSON-RPC message, already stamped. */
  message: Record<string, unknown>;
  userHeaders: UserHeaders;
  /** Headers derived from the call, e.g. `Mcp-Param-*`. */
  extraHeaders?: Record<string, string>;
  /** Until the response is an open event stream (and for the whole exchange when `stream` is not given). */
  timeoutMs: number;
  /** Limits that replace `timeoutMs` once the response streams: a call with progress, a listen stream. */
  stream?: StreamLimits;
  maxBodyBytes: number;
  /** Fires when our caller goes away (the browser closed the request). */
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  /** A notification for this request (progress, log message), as soon as it arrives. */
  onNotification?: (message: Record<string, unknown>) => void;
}

export interface ExchangeResult {
  response: Record<string, unknown> | null;
  notifications: Record<string, unknown>[];
  exchanges: HttpExchange[];
  durationMs: number;
}

/** Failure after some HTTP traffic happened: the exchanges go back to the user with the error. */
export class ExchangeFailure extends Error {
  constructor(
    readonly cause: unknown,
    readonly exchanges: HttpExchange[],
  ) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/** Times a legacy response stream with event ids is resumed (GET + Last-Event-ID) before the request counts as lost. */
export const LEGACY_RESUME_ATTEMPTS = 2;

/** The request timeout ran out before the answer came (any HTTP transport). */
export function noResponseWithin(timeoutMs: number): ProxyError {
  return new ProxyError("upstream-timeout", `No response within ${timeoutMs} ms.`, "The server may be slow or hung; raise TOOLSCOPE_REQUEST_TIMEOUT_MS when running locally.");
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

/** Our caller went away (the browser closed its request or stream). */
export function cancelledByCaller(): ProxyError {
  return new ProxyError("bad-request", "The request was cancelled.");
}

/** The JSON-RPC error response carried by a failed HTTP exchange, when its body is one for our request. */
function jsonRpcErrorBody(exchange: HttpExchange | undefined, id: unknown): Record<string, unknown> | undefined {
  const body = exchange?.response?.body;
  if (!body || id === undefined) return undefined;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return parsed.jsonrpc === "2.0" && typeof parsed.error === "object" && parsed.error !== null && (parsed.id === id || parsed.id === null) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Send one JSON-RPC message upstream through the SDK's Streamable HTTP transport (which sets the
 * protocol headers: MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id) and wait for its response.
 * Holds nothing after it returns: the transport lives for this one exchange.
 */
export async function exchangeMessage(opts: ExchangeOptions): Promise<ExchangeResult> {
  const started = performance.now();
  // One controller for every early end of the exchange: our own limits (request timeout, stream idle and maximum)
  // abort it with the error that names them, and our caller going away with `cancelledByCaller`. Not
  // `AbortSignal.any([cut.signal, opts.signal])`: Node pins a composite signal that has an `abort` listener in a
  // process-wide strong set until that listener is removed, and an exchange that succeeds never fires it, so every
  // call kept the listener, the transport and the request's async context (Next's request store, the response) alive:
  // ~42 KB per /api/rpc call, for good (nodejs/node#57584). Both listeners below are removed when the exchange ends.
  const cut = new AbortController();
  const watchdog = watchExchange({
    timeoutMs: opts.timeoutMs,
    stream: opts.stream,
    onExpire: (expiry) => cut.abort(expiry === "request" ? noResponseWithin(opts.timeoutMs) : streamCutError(expiry, opts.stream!)),
  });
  const recorder = createRecorder(opts.target.fetch, {
    secretHeaderNames: Object.keys(opts.userHeaders),
    maxBodyBytes: opts.maxBodyBytes,
    onSseEvent: opts.onSseEvent,
    onStreamOpen: watchdog.streamOpened,
    onBytes: watchdog.activity,
  });
  const transport = new StreamableHTTPClientTransport(opts.target.url, {
    fetch: recorder.fetch,
    requestInit: { headers: opts.userHeaders },
    sessionId: opts.descriptor.sessionId,
    // Legacy servers learn the version from this header; modern requests carry it in _meta and the transport derives the header.
    protocolVersion: opts.descriptor.era === "legacy" ? opts.descriptor.protocolVersion : undefined,
    // Never re-send a request on our own. A legacy server that numbered its events may close the stream and expect
    // us to resume it (GET + Last-Event-ID, which repeats nothing); modern streams are not resumable (HTTP-14).
    reconnectionOptions: { maxRetries: opts.descriptor.era === "legacy" ? LEGACY_RESUME_ATTEMPTS : 0, initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2 },
  });
  const notifications: Record<string, unknown>[] = [];
  const id = opts.message.id;
  const expectsResponse = id !== undefined;
  const onCallerGone = () => cut.abort(cancelledByCaller());

  let rejectResponse: (err: unknown) => void = () => undefined;
  const onCut = () => rejectResponse(cut.signal.reason as ProxyError);
  const response = new Promise<Record<string, unknown> | null>((resolve, reject) => {
    rejectResponse = reject;
    transport.onmessage = (msg) => {
      const m = msg as Record<string, unknown>;
      if (expectsResponse && ("result" in m || "error" in m) && m.id === id) resolve(m);
      else {
        notifications.push(m);
        opts.onNotification?.(m);
      }
    };
    // A broken stream the SDK could not resume ends in onRequestStreamEnd below, which says what happened.
    transport.onerror = (err) => {
      if (!/^Maximum reconnection attempts/.test(err.message)) reject(err);
    };
  });
  response.catch(() => undefined);
  cut.signal.addEventListener("abort", onCut, { once: true });
  if (opts.signal?.aborted) onCallerGone();
  else opts.signal?.addEventListener("abort", onCallerGone, { once: true });

  try {
    await transport.start();
    // Fired once the request's event stream is over and every message on it was handled: no answer by then, none will come.
    await transport.send(opts.message as never, { headers: opts.extraHeaders, requestSignal: cut.signal, onRequestStreamEnd: () => rejectResponse(streamBroken(opts.message.method)) });
    const result = expectsResponse ? await response : null;
    return { response: result, notifications, exchanges: recorder.exchanges, durationMs: performance.now() - started };
  } catch (err) {
    // Modern servers answer some errors with an HTTP error status *and* a JSON-RPC error body: that is the server's answer.
    const answer = jsonRpcErrorBody(recorder.exchanges.at(-1), id);
    if (answer) return { response: answer, notifications, exchanges: recorder.exchanges, durationMs: performance.now() - started };
    throw new ExchangeFailure(err, recorder.exchanges);
  } finally {
    watchdog.stop();
    // The caller's signal outlives the exchange (it is the browser request's): nothing of ours may stay attached to it.
    opts.signal?.removeEventListener("abort", onCallerGone);
    cut.signal.removeEventListener("abort", onCut);
    await transport.close().catch(() => undefined);
  }
}
