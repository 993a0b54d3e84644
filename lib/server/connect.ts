import "server-only";
import { Client, StreamableHTTPClientTransport, type PriorDiscovery } from "@modelcontextprotocol/client";
import type { ConnectResponse, EraChoice, HttpExchange, Implementation, ServerSummary, UserHeaders } from "@/lib/mcp/contract";
import { CLIENT_CAPABILITIES, CLIENT_INFO, MODERN_PROTOCOL_VERSION } from "@/lib/mcp/meta";
import { eraVerdictStore, normaliseServerUrl, verdictTtlMs, type EraVerdict, type EraVerdictStore } from "./era-cache.ts";
import { createRecorder } from "./recording-fetch.ts";
import { wantsSseFallback } from "./sse-rules.ts";
import { withSseSession } from "./sse-session.ts";
import type { Target } from "./targets.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";

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
    // No event stream either: the Streamable HTTP failure says more about a wrong URL than a refused GET does.
    const opened = err.exchanges.some((e) => e.request.method === "GET" && e.response?.status === 200);
    throw new ExchangeFailure(opened ? err.cause : streamable.cause, err.exchanges);
  }
}

/**
 * Connect over HTTP+SSE: open the stream, wait for `endpoint`, initialize, close. The descriptor says `transport: "sse"`,
 * and every later call on it opens a short session of its own (./sse-session.ts). `earlier` are the exchanges of a
 * failed Streamable HTTP attempt, shown first.
 */
async function connectSse(opts: ConnectOptions, earlier: HttpExchange[]): Promise<ConnectResult> {
  try {
    return await withSseSession({ target: opts.target, userHeaders: opts.userHeaders, timeoutMs: opts.timeoutMs, maxBodyBytes: opts.maxBodyBytes }, async (session) => {
      const { server: described } = describeConnected(session.client, opts.target.displayUrl);
      const server = { ...described, transport: "sse" as const };
      return { server, connection: { v: 1, url: opts.url, era: "legacy", protocolVersion: server.protocolVersion, transport: "sse" }, exchanges: [...earlier, ...session.takeExchanges()] };
    });
  } catch (err) {
    throw err instanceof ExchangeFailure ? new ExchangeFailure(err.cause, [...earlier, ...err.exchanges]) : err;
  }
}

/** One SDK connect over Streamable HTTP. */
async function connectStreamable(opts: ConnectOptions, prior: PriorDiscovery | undefined): Promise<ConnectResult> {
  const recorder = createRecorder(opts.target.fetch, { secretHeaderNames: Object.keys(opts.userHeaders), maxBodyBytes: opts.maxBodyBytes });
  const transport = new StreamableHTTPClientTransport(opts.target.url, { fetch: recorder.fetch, requestInit: { headers: opts.userHeaders } });
  const client = new Client({ ...CLIENT_INFO }, { capabilities: CLIENT_CAPABILITIES as never, versionNegotiation: negotiation(opts.era) });
  try {
    await client.connect(transport, { timeout: opts.timeoutMs, signal: AbortSignal.timeout(opts.timeoutMs), ...(prior ? { prior } : {}) });
    const { server, discover } = describeConnected(client, opts.target.displayUrl);
    const { era, protocolVersion } = server;
    const sessionId = era === "legacy" ? transport.sessionId : undefined;
    return {
      server,
      connection: { v: 1, url: opts.url, era, protocolVersion, ...(sessionId ? { sessionId } : {}), ...(era === "modern" && discover ? { discover } : {}) },
      exchanges: recorder.exchanges,
    };
  } catch (err) {
    throw new ExchangeFailure(err, recorder.exchanges);
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
 * Connect through the SDK client (era negotiation: server/discover probe, legacy initialize fallback)
 * and describe the server. Returns a descriptor the browser keeps; nothing is held here afterwards.
 *
 * An anonymous `auto` connect (no user headers) uses the era verdict cache: a remembered verdict is
 * passed as the SDK's `prior`; if the connect fails with it, the entry is dropped and the connect runs
 * once more with a fresh probe (the server may have changed). Failures are never remembered.
 */
export async function connectServer(opts: ConnectOptions): Promise<ConnectResult> {
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
