import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, HttpExchange, SseEvent, UserHeaders } from "@/lib/mcp/contract";
import { applyHeaderOverrides } from "@/lib/mcp/wire-headers";
import { type Channel, type ExchangeResult, runExchange } from "../exchange/exchange-core.ts";
import { createRecorder } from "../exchange/recording-fetch.ts";
import { unattendedAsker, type ServerRequestAsker } from "../exchange/server-request-asker.ts";
import { openSessionStream } from "./session-stream.ts";
import { endWelcome, welcomeSession } from "./session-welcome.ts";
import type { StreamLimits } from "../exchange/stream-watchdog.ts";
import type { Target } from "../egress/targets.ts";
import { connectServer } from "./connect.ts";
import { disconnectServer } from "./disconnect.ts";
import type { Upstream, UpstreamConfig } from "../upstream.ts";

/** Times a legacy response stream with event ids is resumed (GET + Last-Event-ID) before the request counts as lost. */
export const LEGACY_RESUME_ATTEMPTS = 2;

/** What a Streamable HTTP channel needs besides the message. */
export interface HttpChannelOptions {
  target: Target;
  descriptor: Pick<ConnectionDescriptor, "era" | "protocolVersion" | "sessionId">;
  userHeaders: UserHeaders;
  /** Headers derived from the call, e.g. `Mcp-Param-*`. */
  extraHeaders?: Record<string, string>;
  maxBodyBytes: number;
  onSseEvent?: (e: SseEvent) => void;
  /**
   * Open the legacy session's GET stream for the exchange: a server asks requests unrelated to a call (roots/list
   * from `listRoots()`) there, and only while a client holds it. Only when a person can answer them.
   */
  sessionStream?: boolean;
}

/**
 * A target whose POSTs carry the user's header overrides. They are applied at the fetch, after the SDK transport:
 * the transport refuses per-request `Mcp-Name` (it derives it from the body), and an experiment wants exactly that.
 */
export function withOverrides(target: Target, overrides: Record<string, string> | undefined): Target {
  if (!overrides || Object.keys(overrides).length === 0) return target;
  const inner = target.fetch;
  const fetchWith = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? "GET") !== "POST") return inner(input, init);
    const { headers } = applyHeaderOverrides([...new Headers(init?.headers).entries()], overrides);
    return inner(input, { ...init, headers });
  }) as typeof fetch;
  return { ...target, fetch: fetchWith };
}

/**
 * How long the session's GET stream is read after the call's answer. What the call caused is announced there (a tool
 * that changes the list: notifications/tools/list_changed), written by the server right after the answer, so it
 * arrives a moment later on its own connection; closing at once would lose it.
 */
const SESSION_STREAM_GRACE_MS = 50;

/** Both streams' records, in the order they started. */
function merged(a: HttpExchange[], b: HttpExchange[]): HttpExchange[] {
  return b.length === 0 ? a : [...a, ...b].sort((x, y) => x.startedAt.localeCompare(y.startedAt));
}

/**
 * A channel over the SDK's Streamable HTTP transport (which sets MCP-Protocol-Version, Mcp-Method, Mcp-Name and
 * Mcp-Session-Id), made for one exchange and closed after it: the proxy holds nothing between calls.
 */
export function httpChannel(opts: HttpChannelOptions): Parameters<typeof runExchange>[0]["open"] {
  return async (watchdog) => {
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
      reconnectionOptions: {
        maxRetries: opts.descriptor.era === "legacy" ? LEGACY_RESUME_ATTEMPTS : 0,
        initialReconnectionDelay: 200,
        maxReconnectionDelay: 1000,
        reconnectionDelayGrowFactor: 2,
      },
    });
    const session =
      opts.sessionStream && opts.descriptor.era === "legacy" && opts.descriptor.sessionId
        ? {
            recorder: createRecorder(opts.target.fetch, {
              secretHeaderNames: Object.keys(opts.userHeaders),
              maxBodyBytes: opts.maxBodyBytes,
              onSseEvent: opts.onSseEvent,
            }),
            stop: new AbortController(),
            reading: false,
          }
        : undefined;
    const channel: Channel = {
      async send(message, { signal, ended }) {
        // The session stream first: a server request raised while the call runs must find it open.
        if (session) {
          endWelcome(opts.descriptor.sessionId);
          session.reading = await openSessionStream(opts, session.recorder.fetch, session.stop.signal, (m) => channel.onmessage?.(m, true));
        }
        await transport.send(message as never, { headers: opts.extraHeaders, requestSignal: signal, onRequestStreamEnd: ended });
      },
      reply: (message) => transport.send(message as never),
      exchanges: () => merged(recorder.exchanges, session?.recorder.exchanges ?? []),
      async release() {
        if (session?.reading) await new Promise((resolve) => setTimeout(resolve, SESSION_STREAM_GRACE_MS));
        session?.stop.abort();
        await transport.close().catch(() => undefined);
      },
    };
    transport.onmessage = (m) => channel.onmessage?.(m as Record<string, unknown>, false);
    // A broken stream the SDK could not resume ends in onRequestStreamEnd, which says what happened.
    transport.onerror = (err) => {
      if (!/^Maximum reconnection attempts/.test(err.message)) channel.onerror?.(err);
    };
    // start() only makes the transport-wide AbortController that close() aborts. A modern exchange has nothing it
    // would stop: its one POST is bound to the exchange's own signal (aborted when the exchange ends) and it never
    // resumes a stream. Skipping it spares each call a controller, an AbortSignal.any per send and the AbortError on
    // close, which issue 15's profile counted among the per-call costs. Legacy exchanges keep it: their resumed GET
    // streams hang on it.
    if (opts.descriptor.era === "legacy") await transport.start();
    return channel;
  };
}

export interface HttpExchangeOptions extends HttpChannelOptions {
  message: Record<string, unknown>;
  timeoutMs: number;
  stream?: StreamLimits;
  signal?: AbortSignal;
  asker?: ServerRequestAsker;
  onNotification?: (message: Record<string, unknown>) => void;
}

/** One message over Streamable HTTP (a connect step, a list page, a script's call): the core over an HTTP channel. */
export function exchangeMessage(opts: HttpExchangeOptions): Promise<ExchangeResult> {
  return runExchange({
    open: httpChannel(opts),
    message: opts.message,
    era: opts.descriptor.era,
    timeoutMs: opts.timeoutMs,
    stream: opts.stream,
    signal: opts.signal,
    asker: opts.asker ?? unattendedAsker("no one is there to ask"),
    onNotification: opts.onNotification,
  });
}

/** A Streamable HTTP server (either era; connect falls back to HTTP+SSE when Streamable HTTP is plainly not there). */
export function streamableUpstream(target: Target, cfg: UpstreamConfig): Upstream {
  return {
    transport: "streamable-http",
    cachesLists: true,
    listens: true,
    hasHeaders: true,
    connect: async (input) => {
      const connected = await connectServer({
        target,
        url: input.url,
        era: input.era,
        userHeaders: input.userHeaders,
        interactive: input.interactive,
        apps: input.apps,
        timeoutMs: cfg.requestTimeoutMs,
        maxBodyBytes: cfg.maxResponseBytes,
        eraCacheTtlMs: cfg.eraCacheTtlMs,
      });
      const { connection } = connected;
      // A person's legacy session: what the server asks right after initialized has only the GET stream to go to.
      if (input.interactive && connection.era === "legacy" && connection.transport !== "sse")
        welcomeSession(
          { target, descriptor: connection, userHeaders: input.userHeaders, roots: input.roots ?? [] },
          { welcomeMs: cfg.sessionWelcomeMs, maxWelcomes: cfg.maxSessionWelcomes, maxBodyBytes: cfg.maxResponseBytes },
        );
      return connected;
    },
    // Nothing is held between exchanges: each opens its own transport (and the legacy GET stream while a person can answer).
    withSession: (descriptor, io, run) =>
      run((extra) =>
        httpChannel({
          target: withOverrides(target, io.headerOverrides),
          descriptor,
          userHeaders: io.userHeaders,
          extraHeaders: extra?.headers,
          maxBodyBytes: io.maxBodyBytes,
          onSseEvent: io.onSseEvent,
          sessionStream: io.interactive,
        }),
      ),
    disconnect: (descriptor, userHeaders) =>
      disconnectServer({ target, descriptor, userHeaders, timeoutMs: cfg.requestTimeoutMs, maxBodyBytes: cfg.maxResponseBytes }),
    extras: () => ({}),
  };
}
