import "server-only";
import type { ConnectionDescriptor, HttpExchange, ConnectRequest, ConnectResponse, DisconnectRequest, DisconnectResponse, RpcRequest, RpcResponse, ToolsRequest, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import type { ApiContext } from "./api-route.ts";
import { connectServer, forgetEraVerdict } from "./connect.ts";
import { disconnectServer } from "./disconnect.ts";
import { listAllTools } from "./list-tools.ts";
import { sendRpc } from "./send-rpc.ts";
import { withSessionRecovery } from "./session-recovery.ts";
import { resolveTarget, type Target } from "./targets.ts";
import { toolListCache } from "./tools-cache.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";

type WithHeaders<T> = T & { headers: UserHeaders };

/** POST /api/connect */
export async function connect(input: WithHeaders<ConnectRequest> & { era: NonNullable<ConnectRequest["era"]> }, ctx: ApiContext): Promise<ConnectResponse> {
  const target = await resolveTarget(input.url, ctx.origin);
  return connectServer({
    target,
    url: input.url,
    era: input.era,
    userHeaders: input.headers,
    timeoutMs: ctx.config.requestTimeoutMs,
    maxBodyBytes: ctx.config.maxResponseBytes,
    eraCacheTtlMs: ctx.config.eraCacheTtlMs,
  });
}

/** A fresh legacy initialize for the same server and headers (the old session expired). */
function legacyReconnect(target: Target, descriptor: ConnectionDescriptor, headers: UserHeaders, ctx: ApiContext) {
  return () => connectServer({ target, url: descriptor.url, era: "legacy", userHeaders: headers, timeoutMs: ctx.config.requestTimeoutMs, maxBodyBytes: ctx.config.maxResponseBytes });
}

/** A modern descriptor that fails may rest on a stale cached era verdict: forget it, so the next connect probes again. */
async function forgetVerdictOnFailure<T>(descriptor: ConnectionDescriptor, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (descriptor.era === "modern" && err instanceof ExchangeFailure) await forgetEraVerdict(descriptor.url);
    throw err;
  }
}

/**
 * POST /api/tools: a fresh cached list when there is one (unless `fresh`), else every page from the
 * server, kept as its `ttlMs`/`cacheScope` allow. A legacy session that expired is replaced once.
 */
export async function tools(input: WithHeaders<ToolsRequest>, ctx: ApiContext): Promise<ToolsResponse> {
  if (!input.fresh) {
    const cached = await toolListCache.lookup(input.connection, input.headers);
    if (cached) return { ...cached.list, cache: cached.cache };
  }
  const target = await resolveTarget(input.connection.url, ctx.origin);
  const recovered = await forgetVerdictOnFailure(input.connection, () =>
    withSessionRecovery(input.connection, (descriptor) => fetchToolList(target, descriptor, input.headers, ctx), legacyReconnect(target, input.connection, input.headers, ctx)),
  );
  const { exchanges: _exchanges, ...list } = recovered.result;
  return { ...list, ...(recovered.connection ? { connection: recovered.connection } : {}), ...(recovered.notes.length ? { notes: recovered.notes } : {}) };
}

/** Every page of the list from the server (no session recovery of its own), kept in the cache as its hints allow. */
async function fetchToolList(target: Target, descriptor: ConnectionDescriptor, headers: UserHeaders, ctx: ApiContext): Promise<ToolsResponse & { exchanges: HttpExchange[] }> {
  const { exchanges, ...list } = await listAllTools({
    target,
    descriptor,
    userHeaders: headers,
    timeoutMs: ctx.config.requestTimeoutMs,
    maxBodyBytes: ctx.config.maxResponseBytes,
    maxPages: ctx.config.maxToolPages,
    maxTools: ctx.config.maxTools,
  });
  const cache = await toolListCache.put(descriptor, headers, list);
  return { ...list, cache, exchanges };
}

/** POST /api/rpc: the message as written; a legacy session that expired is replaced once and the message sent again. */
export async function rpc(input: WithHeaders<RpcRequest> & { message: Record<string, unknown> }, ctx: ApiContext): Promise<RpcResponse> {
  const started = performance.now();
  const target = await resolveTarget(input.connection.url, ctx.origin);
  const recovered = await forgetVerdictOnFailure(input.connection, () =>
    withSessionRecovery(
      input.connection,
      (descriptor) => {
        // Within this attempt: an expired session shows up as a 404 here too and is recovered once, by the caller.
        // Modern calls need the definition (Mcp-Param-* mirroring) and fetch it when missing; legacy calls only
        // use a cached one (for the outputSchema verdict): legacy lists carry no ttlMs, so fetching would mean every call.
        const findTool = async (name: string) => {
          const cached = (await toolListCache.lookup(descriptor, input.headers))?.list;
          const list = cached ?? (descriptor.era === "modern" ? await fetchToolList(target, descriptor, input.headers, ctx) : undefined);
          // Excluded tools too: sendRpc refuses a modern call to one (the client rules forbid calling it).
          return list?.tools.find((t) => t.name === name) ?? list?.excluded.find((e) => e.tool.name === name)?.tool;
        };
        return sendRpc({
          target,
          descriptor,
          message: input.message,
          userHeaders: input.headers,
          findTool,
          timeoutMs: ctx.config.requestTimeoutMs,
          maxBodyBytes: ctx.config.maxResponseBytes,
          signal: ctx.signal,
          onSseEvent: ctx.emit && ((event) => ctx.emit?.({ type: "upstream-event", event })),
          onNotification: ctx.emit && ((message) => ctx.emit?.({ type: "notification", message })),
        });
      },
      legacyReconnect(target, input.connection, input.headers, ctx),
    ),
  );
  if (!recovered.connection) return recovered.result;
  return { ...recovered.result, exchanges: recovered.exchanges, durationMs: performance.now() - started, connection: recovered.connection, notes: recovered.notes };
}

/** POST /api/disconnect: end a legacy session (DELETE); a no-op for modern connections. */
export async function disconnect(input: WithHeaders<DisconnectRequest>, ctx: ApiContext): Promise<DisconnectResponse> {
  const target = await resolveTarget(input.connection.url, ctx.origin);
  return disconnectServer({ target, descriptor: input.connection, userHeaders: input.headers, timeoutMs: ctx.config.requestTimeoutMs, maxBodyBytes: ctx.config.maxResponseBytes });
}

/** Forget every cached tool list of a server (for `notifications/tools/list_changed`). */
export async function invalidateToolList(url: string): Promise<void> {
  await toolListCache.invalidate(url);
}
