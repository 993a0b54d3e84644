import "server-only";
import type { AddedField, ConnectionDescriptor, HttpExchange, RpcResponse, SseEvent, Tool, UserHeaders } from "@/lib/mcp/contract";
import { proxyRequestId, stampMessage } from "@/lib/mcp/meta";
import { maskHeaders } from "@/lib/mcp/secrets";
import { applyHeaderOverrides } from "@/lib/mcp/wire-headers";
import { mirroredParamHeaders, scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { exchangeMessage } from "./upstream-exchange.ts";
import { exchangeOverSse, SSE_SESSION_NOTE } from "./sse-session.ts";
import { checkOutput } from "./output-validation.ts";
import { streamConduct } from "@/lib/mcp/stream-conduct";
import { ProxyError } from "./proxy-error.ts";
import type { Target } from "./targets.ts";
import { omittedSchemaReason } from "./schema-guard.ts";
import type { StreamLimits } from "./stream-watchdog.ts";

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
  /** Limits that replace `timeoutMs` once the upstream answer streams (see stream-watchdog.ts). */
  stream?: StreamLimits;
  maxBodyBytes: number;
  /** `Mcp-Name` / `Mcp-Param-*` values to send instead of the derived ones (validated by the contract guards). */
  headerOverrides?: Record<string, string>;
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  onNotification?: (message: Record<string, unknown>) => void;
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
  const omitted = tool && omittedSchemaReason(tool.inputSchema);
  // Its inputSchema was too large or deep to read, so its x-mcp-header declarations are unknown: never guess them.
  if (omitted) throw new ProxyError("bad-request", `Tool ${JSON.stringify(tool.name)} is excluded and cannot be called: ${omitted}.`, "Toolscope does not read schemas over its size and depth limits; its docs page shows the reason.");
  if (era !== "modern" || !tool) return;
  const { problems } = scanHeaderDeclarations(tool.inputSchema);
  if (problems.length === 0) return;
  throw new ProxyError(
    "bad-request",
    `Tool ${JSON.stringify(tool.name)} is excluded and cannot be called: ${problems.join("; ")}.`,
    "MCP clients must not call a tool whose x-mcp-header declarations are invalid (the server must fix its inputSchema); its docs page shows the reason.",
  );
}

/**
 * A target whose POSTs carry the user's header overrides. They are applied at the fetch, after the SDK transport:
 * the transport refuses per-request `Mcp-Name` (it derives it from the body), and an experiment wants exactly that.
 */
function withOverrides(target: Target, overrides: Record<string, string>): Target {
  if (Object.keys(overrides).length === 0) return target;
  const inner = target.fetch;
  const fetchWith = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? "GET") !== "POST") return inner(input, init);
    const { headers } = applyHeaderOverrides([...new Headers(init?.headers).entries()], overrides);
    return inner(input, { ...init, headers });
  }) as typeof fetch;
  return { ...target, fetch: fetchWith };
}

/**
 * The recorder sits before the override fetch, so it saw the derived values: record the overridden ones it then
 * sent (the same rule, applied to the same POSTs), masked like every recorded header.
 */
function recordOverrides(exchanges: HttpExchange[], overrides: Record<string, string>, userHeaders: UserHeaders): void {
  if (Object.keys(overrides).length === 0) return;
  for (const x of exchanges) {
    if (x.request.method === "POST") x.request.headers = maskHeaders(applyHeaderOverrides(x.request.headers, overrides).headers, Object.keys(userHeaders));
  }
}

/** Headers the SDK transport put on the wire (protocol version, method, name, session, content negotiation). */
function transportHeaders(sent: [string, string][], user: UserHeaders, ours: Record<string, string>): AddedField[] {
  const known = new Set([...Object.keys(user), ...Object.keys(ours)].map((n) => n.toLowerCase()));
  return sent.filter(([name]) => !known.has(name.toLowerCase())).map(([name, value]) => ({ where: "header" as const, name, value }));
}

/** Send the user's message as written, plus what the protocol requires, and report every addition. */
export async function sendRpc(opts: SendRpcOptions): Promise<RpcResponse> {
  const { message, added } = stampMessage(opts.message, opts.descriptor.era, proxyRequestId);
  const tool = await calledTool(message, opts.findTool);
  refuseExcludedTool(opts.descriptor.era, tool);
  const extraHeaders = mirroredParamHeaders(message, opts.descriptor.era, tool);
  const overrides = opts.headerOverrides ?? {};
  const target = withOverrides(opts.target, overrides);
  const result = opts.descriptor.transport === "sse" ? await exchangeOverSse({ ...opts, target, message }) : await exchangeMessage({ ...opts, target, message, extraHeaders });
  // The POST that carried the message (on HTTP+SSE the stream's GET and the handshake come first).
  const posted = result.exchanges.find((x) => x.request.method === "POST" && x.request.body === JSON.stringify(message)) ?? result.exchanges[0];
  const derived: [string, string][] = [...Object.entries(extraHeaders), ...transportHeaders(posted?.request.headers ?? [], opts.userHeaders, extraHeaders).map((a): [string, string] => [a.name, String(a.value)])];
  const { headers: sentHeaders, overridden } = applyHeaderOverrides(derived, overrides);
  const isOverridden = new Set(overridden.map((o) => o.name.toLowerCase()));
  for (const [name, value] of sentHeaders) if (!isOverridden.has(name.toLowerCase())) added.push({ where: "header", name, value });
  for (const o of overridden) added.push({ where: "header", name: o.name, value: o.value, overridden: true, ...(o.replaced !== undefined ? { replaced: o.replaced } : {}) });
  recordOverrides(result.exchanges, overrides, opts.userHeaders);
  const outputValidation = tool ? checkOutput(tool, result.response) : undefined;
  const protocolWarnings = opts.descriptor.era === "modern" ? streamConduct(message, result.notifications) : [];
  return {
    response: result.response,
    notifications: result.notifications,
    sent: message,
    added,
    exchanges: result.exchanges,
    durationMs: result.durationMs,
    ...(outputValidation ? { outputValidation } : {}),
    ...(protocolWarnings.length ? { protocolWarnings } : {}),
    ...(opts.descriptor.transport === "sse" ? { notes: [SSE_SESSION_NOTE] } : {}),
  };
}
