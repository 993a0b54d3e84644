import "server-only";
import type { ConnectionDescriptor, HttpExchange, ConnectRequest, ConnectResponse, DisconnectRequest, DisconnectResponse, RpcRequest, RpcResponse, ToolsRequest, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import type { ApiContext } from "./api-route.ts";
import { connectServer, forgetEraVerdict } from "./connect.ts";
import { disconnectServer } from "./disconnect.ts";
import { listAllTools } from "./list-tools.ts";
import { sendRpc } from "./send-rpc.ts";
import { connectStdio, disconnectStdio, isStdioUrl, listStdioTools, rpcStdio } from "./stdio-service.ts";
import { ProxyError } from "./proxy-error.ts";
import { withSessionRecovery } from "./session-recovery.ts";
import { resolveTarget, type Target } from "./targets.ts";
import { toolListCache } from "./tools-cache.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";
import { config } from "./config.ts";
import { onStop } from "./lifecycle.ts";
import { log } from "./log.ts";
import { processSingleton } from "./process-singleton.ts";
import { ToolListBus } from "./tool-list-bus.ts";
import { streamLimitsFor } from "./stream-watchdog.ts";

type WithHeaders<T> = T & { headers: UserHeaders };

/** POST /api/connect */
export async function connect(input: WithHeaders<ConnectRequest> & { era: NonNullable<ConnectRequest["era"]> }, ctx: ApiContext): Promise<ConnectResponse> {
  if (isStdioUrl(input.url)) {
    if (input.era === "legacy-sse") throw new ProxyError("bad-request", "legacy-sse is an HTTP transport (GET an event stream, POST messages); a stdio server has none.", "Connect with era auto, modern or legacy.");
    return connectStdio(input, ctx.config);
  }
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

/**
 * A modern descriptor that fails may rest on a stale cached era verdict: forget it, so the next connect probes again.
 * Not when our caller went away (`signal` aborted: e.g. a browser closing its subscriptions/listen stream).
 */
async function forgetVerdictOnFailure<T>(descriptor: ConnectionDescriptor, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (descriptor.era === "modern" && err instanceof ExchangeFailure && !signal?.aborted) await forgetEraVerdict(descriptor.url);
    throw err;
  }
}

/**
 * POST /api/tools: a fresh cached list when there is one (unless `fresh`), else every page from the
 * server, kept as its `ttlMs`/`cacheScope` allow. A legacy session that expired is replaced once.
 */
export async function tools(input: WithHeaders<ToolsRequest>, ctx: ApiContext): Promise<ToolsResponse> {
  if (isStdioUrl(input.connection.url)) {
    const { exchanges: _exchanges, ...list } = await listStdioTools(input.connection, ctx.config);
    return list;
  }
  // This instance now caches lists: it must hear other instances' list_changed (a no-op without REDIS_URL).
  void toolListBus()?.start();
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
  const listen = input.message.method === "subscriptions/listen";
  if (listen && !ctx.emit) {
    throw new ProxyError(
      "bad-request",
      "open subscriptions/listen with Accept: text/event-stream: a listen stream stays open until it is closed, so it has no single JSON answer.",
      "Send the same body with the request header Accept: text/event-stream; notifications then arrive as events, and closing the stream ends the subscription.",
    );
  }
  if (listen && input.connection.transport === "sse") {
    throw new ProxyError(
      "bad-request",
      "subscriptions/listen is a 2026-07-28 method; this server speaks the deprecated HTTP+SSE transport (2024-11-05), where the proxy opens a short session per call and keeps no stream open.",
      "Legacy servers announce changes as notifications (e.g. notifications/tools/list_changed) on their own stream; reload the tool list to see changes.",
    );
  }
  if (isStdioUrl(input.connection.url)) {
    return rpcStdio(input.connection, input.message, ctx.config, { signal: ctx.signal, onNotification: ctx.emit && ((message) => ctx.emit?.({ type: "notification", message })) });
  }
  const started = performance.now();
  const target = await resolveTarget(input.connection.url, ctx.origin);
  const relay = notificationRelay(input.connection.url, ctx.emit);
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
          headerOverrides: input.headerOverrides,
          findTool,
          // Until the answer streams; then a call with progress (or a listen stream) is bounded by the stream limits.
          timeoutMs: ctx.config.requestTimeoutMs,
          stream: streamLimitsFor(input.message.method, ctx.config),
          maxBodyBytes: ctx.config.maxResponseBytes,
          signal: ctx.signal,
          onSseEvent: ctx.emit && ((event) => ctx.emit?.({ type: "upstream-event", event })),
          onNotification: relay.onNotification,
        });
      },
      legacyReconnect(target, input.connection, input.headers, ctx),
    ),
    ctx.signal,
  ).finally(relay.drained);
  if (!recovered.connection) return recovered.result;
  return { ...recovered.result, exchanges: recovered.exchanges, durationMs: performance.now() - started, connection: recovered.connection, notes: recovered.notes };
}

/** POST /api/disconnect: end a legacy session (DELETE); a no-op for modern connections. */
export async function disconnect(input: WithHeaders<DisconnectRequest>, ctx: ApiContext): Promise<DisconnectResponse> {
  if (isStdioUrl(input.connection.url)) return disconnectStdio(input.connection, ctx.config);
  const target = await resolveTarget(input.connection.url, ctx.origin);
  return disconnectServer({ target, descriptor: input.connection, userHeaders: input.headers, timeoutMs: ctx.config.requestTimeoutMs, maxBodyBytes: ctx.config.maxResponseBytes });
}

/**
 * Relays a call's notifications to the stream in arrival order. `notifications/tools/list_changed` (on a
 * subscriptions/listen stream, or any other) first drops every cached list of that server, so whoever reacts
 * to it (a docs page refreshing) already gets the new list.
 */
function notificationRelay(url: string, emit: ApiContext["emit"]) {
  let queue: Promise<void> = Promise.resolve();
  return {
    onNotification(message: Record<string, unknown>): void {
      queue = queue.then(async () => {
        if (message.method === "notifications/tools/list_changed") {
          await invalidateToolList(url).catch((err: unknown) => log.warn("could not invalidate the tool list cache", { reason: (err as Error).message }));
        }
        emit?.({ type: "notification", message });
      });
    },
    drained: () => queue,
  };
}

/**
 * Everything that caches a server's tool list registers here (this module's list cache, the docs snapshots).
 * Process-wide: a list_changed seen by /api/rpc must reach the cache copies the docs pages read.
 */
export function toolListInvalidationHooks(): Set<(url: string) => unknown> {
  return processSingleton("tool-list-invalidation-hooks", () => new Set<(url: string) => unknown>());
}

toolListInvalidationHooks().add((url) => toolListCache.invalidate(url));

/** Run this process's invalidation hooks for a server (also what a list_changed heard from another instance does). */
async function runLocalInvalidation(url: string): Promise<void> {
  await Promise.all([...toolListInvalidationHooks()].map(async (hook) => hook(url)));
}

/** The list_changed bus between instances, when Redis is configured. */
function toolListBus(): ToolListBus | undefined {
  const url = config().redisUrl;
  return url
    ? processSingleton("tool-list-bus", () => {
        const bus = new ToolListBus(url, runLocalInvalidation);
        onStop(() => bus.close());
        return bus;
      })
    : undefined;
}

/**
 * Forget every cached tool list of a server, in every cache of the process (for `notifications/tools/list_changed`),
 * and tell the other instances (builtin and stdio servers live per process: nothing to tell).
 */
export async function invalidateToolList(url: string): Promise<void> {
  await runLocalInvalidation(url);
  if (/^https?:/.test(url)) await toolListBus()?.publish(url).catch((err: unknown) => log.warn("could not publish list_changed to other instances", { reason: (err as Error).message }));
}
