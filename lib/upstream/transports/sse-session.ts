import { Client, SSEClientTransport, SseError } from "@modelcontextprotocol/client";
import type { HttpExchange, SseEvent, UserHeaders } from "@/lib/mcp/contract";
import { clientCapabilities, CLIENT_INFO } from "@/lib/mcp/meta";
import { ProxyError } from "../errors/proxy-error.ts";
import { createRecorder } from "../exchange/recording-fetch.ts";
import { resolveSseEndpoint } from "./sse-rules.ts";
import { watchExchange, type ExchangeWatchdog } from "../exchange/stream-watchdog.ts";
import type { Target } from "../egress/targets.ts";
import {
  cancelledByCaller,
  ExchangeFailure,
  noResponseWithin,
  streamBroken,
  type Channel,
  type ExchangeOptions,
} from "../exchange/exchange-core.ts";
import { unattendedAsker } from "../exchange/server-request-asker.ts";

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
  /** Bound for the handshake. */
  timeoutMs: number;
  maxBodyBytes: number;
  /** Fires when our caller goes away: the stream is closed, which ends the session on the server. */
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  /** A person answers the server's requests (ConnectionDescriptor.interactive). */
  interactive?: boolean;
  /** Declare the MCP Apps extension (ConnectionDescriptor.apps absent); default true. */
  apps?: boolean;
}

export interface SseSession {
  /** The SDK client after the handshake: server info, capabilities, negotiated version. */
  client: Client;
  /**
   * A channel on this session for one exchange (runExchange's `open`): POSTs to the endpoint, messages from the
   * stream. The stream is shared by everything on the session, so its messages arrive marked as shared.
   */
  channel: ExchangeOptions["open"];
  /** The exchanges recorded since the last call (the GET stream's events keep filling in as they arrive). */
  takeExchanges(): HttpExchange[];
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
  return new ProxyError(
    "upstream-protocol",
    `The HTTP+SSE event stream from ${url.origin} ended during the handshake${detail && detail !== "undefined" ? ` (${detail})` : ""}.`,
  );
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
      if (method === "GET" && streamOpened)
        throw new ProxyError(
          "upstream-protocol",
          "The HTTP+SSE event stream dropped; Toolscope does not reconnect a session (the proxy keeps none between calls).",
          "Send the request again: it opens a fresh session.",
        );
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
  // The same capabilities on every connection (CLIENT_CAPABILITIES): requests no person can answer get unattendedAsker's.
  // Only the MCP Apps extension follows the playground's switch.
  const client = new Client({ ...CLIENT_INFO }, { capabilities: clientCapabilities(opts.apps !== false) as never });
  /** The method of the request waiting for its answer, if any. */
  let inFlight: unknown;
  /** The exchange running on the session, if any: it gets every message of the stream. */
  let current: Channel | undefined;
  transport.onerror = (err) => fail(err instanceof SseError ? describeSseError(err, opts.target.url, endpointSeen, inFlight) : err);
  failed.catch((err: unknown) => current?.onerror?.(err));

  /** The handshake, raced against the session failing and the request timeout. */
  const bounded = async <R>(step: Promise<R>): Promise<R> => {
    let expire!: (err: ProxyError) => void;
    const expired = new Promise<never>((_, reject) => (expire = reject));
    watchdog = watchExchange({ timeoutMs: opts.timeoutMs, onExpire: () => expire(noResponseWithin(opts.timeoutMs)) });
    try {
      return await Promise.race([step, failed, expired]);
    } finally {
      watchdog.stop();
      watchdog = undefined;
    }
  };

  let taken = 0;
  const takeExchanges = () => {
    const fresh = recorder.exchanges.slice(taken);
    taken = recorder.exchanges.length;
    return fresh;
  };
  const session: SseSession = {
    client,
    async channel(exchangeWatchdog) {
      if (failure !== undefined) throw failure;
      const from = taken;
      watchdog = exchangeWatchdog;
      const channel: Channel = {
        async send(message) {
          inFlight = message.method;
          await transport.send(message as never);
        },
        reply: (message) => transport.send(message as never),
        exchanges: () => recorder.exchanges.slice(from),
        async release() {
          inFlight = undefined;
          current = undefined;
          watchdog = undefined;
          taken = Math.max(taken, recorder.exchanges.length);
        },
      };
      current = channel;
      return channel;
    },
    takeExchanges,
  };

  try {
    await bounded(client.connect(transport, { timeout: opts.timeoutMs, signal }));
    // From here on the messages are ours. The stream is the session's: the exchange running decides what is its own.
    transport.onmessage = (msg) => {
      const m = msg as Record<string, unknown>;
      if (current) {
        // The server talks on the session: it is alive and working, so the stream limits apply, not the request timeout.
        watchdog?.streamOpened();
        current.onmessage?.(m, true);
        return;
      }
      // Between exchanges nobody is there to ask: a request is refused at once, so the server never waits.
      if (m.id !== undefined && typeof m.method === "string") {
        void unattendedAsker("no call is running on this HTTP+SSE session", { betweenCalls: true })
          .ask(m, signal)
          .then(({ answer }) => transport.send({ jsonrpc: "2.0", id: m.id, ...answer } as never))
          .catch(() => undefined);
      }
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
