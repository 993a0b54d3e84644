import { SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ConnectionDescriptor, DisconnectRequest, DisconnectResponse, UserHeaders } from "@/lib/mcp/contract";
import { ContractError, parseDescriptor, parseUserHeaders, type HeaderLimits } from "@/lib/mcp/contract-guards";
import { createRecorder } from "../exchange/recording-fetch.ts";
import { shortSessionId } from "./session-recovery.ts";
import type { Target } from "../egress/targets.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";

export function parseDisconnectRequest(body: unknown, limits: HeaderLimits): DisconnectRequest & { headers: UserHeaders } {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ContractError('The request body must be a JSON object like {"connection": {…}}.');
  const b = body as Record<string, unknown>;
  return { connection: parseDescriptor(b.connection), headers: parseUserHeaders(b.headers, limits) };
}

export interface DisconnectOptions {
  target: Target;
  descriptor: ConnectionDescriptor;
  userHeaders: UserHeaders;
  timeoutMs: number;
  maxBodyBytes: number;
}

/**
 * End a connection. Modern connections are stateless, and HTTP+SSE ones close their stream after every call:
 * nothing to do. A legacy session is ended with
 * `DELETE` + `Mcp-Session-Id` through the SDK transport's `terminateSession()`, over our recording,
 * egress-guarded fetch. A 405 means the server does not let clients end sessions (reported, not an error);
 * a 404 means the session was already gone.
 */
export async function disconnectServer(opts: DisconnectOptions): Promise<DisconnectResponse> {
  const { descriptor } = opts;
  if (descriptor.era === "modern") {
    return { ok: true, ended: true, note: "Modern (2026-07-28) connections are stateless: there is no session to end.", exchanges: [] };
  }
  if (descriptor.transport === "sse") {
    return {
      ok: true,
      ended: true,
      note: "HTTP+SSE connections hold no session between calls: each call opened its own event stream and closed it, which ended that session on the server.",
      exchanges: [],
    };
  }
  if (!descriptor.sessionId) {
    return { ok: true, ended: true, note: "The server started no session at initialize: there is nothing to end.", exchanges: [] };
  }
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const timed = (async (input: RequestInfo | URL, init?: RequestInit) =>
    opts.target.fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout })) as typeof fetch;
  const recorder = createRecorder(timed, { secretHeaderNames: Object.keys(opts.userHeaders), maxBodyBytes: opts.maxBodyBytes });
  const transport = new StreamableHTTPClientTransport(opts.target.url, {
    fetch: recorder.fetch,
    requestInit: { headers: opts.userHeaders },
    sessionId: descriptor.sessionId,
    protocolVersion: descriptor.protocolVersion,
  });
  const id = shortSessionId(descriptor.sessionId);
  try {
    await transport.terminateSession();
  } catch (err) {
    if (err instanceof SdkHttpError && err.status === 404) {
      return { ok: true, ended: true, note: `Session ${id} had already ended on the server (HTTP 404).`, exchanges: recorder.exchanges };
    }
    throw new ExchangeFailure(err, recorder.exchanges);
  } finally {
    await transport.close().catch(() => undefined);
  }
  const status = recorder.exchanges.at(-1)?.response?.status;
  if (status === 405) {
    return {
      ok: true,
      ended: false,
      note: `The server does not allow clients to end sessions (HTTP 405): session ${id} stays open until the server expires it.`,
      exchanges: recorder.exchanges,
    };
  }
  return { ok: true, ended: true, note: `The server ended session ${id}.`, exchanges: recorder.exchanges };
}
