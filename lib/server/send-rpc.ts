import "server-only";
import type { AddedField, ConnectionDescriptor, RpcResponse, SseEvent, Tool, UserHeaders } from "@/lib/mcp/contract";
import { stampMessage } from "@/lib/mcp/meta";
import { paramHeaders, scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { exchangeMessage } from "./upstream-exchange.ts";
import type { Target } from "./targets.ts";

export interface SendRpcOptions {
  target: Target;
  descriptor: ConnectionDescriptor;
  message: Record<string, unknown>;
  userHeaders: UserHeaders;
  /** Looks up the tool definition for `Mcp-Param-*` mirroring (tools/call only). */
  findTool: (name: string) => Promise<Tool | undefined>;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
}

let counter = 0;
function nextId(): string {
  counter = (counter + 1) % 1_000_000;
  return `toolscope-${Date.now().toString(36)}-${counter}`;
}

/** The `Mcp-Param-*` headers a tools/call needs, from the tool's x-mcp-header declarations. */
async function mirroredHeaders(message: Record<string, unknown>, findTool: SendRpcOptions["findTool"]): Promise<Record<string, string>> {
  if (message.method !== "tools/call") return {};
  const params = message.params as { name?: unknown; arguments?: unknown } | undefined;
  if (typeof params?.name !== "string") return {};
  const tool = await findTool(params.name);
  if (!tool) return {};
  return paramHeaders(scanHeaderDeclarations(tool.inputSchema).declarations, params.arguments);
}

/** Headers the SDK transport put on the wire (protocol version, method, name, session, content negotiation). */
function transportHeaders(sent: [string, string][], user: UserHeaders, ours: Record<string, string>): AddedField[] {
  const known = new Set([...Object.keys(user), ...Object.keys(ours)].map((n) => n.toLowerCase()));
  return sent.filter(([name]) => !known.has(name.toLowerCase())).map(([name, value]) => ({ where: "header" as const, name, value }));
}

/** Send the user's message as written, plus what the protocol requires, and report every addition. */
export async function sendRpc(opts: SendRpcOptions): Promise<RpcResponse> {
  const { message, added } = stampMessage(opts.message, opts.descriptor.era, nextId);
  const extraHeaders = opts.descriptor.era === "modern" ? await mirroredHeaders(message, opts.findTool) : {};
  for (const [name, value] of Object.entries(extraHeaders)) added.push({ where: "header", name, value });
  const result = await exchangeMessage({ ...opts, message, extraHeaders });
  added.push(...transportHeaders(result.exchanges[0]?.request.headers ?? [], opts.userHeaders, extraHeaders));
  return { response: result.response, notifications: result.notifications, sent: message, added, exchanges: result.exchanges, durationMs: result.durationMs };
}
