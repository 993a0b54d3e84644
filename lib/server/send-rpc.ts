import "server-only";
import type { AddedField, ConnectionDescriptor, RpcResponse, SseEvent, Tool, UserHeaders } from "@/lib/mcp/contract";
import { stampMessage } from "@/lib/mcp/meta";
import { paramHeaders, scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { exchangeMessage } from "./upstream-exchange.ts";
import { checkOutput } from "./output-validation.ts";
import { ProxyError } from "./proxy-error.ts";
import type { Target } from "./targets.ts";

export interface SendRpcOptions {
  target: Target;
  descriptor: ConnectionDescriptor;
  message: Record<string, unknown>;
  userHeaders: UserHeaders;
  /**
   * Looks up the tool definition for `Mcp-Param-*` mirroring (tools/call only), callable or excluded: a modern
   * call to a tool the client rules exclude (invalid `x-mcp-header`) is refused before anything is sent.
   */
  findTool: (name: string) => Promise<Tool | undefined>;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  onNotification?: (message: Record<string, unknown>) => void;
}

let counter = 0;
function nextId(): string {
  counter = (counter + 1) % 1_000_000;
  return `toolscope-${Date.now().toString(36)}-${counter}`;
}

/** The tool a tools/call names, when the server lists it. */
async function calledTool(message: Record<string, unknown>, findTool: SendRpcOptions["findTool"]): Promise<Tool | undefined> {
  if (message.method !== "tools/call") return undefined;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? findTool(name) : undefined;
}

/**
 * A modern tools/call to a tool whose `x-mcp-header` declarations break the rules is refused here, even when
 * typed by hand: clients MUST exclude such tools (server/tools §x-mcp-header), and the proxy is the client.
 */
export function refuseExcludedTool(era: ConnectionDescriptor["era"], tool: Tool | undefined): void {
  if (era !== "modern" || !tool) return;
  const { problems } = scanHeaderDeclarations(tool.inputSchema);
  if (problems.length === 0) return;
  throw new ProxyError(
    "bad-request",
    `Tool ${JSON.stringify(tool.name)} is excluded and cannot be called: ${problems.join("; ")}.`,
    "MCP clients must not call a tool whose x-mcp-header declarations are invalid (the server must fix its inputSchema); its docs page shows the reason.",
  );
}

/** The `Mcp-Param-*` headers a tools/call needs, from the tool's x-mcp-header declarations. */
function mirroredHeaders(message: Record<string, unknown>, tool: Tool | undefined): Record<string, string> {
  if (!tool) return {};
  return paramHeaders(scanHeaderDeclarations(tool.inputSchema).declarations, (message.params as { arguments?: unknown }).arguments);
}

/** Headers the SDK transport put on the wire (protocol version, method, name, session, content negotiation). */
function transportHeaders(sent: [string, string][], user: UserHeaders, ours: Record<string, string>): AddedField[] {
  const known = new Set([...Object.keys(user), ...Object.keys(ours)].map((n) => n.toLowerCase()));
  return sent.filter(([name]) => !known.has(name.toLowerCase())).map(([name, value]) => ({ where: "header" as const, name, value }));
}

/** Send the user's message as written, plus what the protocol requires, and report every addition. */
export async function sendRpc(opts: SendRpcOptions): Promise<RpcResponse> {
  const { message, added } = stampMessage(opts.message, opts.descriptor.era, nextId);
  const tool = await calledTool(message, opts.findTool);
  refuseExcludedTool(opts.descriptor.era, tool);
  const extraHeaders = opts.descriptor.era === "modern" ? mirroredHeaders(message, tool) : {};
  for (const [name, value] of Object.entries(extraHeaders)) added.push({ where: "header", name, value });
  const result = await exchangeMessage({ ...opts, message, extraHeaders });
  added.push(...transportHeaders(result.exchanges[0]?.request.headers ?? [], opts.userHeaders, extraHeaders));
  const outputValidation = tool ? checkOutput(tool, result.response) : undefined;
  return { response: result.response, notifications: result.notifications, sent: message, added, exchanges: result.exchanges, durationMs: result.durationMs, ...(outputValidation ? { outputValidation } : {}) };
}
