import "server-only";
import { Client, SSEClientTransport, SseError } from "@modelcontextprotocol/client";
import type { HttpExchange, SseEvent, UserHeaders } from "@/lib/mcp/contract";
import { CLIENT_INFO } from "@/lib/mcp/meta";
import { ProxyError } from "./proxy-error.ts";
import { createRecorder } from "./recording-fetch.ts";
import { resolveSseEndpoint } from "./sse-rules.ts";
import { streamCutError, watchExchange, type ExchangeWatchdog, type StreamLimits } from "./stream-watchdog.ts";
import type { Target } from "./targets.ts";
import { cancelledByCaller, ExchangeFailure, noResponseWithin, streamBroken, type ExchangeOptions, type ExchangeResult } from "./upstream-exchange.ts";

/**
 * One short session on the deprecated HTTP+SSE transport (2024-11-05), through the SDK's SSEClientTransport and
 * Client: GET the event stream, wait for its `endpoint` event, initialize, notifications/initialized, then the
 * caller's requests (POSTed to the endpoint, answered as `message` events on the stream), then close.
 *
 * The proxy is stateless, so a session never outlives the API call that opened it: any instance can serve any call,
 * and the stream (which *is* the session on this transport) is closed before the call returns.
 *
 * Every request, the GET stream included, goes through the target's egress-checked fetch, wrapped by the recorder
 * (the user sees the GET with its SSE events, and each POST). Our wrapper adds three guards: the caller's abort,
 * POSTs only to the origin the user named, and no second stream (a stateless proxy does not reconnect a session).
 */

/** Said with every call on an HTTP+SSE connection, so the extra GET and initialize in the HTTP view make sense. */
export const SSE_SESSION_NOTE =
  "HTTP+SSE (2024-11-05): Toolscope opened a fresh session for this call (GET the event stream, initialize, send, read the answer, close), because the proxy keeps no connection between calls and any instance may serve the next one.";

export interface SseSessionOptions {
  target: Target;
  userHeaders: UserHeaders;
  /** Bound for the handshake, and for each request until its answer (or its first notification) arrives. */
  timeoutMs: number;
  maxBodyBytes: number;
  /** Fires when our caller goes away: the stream is closed, which ends the session on the server. */
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
}

export interface SseSession {
  /** The SDK client after the handshake: server info, capabilities, negotiated version. */
  client: Client;
  /**
   * POST a request and wait for the response with its id on the stream; notifications meanwhile go to `onNotification`.
   * With `stream` limits, a request whose server starts talking (progress, logs) is bounded by them instead of the
   * request timeout, as a streamed Streamable HTTP answer is.
   */
  request(
    message: Record<string, unknown>,
    onNotification?: (m: Record<string, unknown>) => void,
    stream?: StreamLimits,
  ): Promise<{ response: Record<string, unknown>; notifications: Record<string, unknown>[] }>;
  /** POST a notification (the server answers 202, nothing on the stream). */
  notify(message: Record<string, unknown>): Promise<void>;
  /** The exchanges recorded since the last call (the GET stream's events keep filling in as they arrive). */
  takeExchanges(): HttpExchange[];
}

interface Waiter {
  resolve(response: Record<string, unknown>): void;
  message(m: Record<string, unknown>): void;
}

/** The answer to a request the server sends on the stream: a proxy call cannot hand it to the browser and back. */
export function serverRequestAnswer(m: Record<string, unknown>): Record<string, unknown> {
  if (m.method === "ping") return { jsonrpc: "2.0", id: m.id, result: {} };
  return {
    jsonrpc: "2.0",
    id: m.id,
    error: { code: -32601, message: `Toolscope does not answer ${String(m.method)} over HTTP+SSE: each call through the proxy is a short session of its own, with no way to ask the user.` },
  };
}

/**
 * A readable reason for an SDK SSE failure: the GET was refused or answered something else, or the stream ended
 * (with a request in flight, that request is lost: `stream-broken`, as on Streamable HTTP; never re-sent by us).
 */
function describeSseError(err: SseError, url: URL, endpointSeen: boolean, inFlight: unknown): ProxyError {
  const detail = err.message.replace(/^SSE error: ?/, "");
  if (!endpointSeen) {
    return new ProxyError(
      "upstream-protocol",
      `${url.href} did not open an HTTP+SSE event stream${detail && detail !== "undefined" ? ` (${detail})` : ""}.`,
      "HTTP+SSE servers (2024-11-05) usually serve their event stream at /sse; Streamable HTTP servers at /mcp (use era auto or legacy for those).",
    );
  }
  if (inFlight !== undefined) return streamBroken(inFlight);
  return new ProxyError("upstream-protocol", `The HTTP+SSE event stream from ${url.origin} ended during the handshake${detail && detail !== "undefined" ? ` (${detail})` : ""}.`);
}

/**
 * The response with a body that reports its read error to `onError` before passing it on: the event source flattens
 * a stream error into a bare message, and ours (e.g. TOOLSCOPE_MAX_RESPONSE_BYTES reached) should reach the user.
 */
function failingWith(res: Response, onError: (err: unknown) => void): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        onError(err);
        controller.error(err);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** Open a session, run `run` on it, close it. Failures come back as ExchangeFailure with every recorded exchange. */
export async function withSseSession<T>(opts: SseSessionOptions, run: (session: SseSession) => Promise<T>): Promise<T> {
  let failure: unknown;
  let rejectFailed!: (err: unknown) => void;
  const failed = new Promise<never>((_, reject) => (rejectFailed = reject));
  failed.catch(() => undefined);
  /** The first failure wins: later ones are consequences (the stream closing, the SDK giving up). */
  const fail = (err: unknown) => {
    if (failure !== undefined) return;
    failure = err;
    rejectFailed(err);
  };
  const closing = new AbortController();
  const signal = opts.signal ? AbortSignal.any([closing.signal, opts.signal]) : closing.signal;
  const onCancel = () => fail(cancelledByCaller());
  if (opts.signal?.aborted) onCancel();
  opts.signal?.addEventListener("abort", onCancel, { once: true });

  let endpointSeen = false;
  /** The limits of the step in flight (the handshake, or one request). */
  let watchdog: ExchangeWatchdog | undefined;
  const recorder = createRecorder(opts.target.fetch, {
    secretHeaderNames: Object.keys(opts.userHeaders),
    maxBodyBytes: opts.maxBodyBytes,
    // Anything arriving on the stream (keep-alive comments included) shows it is alive.
    onBytes: () => watchdog?.activity(),
    onSseEvent: (e) => {
      // Checked as the event is parsed, before the SDK acts on it (the SDK has an origin check of its own too).
      if (e.event === "endpoint" && !endpointSeen) {
        endpointSeen = true;
        try {
          resolveSseEndpoint(e.data, opts.target.url);
        } catch (err) {
          fail(err);
        }
      }
      opts.onSseEvent?.(e);
    },
  });
  let streamOpened = false;
  const guardedFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? "GET";
    try {
      if (method === "GET" && streamOpened) throw new ProxyError("upstream-protocol", "The HTTP+SSE event stream dropped; Toolscope does not reconnect a session (the proxy keeps none between calls).", "Send the request again: it opens a fresh session.");
      if (method !== "GET") resolveSseEndpoint(input instanceof Request ? input.url : String(input), opts.target.url);
      const res = await recorder.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
      if (method !== "GET") return res;
      if (res.status === 200) streamOpened = true;
      return failingWith(res, fail);
    } catch (err) {
      // The original error (a refused address, a refused connection) beats the SDK's flattened SSE message.
      fail(err);
      throw err;
    }
  }) as typeof fetch;

  const transport = new SSEClientTransport(opts.target.url, { fetch: guardedFetch, requestInit: { headers: opts.userHeaders } });
  // No client capabilities: the server must not count on sampling, elicitation or roots from a proxied short session.
  const client = new Client({ ...CLIENT_INFO }, { capabilities: {} });
  const waiters = new Map<string, Waiter>();
  /** The method of the request waiting for its answer, if any. */
  let inFlight: unknown;
  transport.onerror = (err) => fail(err instanceof SseError ? describeSseError(err, opts.target.url, endpointSeen, inFlight) : err);

  /** Race a step against the session failing and its limits (the request timeout; the stream limits once it streams). */
  const bounded = async <R>(step: Promise<R>, stream?: StreamLimits): Promise<R> => {
    let expire!: (err: ProxyError) => void;
    const expired = new Promise<never>((_, reject) => (expire = reject));
    watchdog = watchExchange({ timeoutMs: opts.timeoutMs, stream, onExpire: (expiry) => expire(expiry === "request" ? noResponseWithin(opts.timeoutMs) : streamCutError(expiry, stream!)) });
    try {
      return await Promise.race([step, failed, expired]);
    } finally {
      watchdog.stop();
      watchdog = undefined;
    }
  };

  let taken = 0;
  const session: SseSession = {
    client,
    async request(message, onNotification, stream) {
      const notifications: Record<string, unknown>[] = [];
      const key = JSON.stringify(message.id);
      const answer = new Promise<Record<string, unknown>>((resolve) =>
        waiters.set(key, {
          resolve,
          message(m) {
            // The server is working on it and says so: from now on the stream limits apply, not the request timeout.
            watchdog?.streamOpened();
            notifications.push(m);
            onNotification?.(m);
          },
        }),
      );
      inFlight = message.method;
      try {
        const response = await bounded(transport.send(message as never).then(() => answer), stream);
        return { response, notifications };
      } finally {
        inFlight = undefined;
        waiters.delete(key);
      }
    },
    async notify(message) {
      await bounded(transport.send(message as never));
    },
    takeExchanges() {
      const fresh = recorder.exchanges.slice(taken);
      taken = recorder.exchanges.length;
      return fresh;
    },
  };

  try {
    await bounded(client.connect(transport, { timeout: opts.timeoutMs, signal }));
    // From here on the messages are ours: responses by id, and everything else the server sends meanwhile goes to
    // the requests in flight (progress, log messages, and server requests, which are also answered so none hangs).
    transport.onmessage = (msg) => {
      const m = msg as Record<string, unknown>;
      if (m.method === undefined && ("result" in m || "error" in m)) {
        waiters.get(JSON.stringify(m.id))?.resolve(m);
        return; // a late answer to a request given up on: dropped
      }
      if (m.id !== undefined && typeof m.method === "string") void transport.send(serverRequestAnswer(m) as never).catch(() => undefined);
      for (const w of waiters.values()) w.message(m);
    };
    return await run(session);
  } catch (err) {
    const cause = failure ?? (err instanceof ExchangeFailure ? err.cause : err);
    throw new ExchangeFailure(cause, recorder.exchanges);
  } finally {
    opts.signal?.removeEventListener("abort", onCancel);
    closing.abort();
    await transport.close().catch(() => undefined);
  }
}

/** One message over a fresh HTTP+SSE session (the /api/rpc path for descriptors with `transport: "sse"`). */
export async function exchangeOverSse(opts: Omit<ExchangeOptions, "descriptor" | "extraHeaders">): Promise<ExchangeResult> {
  const started = performance.now();
  return withSseSession(opts, async (session) => {
    let response: Record<string, unknown> | null = null;
    let notifications: Record<string, unknown>[] = [];
    if (opts.message.id !== undefined) ({ response, notifications } = await session.request(opts.message, opts.onNotification, opts.stream));
    else await session.notify(opts.message);
    return { response, notifications, exchanges: session.takeExchanges(), durationMs: performance.now() - started };
  });
}
