import "server-only";
import type { ConnectionDescriptor, HttpExchange } from "@/lib/mcp/contract";
import { ExchangeFailure } from "./exchange-core.ts";

/**
 * Legacy session expiry (2025-11-25 transports §Session Management): a 404 to a request that carried
 * `Mcp-Session-Id` means the session is gone (expired, closed, or the server restarted); the client
 * MUST start a new session with a fresh `initialize`. We do that once, retry the request once on the
 * new session, and hand the new descriptor back to the browser.
 */

/** True when one of the exchanges is a POST that carried a session id and got HTTP 404. */
export function sessionExpired(descriptor: Pick<ConnectionDescriptor, "era" | "sessionId">, exchanges: readonly HttpExchange[]): boolean {
  if (descriptor.era !== "legacy" || !descriptor.sessionId) return false;
  return exchanges.some((e) => e.request.method === "POST" && e.response?.status === 404 && e.request.headers.some(([name]) => name.toLowerCase() === "mcp-session-id"));
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
