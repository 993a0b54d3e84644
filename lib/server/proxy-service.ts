import "server-only";
import type { ConnectRequest, ConnectResponse, RpcRequest, RpcResponse, ToolsRequest, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import type { ApiContext } from "./api-route.ts";
import { connectServer } from "./connect.ts";
import { listAllTools } from "./list-tools.ts";
import { sendRpc } from "./send-rpc.ts";
import { resolveTarget } from "./targets.ts";
import { toolListKey, toolListStore } from "./tools-cache.ts";

type WithHeaders<T> = T & { headers: UserHeaders };

/** POST /api/connect */
export async function connect(input: WithHeaders<ConnectRequest> & { era: NonNullable<ConnectRequest["era"]> }, ctx: ApiContext): Promise<ConnectResponse> {
  const target = await resolveTarget(input.url, ctx.origin);
  return connectServer({ target, url: input.url, era: input.era, userHeaders: input.headers, timeoutMs: ctx.config.requestTimeoutMs, maxBodyBytes: ctx.config.maxResponseBytes });
}

/** POST /api/tools: a fresh fetch every time (the docs want the truth); the result feeds the lookup cache. */
export async function tools(input: WithHeaders<ToolsRequest>, ctx: ApiContext): Promise<ToolsResponse> {
  const target = await resolveTarget(input.connection.url, ctx.origin);
  const { exchanges: _exchanges, ...list } = await listAllTools({
    target,
    descriptor: input.connection,
    userHeaders: input.headers,
    timeoutMs: ctx.config.requestTimeoutMs,
    maxBodyBytes: ctx.config.maxResponseBytes,
    maxPages: ctx.config.maxToolPages,
    maxTools: ctx.config.maxTools,
  });
  toolListStore.set(toolListKey(input.connection.url, input.headers), list, list.ttlMs ?? 0);
  return list;
}

/** POST /api/rpc */
export async function rpc(input: WithHeaders<RpcRequest> & { message: Record<string, unknown> }, ctx: ApiContext): Promise<RpcResponse> {
  const target = await resolveTarget(input.connection.url, ctx.origin);
  const findTool = async (name: string) => {
    const key = toolListKey(input.connection.url, input.headers);
    const list = toolListStore.get(key) ?? (await tools(input, ctx));
    return list.tools.find((t) => t.name === name);
  };
  return sendRpc({
    target,
    descriptor: input.connection,
    message: input.message,
    userHeaders: input.headers,
    findTool,
    timeoutMs: ctx.config.requestTimeoutMs,
    maxBodyBytes: ctx.config.maxResponseBytes,
    signal: ctx.signal,
  });
}
