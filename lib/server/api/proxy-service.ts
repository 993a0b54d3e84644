import "server-only";
import type {
  ConnectionDescriptor,
  HttpExchange,
  ConnectRequest,
  ConnectResponse,
  DisconnectRequest,
  DisconnectResponse,
  RpcRequest,
  RpcResponse,
  ToolsRequest,
  ToolsResponse,
  UserHeaders,
} from "@/lib/mcp/contract";
import { classifyResponse } from "@/lib/mcp/response-kind";
import type { ApiContext } from "./api-route.ts";
import { forgetEraVerdict } from "@/lib/upstream";
import { config } from "../platform/config.ts";
import { ExchangeFailure } from "@/lib/upstream";
import { KnownTools, knownTools } from "../tool-lists/known-tools.ts";
import { onStop } from "../../runtime/lifecycle.ts";
import { listAllTools } from "@/lib/upstream";
import { log } from "../../log/log.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { SingleFlight } from "../../runtime/single-flight.ts";
import { ProxyError } from "@/lib/upstream/policy";
import { sendRpc } from "@/lib/upstream";
import { withSessionRecovery } from "@/lib/upstream";
import { streamLimitsFor } from "@/lib/upstream";
import { ToolListBus } from "../tool-lists/tool-list-bus.ts";
import { bumpToolListGeneration } from "../tool-lists/tool-list-generation.ts";
import { toolListCache } from "../tool-lists/tools-cache.ts";
import type { SessionIo, Upstream } from "@/lib/upstream";
import { upstreamFor as coreUpstreamFor } from "@/lib/upstream";
import { BUILTIN_TARGETS } from "../platform/builtin-targets.ts";

type WithHeaders<T> = T & { headers: UserHeaders };

/** The upstream for a URL or descriptor, with Toolscope's builtin servers reachable. The transport is chosen here, once. */
function upstreamFor(of: string | ConnectionDescriptor, ctx: ApiContext): Promise<Upstream> {
  return coreUpstreamFor(of, { config: ctx.config, origin: ctx.origin, builtins: BUILTIN_TARGETS });
}

/** POST /api/connect */
export async function connect(
  input: WithHeaders<ConnectRequest> & { era: NonNullable<ConnectRequest["era"]> },
  ctx: ApiContext,
): Promise<ConnectResponse> {
  const upstream = await upstreamFor(input.url, ctx);
  return upstream.connect({
    url: input.url,
    era: input.era,
    userHeaders: input.headers,
    interactive: input.interactive === true,
    ...(input.roots ? { roots: input.roots } : {}),
    ...(input.apps === false ? { apps: false } : {}),
  });
}

/** A fresh legacy initialize for the same server, headers and capabilities (the old session expired). */
function legacyReconnect(upstream: Upstream, descriptor: ConnectionDescriptor, headers: UserHeaders) {
  return async () => {
    const { connection, exchanges } = await upstream.connect({
      url: descriptor.url,
      era: "legacy",
      userHeaders: headers,
      interactive: descriptor.interactive === true,
      ...(descriptor.apps === false ? { apps: false } : {}),
    });
    return { connection, exchanges: exchanges ?? [] };
  };
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

/** A session's worth of I/O settings for a call of the API. */
function sessionIo(headers: UserHeaders, ctx: ApiContext, interactive: boolean, headerOverrides?: Record<string, string>): SessionIo {
  return {
    userHeaders: headers,
    timeoutMs: ctx.config.requestTimeoutMs,
    maxBodyBytes: ctx.config.maxResponseBytes,
    signal: ctx.signal,
    onSseEvent: ctx.emit && ((event) => ctx.emit?.({ type: "upstream-event", event })),
    interactive,
    headerOverrides,
  };
}

/**
 * POST /api/tools: a fresh cached list when there is one (unless `fresh`), else every page from the
 * server, kept as its `ttlMs`/`cacheScope` allow. A legacy session that expired is replaced once.
 */
export async function tools(input: WithHeaders<ToolsRequest>, ctx: ApiContext): Promise<ToolsResponse> {
  const upstream = await upstreamFor(input.connection, ctx);
  if (upstream.cachesLists) {
    // This instance now caches lists: it must hear other instances' list_changed (a no-op without REDIS_URL).
    void toolListBus()?.start();
    if (!input.fresh) {
      const cached = await toolListCache.lookup(input.connection, input.headers);
      if (cached) {
        // The list this process serves is the one a later fetch is compared with (another instance may have stored it).
        knownTools().remember(input.connection, input.headers, cached.list);
        return { ...cached.list, cache: cached.cache };
      }
    }
  }
  const recovered = await forgetVerdictOnFailure(input.connection, () =>
    withSessionRecovery(
      input.connection,
      (descriptor) => fetchToolList(upstream, descriptor, input.headers, ctx),
      legacyReconnect(upstream, input.connection, input.headers),
    ),
  );
  const { exchanges: _exchanges, ...list } = recovered.result;
  return {
    ...list,
    ...(recovered.connection ? { connection: recovered.connection } : {}),
    ...(recovered.notes.length ? { notes: recovered.notes } : {}),
  };
}

/** Every page of the list from the server (no session recovery of its own), kept as its hints allow. */
async function fetchToolList(
  upstream: Upstream,
  descriptor: ConnectionDescriptor,
  headers: UserHeaders,
  ctx: ApiContext,
): Promise<ToolsResponse & { exchanges: HttpExchange[] }> {
  const { exchanges, ...list } = await listAllTools(upstream, descriptor, sessionIo(headers, { ...ctx, emit: undefined }, false), {
    timeoutMs: ctx.config.requestTimeoutMs,
    maxPages: ctx.config.maxToolPages,
    maxTools: ctx.config.maxTools,
    maxDescriptionChars: ctx.config.maxDescriptionChars,
    deadlineMs: ctx.config.listDeadlineMs,
    schemaLimits: { maxBytes: ctx.config.maxSchemaBytes, maxDepth: ctx.config.maxSchemaDepth },
  });
  // Another list than the one last seen here: the server changed it without telling us (no one was listening, or the
  // announcement was lost). Every other cached view of it is stale too: drop them, here and on the other instances.
  if (knownTools().differs(descriptor, headers, list)) await invalidateQuietly(descriptor.url);
  knownTools().remember(descriptor, headers, list);
  const cache = upstream.cachesLists ? await toolListCache.put(descriptor, headers, list) : { hit: false };
  return { ...list, cache, exchanges };
}

/** List walks a call started, shared by the calls that need the same list at the same time. */
function callListWalks(): SingleFlight<ToolsResponse> {
  return processSingleton("call-list-walks", () => new SingleFlight<ToolsResponse>());
}

/**
 * The definitions a call is judged by. A list cached as its `ttlMs` allows; else, when this process listed the server
 * less than TOOLSCOPE_TOOL_DEFINITION_FLOOR_MS ago (the browser just did), nothing: the caller takes the definition
 * from knownTools. Only a modern call needs the definition it lacks (Mcp-Param-* mirroring): it walks the list once,
 * and calls arriving meanwhile wait for that walk. Other calls use the definitions last listed (the outputSchema
 * verdict, excluded tools): fetching would mean a walk per call.
 */
async function definitionsForCall(
  upstream: Upstream,
  descriptor: ConnectionDescriptor,
  headers: UserHeaders,
  ctx: ApiContext,
): Promise<ToolsResponse | undefined> {
  const cached = upstream.cachesLists ? await toolListCache.freshList(descriptor, headers) : undefined;
  if (cached) return cached;
  if (descriptor.era !== "modern" || !upstream.hasHeaders) return undefined;
  if (knownTools().listedWithin(descriptor, headers, ctx.config.toolDefinitionFloorMs)) return undefined;
  const key = `${KnownTools.key(descriptor, headers)}\n${descriptor.protocolVersion}`;
  // Not bound to this caller's request: the walk serves every call waiting on it (the request timeout still bounds it).
  const shared: ApiContext = { ...ctx, signal: new AbortController().signal, emit: undefined, asker: undefined };
  return callListWalks().run(key, () => fetchToolList(upstream, descriptor, headers, shared));
}

/** Refuse what a transport or an API shape cannot carry, with what to do instead. */
function refuseUnsupported(message: Record<string, unknown>, upstream: Upstream, ctx: ApiContext): void {
  const listen = message.method === "subscriptions/listen";
  if (listen && !ctx.emit) {
    throw new ProxyError(
      "bad-request",
      "open subscriptions/listen with Accept: text/event-stream: a listen stream stays open until it is closed, so it has no single JSON answer.",
      "Send the same body with the request header Accept: text/event-stream; notifications then arrive as events, and closing the stream ends the subscription.",
    );
  }
  if (listen && !upstream.listens) {
    throw new ProxyError(
      "bad-request",
      "subscriptions/listen is a 2026-07-28 method; this server speaks the deprecated HTTP+SSE transport (2024-11-05), where the proxy opens a short session per call and keeps no stream open.",
      "Legacy servers announce changes as notifications (e.g. notifications/tools/list_changed) on their own stream; reload the tool list to see changes.",
    );
  }
}

/** POST /api/rpc: the message as written; a legacy session that expired is replaced once and the message sent again. */
export async function rpc(input: WithHeaders<RpcRequest> & { message: Record<string, unknown> }, ctx: ApiContext): Promise<RpcResponse> {
  const started = performance.now();
  const upstream = await upstreamFor(input.connection, ctx);
  refuseUnsupported(input.message, upstream, ctx);
  const relay = notificationRelay(input.connection.url, ctx.emit);
  /** Whether the called tool was in the definitions we hold (then an unknown-tool answer says they are stale). */
  let listed = false;
  const recovered = await forgetVerdictOnFailure(
    input.connection,
    () =>
      withSessionRecovery(
        input.connection,
        (descriptor) => {
          const findTool = async (name: string) => {
            const list = await definitionsForCall(upstream, descriptor, input.headers, ctx);
            // Excluded tools too: sendRpc refuses a call to one (the client rules forbid calling it).
            const tool =
              list?.tools.find((t) => t.name === name) ??
              list?.excluded.find((e) => e.tool.name === name)?.tool ??
              knownTools().find(descriptor, input.headers, name);
            listed = tool !== undefined;
            return tool;
          };
          return sendRpc({
            upstream,
            descriptor,
            message: input.message,
            userHeaders: input.headers,
            headerOverrides: input.headerOverrides,
            ...(input.tasks ? { tasks: true } : {}),
            findTool,
            // Until the answer streams; then a call with progress (or a listen stream) is bounded by the stream limits.
            timeoutMs: ctx.config.requestTimeoutMs,
            stream: streamLimitsFor(input.message.method, ctx.config),
            maxBodyBytes: ctx.config.maxResponseBytes,
            signal: ctx.signal,
            onSseEvent: ctx.emit && ((event) => ctx.emit?.({ type: "upstream-event", event })),
            onNotification: relay.onNotification,
            asker: ctx.asker,
          });
        },
        legacyReconnect(upstream, input.connection, input.headers),
      ),
    ctx.signal,
  ).finally(relay.drained);
  await forgetUnknownTool(input.connection.url, input.message, recovered.result.response, listed);
  if (!recovered.connection) return withoutExchangesIf(input.exchanges === false, recovered.result);
  return withoutExchangesIf(input.exchanges === false, {
    ...recovered.result,
    exchanges: recovered.exchanges,
    durationMs: performance.now() - started,
    connection: recovered.connection,
    notes: [...recovered.notes, ...(recovered.result.notes ?? [])],
  });
}

/** The answer for a caller that asked for no exchanges (RpcRequest.exchanges: false): the rest as it is. */
function withoutExchangesIf(omit: boolean, answer: RpcResponse): RpcResponse {
  return omit ? { ...answer, exchanges: [] } : answer;
}

/**
 * A server that answers "unknown tool" for a tool our cached definitions list has changed its list (caching.mdx
 * §Freshness Calculation): drop every cached view of it, as list_changed does. A name no list of ours holds (a typo)
 * says nothing about the list, and invalidating on it would let any caller flush the caches of every instance.
 */
async function forgetUnknownTool(url: string, message: Record<string, unknown>, response: Record<string, unknown> | null, listed: boolean) {
  if (!listed || !response || message.method !== "tools/call") return;
  const answer = classifyResponse(response, "tools/call");
  if (answer.kind !== "rpc-error" || answer.errorKind !== "unknown-tool") return;
  await invalidateQuietly(url);
}

/** invalidateToolList for a change we found ourselves: a cache that cannot be reached is logged, not the caller's failure. */
function invalidateQuietly(url: string): Promise<void> {
  return invalidateToolList(url).catch((err: unknown) =>
    log.warn("could not invalidate the tool list cache", { reason: (err as Error).message }),
  );
}

/** POST /api/disconnect: end what the connection holds (a legacy session, a stdio process); a no-op for modern ones. */
export async function disconnect(input: WithHeaders<DisconnectRequest>, ctx: ApiContext): Promise<DisconnectResponse> {
  const upstream = await upstreamFor(input.connection, ctx);
  const { exchanges, ...answer } = await upstream.disconnect(input.connection, input.headers);
  return { ...answer, exchanges: exchanges ?? [] };
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
        if (message.method === "notifications/tools/list_changed") await invalidateQuietly(url);
        emit?.({ type: "notification", message });
      });
    },
    drained: () => queue,
  };
}

/**
 * Drop what this process holds of a server's tool list (also what a list_changed heard from another instance does):
 * the list cache and the known definitions here; the docs snapshots see the bumped generation on their next read.
 */
async function runLocalInvalidation(url: string): Promise<void> {
  bumpToolListGeneration(url);
  knownTools().invalidate(url);
  await toolListCache.invalidate(url);
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
  if (/^https?:/.test(url))
    await toolListBus()
      ?.publish(url)
      .catch((err: unknown) => log.warn("could not publish list_changed to other instances", { reason: (err as Error).message }));
}
