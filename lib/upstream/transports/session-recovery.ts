import type { ConnectionDescriptor, HttpExchange } from "@/lib/mcp/contract";
import { ExchangeFailure } from "../exchange/exchange-core.ts";

/**
 * Legacy session expiry (2025-11-25 transports §Session Management): a 404 to a request that carried
 * `Mcp-Session-Id` means the session is gone (expired, closed, or the server restarted); the client
 * MUST start a new session with a fresh `initialize`. We do that once, retry the request once on the
 * new session, and hand the new descriptor back to the browser.
 *
 * Published servers often answer an unknown session id with HTTP 400 instead of 404, so a 400 counts too — but only
 * when its body is a JSON-RPC error whose message says the session is unknown (see {@link SESSION_UNKNOWN_MESSAGE}).
 * Real texts: `Bad Request: No valid session ID provided` (@modelcontextprotocol/server-everything and the SDK's
 * examples, with `id` null or the request's id), `Invalid or missing session ID` (the conformance suite's mock
 * servers), `Bad Request: Server not initialized` (the SDK transport of a stateful server that restarted and has
 * not seen an initialize yet). Any other 400 — a malformed message, a bad header, an unsupported protocol version,
 * `Mcp-Session-Id header is required` — is the server's answer to this request, and re-initializing would not change
 * it, so it is returned as it is.
 */

/**
 * A JSON-RPC error message that says the session id is not (or no longer) known: "no valid session", "invalid or
 * missing session", "unknown/expired session", "session not found / unknown / invalid / expired / does not exist",
 * "server not initialized". Deliberately narrow: every alternative names the session or the server's missing
 * initialization, so "invalid params" or "not a valid JSON-RPC message" never match.
 */
export const SESSION_UNKNOWN_MESSAGE =
  /\b(?:no valid|invalid(?: or missing)?|unknown|expired|stale) session\b|\bsession(?: id)?(?: \S+)? (?:(?:was |is )?not found|is unknown|unknown|is invalid|invalid|has expired|expired|is not valid|not valid|does not exist|no longer exists)\b|\bserver not initiali[sz]ed\b/i;

function carriedSessionId(exchange: HttpExchange): boolean {
  return exchange.request.headers.some(([name]) => name.toLowerCase() === "mcp-session-id");
}

/** The `error.message` of a JSON-RPC error body, or undefined when the body is not one. */
function jsonRpcErrorMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const error = (parsed as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const message = (error as { message?: unknown }).message;
  return typeof message === "string" ? message : undefined;
}

/**
 * Why one exchange says its session is gone, or undefined when it does not: `404` (the spec's signal) or `400`
 * (a JSON-RPC error whose message matches {@link SESSION_UNKNOWN_MESSAGE}). Only a POST that carried `Mcp-Session-Id`
 * can say so.
 */
export function sessionGoneSignal(exchange: HttpExchange): "404" | "400" | undefined {
  if (exchange.request.method !== "POST" || !carriedSessionId(exchange)) return undefined;
  const status = exchange.response?.status;
  if (status === 404) return "404";
  if (status === 400) {
    const message = jsonRpcErrorMessage(exchange.response?.body);
    if (message !== undefined && SESSION_UNKNOWN_MESSAGE.test(message)) return "400";
  }
  return undefined;
}

/** True when one of the exchanges of a legacy session's request says the session is gone ({@link sessionGoneSignal}). */
export function sessionExpired(descriptor: Pick<ConnectionDescriptor, "era" | "sessionId">, exchanges: readonly HttpExchange[]): boolean {
  if (descriptor.era !== "legacy" || !descriptor.sessionId) return false;
  return exchanges.some((e) => sessionGoneSignal(e) !== undefined);
}

/** A short, human form of a session id for notes (the full id is in the descriptor). */
export function shortSessionId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

export interface Recovered<T> {
  result: T;
  /** The exchanges of every step: the failed attempt, the new initialize, the retry. */
  exchanges: HttpExchange[];
  /** Set when a new session was started. */
  connection?: ConnectionDescriptor;
  notes: string[];
}

/**
 * Run `attempt` on the descriptor; if a legacy session turns out to have expired, `reconnect` (a fresh
 * legacy initialize), then run `attempt` once more on the new descriptor. Never loops: a second 404 is
 * returned (or thrown) as it is.
 */
export async function withSessionRecovery<T extends { exchanges: HttpExchange[] }>(
  descriptor: ConnectionDescriptor,
  attempt: (descriptor: ConnectionDescriptor) => Promise<T>,
  reconnect: () => Promise<{ connection: ConnectionDescriptor; exchanges: HttpExchange[] }>,
): Promise<Recovered<T>> {
  let first: HttpExchange[];
  try {
    const result = await attempt(descriptor);
    if (!sessionExpired(descriptor, result.exchanges)) return { result, exchanges: result.exchanges, notes: [] };
    first = result.exchanges;
  } catch (err) {
    if (!(err instanceof ExchangeFailure) || !sessionExpired(descriptor, err.exchanges)) throw err;
    first = err.exchanges;
  }

  let fresh: { connection: ConnectionDescriptor; exchanges: HttpExchange[] };
  try {
    fresh = await reconnect();
  } catch (err) {
    if (err instanceof ExchangeFailure) throw new ExchangeFailure(err.cause, [...first, ...err.exchanges]);
    throw err;
  }
  const before = [...first, ...fresh.exchanges];
  const note = fresh.connection.sessionId
    ? `The legacy session had expired; Toolscope started a new one (Mcp-Session-Id ${shortSessionId(fresh.connection.sessionId)}) and sent the request again.`
    : "The legacy session had expired; Toolscope initialized again (the server started no new session) and sent the request again.";
  try {
    const result = await attempt(fresh.connection);
    return { result, exchanges: [...before, ...result.exchanges], connection: fresh.connection, notes: [note] };
  } catch (err) {
    if (err instanceof ExchangeFailure) throw new ExchangeFailure(err.cause, [...before, ...err.exchanges]);
    throw err;
  }
}
