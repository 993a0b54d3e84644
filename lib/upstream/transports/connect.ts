import { Client, StreamableHTTPClientTransport, type PriorDiscovery } from "@modelcontextprotocol/client";
import type { ConnectResponse, EraChoice, HttpExchange, Implementation, ServerSummary, UserHeaders } from "@/lib/mcp/contract";
import { CLIENT_INFO, clientCapabilities, MODERN_PROTOCOL_VERSION } from "@/lib/mcp/meta";
import { SseParser } from "@/lib/mcp/sse-parser";
import {
  eraVerdictStore,
  normaliseServerUrl,
  retryHolds,
  verdictTtlMs,
  type EraVerdict,
  type EraVerdictStore,
  type RetryHoldStore,
} from "./era-cache.ts";
import {
  classifyError,
  isRateLimitStatus,
  MAX_REDIRECTS,
  noMcpTransport,
  ProxyError,
  redirectLoop,
  redirectNotFollowed,
  redirectTarget,
  tooManyRedirects,
  upstreamRateLimited,
} from "../errors/proxy-error.ts";
import { createRecorder } from "../exchange/recording-fetch.ts";
import { wantsSseFallback } from "./sse-rules.ts";
import { withSseSession } from "./sse-session.ts";
import type { Target } from "../egress/targets.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";

export interface ConnectOptions {
  target: Target;
  url: string;
  era: EraChoice;
  userHeaders: UserHeaders;
  timeoutMs: number;
  maxBodyBytes: number;
  /** How long an anonymous `auto` verdict is reused (0 or absent: the era cache is off for this connect). */
  eraCacheTtlMs?: number;
  /** Where verdicts live (default: the process-wide store). */
  eraStore?: EraVerdictStore;
  /** Where anonymous connects remember a server's Retry-After (default: the process-wide store; false: not at all). */
  retryHolds?: RetryHoldStore | false;
  /** A person answers the server's requests (ConnectRequest.interactive). */
  interactive?: boolean;
  /** false: declare no MCP Apps extension (ConnectRequest.apps); kept in the descriptor. */
  apps?: boolean;
}

export type ConnectResult = ConnectResponse & { exchanges: HttpExchange[] };

/** The SDK version negotiation for an era choice (shared with the stdio connect). */
export function negotiation(era: EraChoice) {
  if (era === "auto") return { mode: "auto" as const };
  if (era === "modern") return { mode: { pin: MODERN_PROTOCOL_VERSION } };
  return undefined; // the SDK's default is the plain legacy initialize handshake (HTTP+SSE uses it too)
}

/**
 * One SDK connect, optionally from a cached verdict. When Streamable HTTP is plainly not there (the POSTs failed
 * with 400/404/405 and no JSON-RPC error, `initialize` included) and the era choice allows it, the deprecated
 * HTTP+SSE transport is tried next (2025-11-25 transports §Backwards Compatibility).
 */
async function connectOnce(opts: ConnectOptions, prior: PriorDiscovery | undefined): Promise<ConnectResult> {
  let streamable: ExchangeFailure;
  try {
    return await connectStreamable(opts, prior);
  } catch (err) {
    if (!(err instanceof ExchangeFailure) || !wantsSseFallback(opts.era, err.exchanges)) throw err;
    streamable = err;
  }
  try {
    return await connectSse(opts, streamable.exchanges);
  } catch (err) {
    if (!(err instanceof ExchangeFailure)) throw err;
    // No event stream either: the Streamable HTTP failure says more about a wrong URL than a refused GET does, and
    // the message says what both attempts got back.
    const opened = err.exchanges.some((e) => e.request.method === "GET" && e.response?.status === 200);
    const sse = failureOf(err, opts);
    const primary = opened ? sse : failureOf(streamable, opts);
    throw new ExchangeFailure(noMcpTransport(opts.url, primary, sse, streamable.exchanges, err.exchanges), err.exchanges);
  }
}

/**
 * Connect over HTTP+SSE: open the stream, wait for `endpoint`, initialize, close. The descriptor says `transport: "sse"`,
 * and every later call on it opens a short session of its own (./upstream-sse.ts). `earlier` are the exchanges of a
 * failed Streamable HTTP attempt, shown first.
 */
async function connectSse(opts: ConnectOptions, earlier: HttpExchange[]): Promise<ConnectResult> {
  try {
    return await withSseSession(
      {
        target: opts.target,
        userHeaders: opts.userHeaders,
        timeoutMs: opts.timeoutMs,
        maxBodyBytes: opts.maxBodyBytes,
        interactive: opts.interactive,
        apps: opts.apps !== false,
      },
      async (session) => {
        const { server: described } = describeConnected(session.client, opts.target.displayUrl);
        const server = { ...described, transport: "sse" as const };
        return {
          server,
          connection: {
            v: 1,
            url: opts.url,
            era: "legacy",
            protocolVersion: server.protocolVersion,
            transport: "sse",
            ...(opts.interactive ? { interactive: true as const } : {}),
            ...(opts.apps === false ? { apps: false as const } : {}),
          },
          exchanges: [...earlier, ...session.takeExchanges()],
        };
      },
    );
  } catch (err) {
    throw err instanceof ExchangeFailure ? new ExchangeFailure(err.cause, [...earlier, ...err.exchanges]) : err;
  }
}

/* ------------------------------------------------------------------------------------------------------------------
 * The connect guard. The SDK's negotiation reads every answer to its probe as era evidence: a 429 or a redirect loop
 * becomes "legacy" (and `auto` fires `initialize` straight into the same refusal) or, pinned, a version mismatch; and
 * an event stream that breaks before the answer leaves the probe waiting for the whole timeout. The guard sits on
 * the transport's fetch, sees each answer first, and ends the connect at once with the error it is.
 * ---------------------------------------------------------------------------------------------------------------- */

/** How much of an error body is read for the message (the exchange records what was read). */
const ERROR_BODY_BYTES = 64 * 1024;
/** How long reading an error body may take at most: the answer is already known, the body only explains it. */
const ERROR_BODY_MS = 2_000;

/** Up to ERROR_BODY_BYTES of a body as text (less when it stalls); the rest is cancelled. */
async function readErrorBody(res: Response, waitMs: number): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return "";
  const decoder = new TextDecoder();
  let text = "";
  let bytes = 0;
  const deadline = new Promise<"late">((resolve) => setTimeout(() => resolve("late"), Math.min(ERROR_BODY_MS, waitMs)).unref?.());
  try {
    while (bytes < ERROR_BODY_BYTES) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === "late" || next.done) break;
      bytes += next.value.byteLength;
      text += decoder.decode(next.value, { stream: true });
    }
  } catch {
    // A body that breaks off still says what it said so far.
  }
  reader.cancel().catch(() => undefined);
  return text;
}

/** The JSON-RPC request ids and methods in a POST body (one message or a batch). */
function requestsIn(body: unknown): { id: unknown; method: string }[] {
  if (typeof body !== "string") return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter(
        (m): m is Record<string, unknown> =>
          typeof m === "object" && m !== null && "id" in m && typeof (m as { method?: unknown }).method === "string",
      )
      .map((m) => ({ id: m.id, method: m.method as string }));
  } catch {
    return [];
  }
}

/** True when an SSE event's data is (or holds) the answer to one of `ids`. */
function answers(data: string, ids: readonly unknown[]): boolean {
  try {
    const parsed = JSON.parse(data) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed]).some(
      (m) => typeof m === "object" && m !== null && ids.includes((m as { id?: unknown }).id) && ("result" in m || "error" in m),
    );
  } catch {
    return false;
  }
}

/** The event stream answering a connect step ended (or broke) before the answer: connecting again is safe. */
export function connectStreamBroken(rawUrl: string, method: string, how: "ended" | "broke"): ProxyError {
  return new ProxyError(
    "stream-broken",
    `The server's event stream ${how === "ended" ? "ended" : "broke off"} before the answer to ${method} arrived, so the connection could not be set up.`,
    "Connecting is safe to repeat: connect again. If it keeps happening, the server crashes while answering, or a proxy in front of it cuts event streams (check its buffering and timeouts).",
  );
}

interface ConnectGuard {
  fetch: typeof fetch;
  /** The error that ended the connect, when the guard ended it. */
  fatal(): ProxyError | undefined;
}

/**
 * Wraps the recording fetch of one connect. A rate limit (429, 503 + Retry-After) or a redirect that will not lead
 * anywhere (a loop, more than MAX_REDIRECTS hops, another origin) is thrown as its own error before the SDK reads
 * it; an event stream that ends before the answer to the request it carries calls `abort` (which closes the
 * transport, so the SDK stops waiting) and leaves its error in `fatal()`.
 */
function guardConnect(
  inner: typeof fetch,
  o: { url: string; secrets: readonly string[]; timeoutMs: number; abort: () => void },
): ConnectGuard {
  let fatal: ProxyError | undefined;
  /** The redirect being followed: where the next hop goes, and every URL requested so far. */
  let following: { next: string; method: string; chain: string[] } | undefined;
  const fail = (err: ProxyError): never => {
    fatal ??= err;
    throw err;
  };
  const guarded = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const href = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? "GET").toUpperCase();
    const chain = following && following.next === href && following.method === method ? following.chain : [];
    following = undefined;
    const res = await inner(input, init);

    if (isRateLimitStatus(res.status, res.headers.get("retry-after"))) {
      const body = await readErrorBody(res, o.timeoutMs);
      fail(upstreamRateLimited(o.url, { status: res.status, retryAfter: res.headers.get("retry-after"), body, secrets: o.secrets }));
    }

    const target = redirectTarget(res.status, res.headers.get("location"), href);
    if (target) {
      const visited = [...chain, href];
      const drain = () => res.body?.cancel().catch(() => undefined);
      const loopAt = visited.indexOf(target.href);
      if (loopAt >= 0) {
        drain();
        fail(redirectLoop(o.url, [...visited.slice(loopAt), target.href], res.status));
      }
      if (visited.length > MAX_REDIRECTS) {
        drain();
        fail(tooManyRedirects(o.url, visited.length, target.href, res.status));
      }
      // What the SDK follows (fetchWithinOrigin): same origin (or http → https on default ports), same method, same userinfo.
      const from = new URL(href);
      const sameOrigin =
        from.origin === target.origin ||
        (from.protocol === "http:" && target.protocol === "https:" && from.hostname === target.hostname && !from.port && !target.port);
      const keepsMethod = method === "GET" || res.status === 307 || res.status === 308;
      const keepsUser = !(target.username || target.password) || (target.username === from.username && target.password === from.password);
      if (!sameOrigin || !keepsMethod || !keepsUser) {
        drain();
        fail(redirectNotFollowed(href, res.status, target, method));
      }
      following = { next: target.href, method, chain: visited };
      return res;
    }

    const requests = method === "POST" ? requestsIn(init?.body) : [];
    if (
      !res.ok ||
      !res.body ||
      requests.length === 0 ||
      !(res.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream")
    )
      return res;
    // An event stream carrying the answer to a connect step: watch for the answer, and for the stream ending without it.
    const ids = requests.map((r) => r.id);
    let answered = false;
    const parser = new SseParser((event) => {
      if (!answered && answers(event.data, ids)) answered = true;
    });
    const decoder = new TextDecoder();
    const broken = (how: "ended" | "broke") => {
      if (answered || fatal) return;
      fatal = connectStreamBroken(o.url, requests[0].method, how);
      // Let the SDK take in what did arrive first; then close the transport, which ends its wait.
      setTimeout(o.abort, 0);
    };
    const reader = res.body.getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          if (!init?.signal?.aborted) broken("broke");
          controller.error(err);
          return;
        }
        if (chunk.done) {
          parser.push(decoder.decode());
          broken("ended");
          controller.close();
          return;
        }
        parser.push(decoder.decode(chunk.value, { stream: true }));
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    return new Response(watched, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof fetch;
  return { fetch: guarded, fatal: () => fatal };
}

/** One SDK connect over Streamable HTTP. */
async function connectStreamable(opts: ConnectOptions, prior: PriorDiscovery | undefined): Promise<ConnectResult> {
  const recorder = createRecorder(opts.target.fetch, { secretHeaderNames: Object.keys(opts.userHeaders), maxBodyBytes: opts.maxBodyBytes });
  // `abort` runs only once a request is in flight, long after `transport` below exists.
  const guard = guardConnect(recorder.fetch, {
    url: opts.url,
    secrets: Object.values(opts.userHeaders),
    timeoutMs: opts.timeoutMs,
    abort: () => void transport.close().catch(() => undefined),
  });
  const transport = new StreamableHTTPClientTransport(opts.target.url, {
    fetch: guard.fetch,
    requestInit: { headers: opts.userHeaders },
    // A connect step whose stream breaks is not resumed (the guard reports it at once): connecting again is the retry.
    reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1_000, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1 },
  });
  const client = new Client(
    { ...CLIENT_INFO },
    { capabilities: clientCapabilities(opts.apps !== false) as never, versionNegotiation: negotiation(opts.era) },
  );
  try {
    await client.connect(transport, { timeout: opts.timeoutMs, signal: AbortSignal.timeout(opts.timeoutMs), ...(prior ? { prior } : {}) });
    const { server, discover } = describeConnected(client, opts.target.displayUrl);
    const { era, protocolVersion } = server;
    const sessionId = era === "legacy" ? transport.sessionId : undefined;
    return {
      server,
      connection: {
        v: 1,
        url: opts.url,
        era,
        protocolVersion,
        ...(sessionId ? { sessionId } : {}),
        ...(era === "modern" && discover ? { discover } : {}),
        ...(opts.interactive ? { interactive: true as const } : {}),
        ...(opts.apps === false ? { apps: false as const } : {}),
      },
      exchanges: recorder.exchanges,
    };
  } catch (err) {
    throw new ExchangeFailure(guard.fatal() ?? err, recorder.exchanges);
  } finally {
    // Close the client side only: a legacy session stays open for the browser's descriptor.
    await transport.close().catch(() => undefined);
  }
}

/**
 * The verdict a successful probing connect proves, or undefined when it proves nothing.
 * A legacy outcome counts only when the probe got a definite answer: a probe that met a 5xx, 401/403 or
 * 429 (or no response) and still ended legacy says nothing about the era, so it is not remembered.
 */
export function verdictOf(result: ConnectResult): EraVerdict | undefined {
  // The SDK's legacy verdict means Streamable HTTP + initialize: an HTTP+SSE server is found again by the fallback.
  if (result.connection.transport === "sse") return undefined;
  if (result.connection.era === "modern") {
    return result.connection.discover ? { kind: "modern", discover: result.connection.discover as never } : undefined;
  }
  const probe = result.exchanges[0];
  const status = probe?.response?.status;
  if (probe?.request.method !== "POST" || status === undefined) return undefined;
  if (status >= 500 || status === 401 || status === 403 || status === 429) return undefined;
  return { kind: "legacy" };
}

/** What a connected SDK client learned about the server, as the summary our API returns (and the discover result). */
export function describeConnected(client: Client, displayUrl: string): { server: ServerSummary; discover?: Record<string, unknown> } {
  const era = client.getProtocolEra() === "modern" ? "modern" : "legacy";
  const protocolVersion = client.getNegotiatedProtocolVersion() ?? "unknown";
  const discover = client.getDiscoverResult() as Record<string, unknown> | undefined;
  return {
    discover,
    server: {
      serverInfo: client.getServerVersion() as Implementation | undefined,
      era,
      protocolVersion,
      supportedVersions: Array.isArray(discover?.supportedVersions) ? (discover.supportedVersions as string[]) : [protocolVersion],
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      instructions: client.getInstructions(),
      displayUrl,
    },
  };
}

/**
 * Failures that say the server is there but will not answer now (or cannot be reached): they say nothing about its
 * era, so a remembered verdict stays, and a fresh probe would only meet the same failure.
 */
const NOT_ABOUT_THE_ERA = new Set(["upstream-rate-limited", "upstream-timeout", "upstream-unreachable", "blocked-target"]);

/** The ProxyError a connect failure is (for deciding what to do next; the caller classifies it again for its answer). */
function failureOf(err: unknown, opts: ConnectOptions): ProxyError {
  return err instanceof ExchangeFailure
    ? classifyError(err.cause, opts.url, opts.timeoutMs, err.exchanges)
    : classifyError(err, opts.url, opts.timeoutMs);
}

/**
 * Connect through the SDK client (era negotiation: server/discover probe, legacy initialize fallback)
 * and describe the server. Returns a descriptor the browser keeps; nothing is held here afterwards.
 *
 * An anonymous `auto` connect (no user headers) uses the era verdict cache: a remembered verdict is
 * passed as the SDK's `prior`; if the connect fails with it, the entry is dropped and the connect runs
 * once more with a fresh probe (the server may have changed), unless the failure says nothing about the
 * era (a rate limit, a timeout, an unreachable server). Failures are never remembered.
 *
 * A server that rate-limits an anonymous connect (429, or 503 with Retry-After) is not asked again by anonymous
 * connects until its Retry-After has passed (at most MAX_RETRY_HOLD_MS): they fail at once with the same error.
 */
export async function connectServer(opts: ConnectOptions): Promise<ConnectResult> {
  const anonymous = Object.keys(opts.userHeaders).length === 0;
  const holds = opts.retryHolds === false || !anonymous || opts.url.startsWith("builtin:") ? undefined : (opts.retryHolds ?? retryHolds());
  const key = normaliseServerUrl(opts.url);
  const hold = await holds?.get(key);
  if (hold) {
    const left = Math.max(1, Math.ceil((hold.until - Date.now()) / 1000));
    throw new ExchangeFailure(upstreamRateLimited(opts.url, { status: hold.status, retryAfter: String(left), heldSince: hold.since }), []);
  }
  try {
    return await connectRemembering(opts);
  } catch (err) {
    if (holds) {
      const failure = failureOf(err, opts);
      if (failure.kind === "upstream-rate-limited" && failure.retryAfterSeconds)
        await holds.set(key, { since: Date.now(), status: failure.upstreamStatus ?? 429 }, failure.retryAfterSeconds * 1000);
    }
    throw err;
  }
}

async function connectRemembering(opts: ConnectOptions): Promise<ConnectResult> {
  if (opts.era === "legacy-sse") return connectSse(opts, []);
  const ttlMs = opts.eraCacheTtlMs ?? 0;
  const cacheable = opts.era === "auto" && ttlMs > 0 && Object.keys(opts.userHeaders).length === 0;
  if (!cacheable) return connectOnce(opts, undefined);

  const store = opts.eraStore ?? eraVerdictStore;
  const key = normaliseServerUrl(opts.url);
  const prior = await store.get(key);
  let earlier: HttpExchange[] = [];
  if (prior) {
    try {
      // A reused verdict is not re-stored: it ages out on the TTL it got when it was proven.
      return await connectOnce(opts, prior);
    } catch (err) {
      if (NOT_ABOUT_THE_ERA.has(failureOf(err, opts).kind)) throw err;
      await store.delete(key);
      earlier = err instanceof ExchangeFailure ? err.exchanges : [];
    }
  }
  let result: ConnectResult;
  try {
    result = await connectOnce(opts, undefined);
  } catch (err) {
    if (err instanceof ExchangeFailure && earlier.length) throw new ExchangeFailure(err.cause, [...earlier, ...err.exchanges]);
    throw err;
  }
  const verdict = verdictOf(result);
  if (verdict) await store.set(key, verdict, verdictTtlMs(verdict, ttlMs));
  return earlier.length ? { ...result, exchanges: [...earlier, ...result.exchanges] } : result;
}

/** Forget the era verdict for a server (its modern descriptor just failed: the assumption may be stale). */
export async function forgetEraVerdict(url: string, store: EraVerdictStore = eraVerdictStore): Promise<void> {
  await store.delete(normaliseServerUrl(url));
}
