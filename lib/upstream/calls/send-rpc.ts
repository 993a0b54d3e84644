import type { AddedField, ConnectionDescriptor, HttpExchange, RpcResponse, SseEvent, Tool, UserHeaders } from "@/lib/mcp/contract";
import { clientCapabilities, proxyRequestId, stampMessage } from "@/lib/mcp/meta";
import { maskHeaders } from "@/lib/mcp/secrets";
import { applyHeaderOverrides } from "@/lib/mcp/wire-headers";
import { mirroredParamHeaders, scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { runExchange } from "../exchange/exchange-core.ts";
import { refusedNote, unattendedAsker, type ServerRequestAsker } from "../exchange/server-request-asker.ts";
import type { Upstream } from "../upstream.ts";
import { SSE_SESSION_NOTE } from "../transports/sse-session.ts";
import { checkOutput } from "./output-validation.ts";
import { resultTypeWarning } from "@/lib/mcp/response-kind";
import { streamConduct } from "@/lib/mcp/stream-conduct";
import { ProxyError } from "../errors/proxy-error.ts";
import { omittedSchemaReason } from "./schema-guard.ts";
import type { StreamLimits } from "../exchange/stream-watchdog.ts";
import { isObject } from "@/lib/json/guards";

export interface SendRpcOptions {
  upstream: Upstream;
  descriptor: ConnectionDescriptor;
  message: Record<string, unknown>;
  userHeaders: UserHeaders;
  /**
   * Looks up the tool definition for `Mcp-Param-*` mirroring (tools/call only), callable or excluded: a call to a
   * tool the client rules exclude is refused before anything is sent.
   */
  findTool: (name: string) => Promise<Tool | undefined>;
  timeoutMs: number;
  /** Limits that replace `timeoutMs` once the upstream answer streams (see stream-watchdog.ts). */
  stream?: StreamLimits;
  maxBodyBytes: number;
  /** `Mcp-Name` / `Mcp-Param-*` values to send instead of the derived ones (validated by the contract guards). */
  headerOverrides?: Record<string, string>;
  /** Declare the tasks extension on this request (modern era only): a tools/call may then come back as a task handle. */
  tasks?: boolean;
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  onNotification?: (message: Record<string, unknown>) => void;
  /** Who answers the server's requests; without one (a call that is not streamed) they are refused at once. */
  asker?: ServerRequestAsker;
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
  if (omitted)
    throw new ProxyError(
      "bad-request",
      `Tool ${JSON.stringify(tool.name)} is excluded and cannot be called: ${omitted}.`,
      "Toolscope does not read schemas over its size and depth limits; its docs page shows the reason.",
    );
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
 * The recorder sits before the override fetch, so it saw the derived values: record the overridden ones it then
 * sent (the same rule, applied to the same POSTs), masked like every recorded header.
 */
function recordOverrides(exchanges: HttpExchange[], overrides: Record<string, string>, userHeaders: UserHeaders): void {
  if (Object.keys(overrides).length === 0) return;
  for (const x of exchanges) {
    if (x.request.method === "POST")
      x.request.headers = maskHeaders(applyHeaderOverrides(x.request.headers, overrides).headers, Object.keys(userHeaders));
  }
}

/** Headers the SDK transport put on the wire (protocol version, method, name, session, content negotiation). */
function transportHeaders(sent: [string, string][], user: UserHeaders, ours: Record<string, string>): AddedField[] {
  const known = new Set([...Object.keys(user), ...Object.keys(ours)].map((n) => n.toLowerCase()));
  return sent.filter(([name]) => !known.has(name.toLowerCase())).map(([name, value]) => ({ where: "header" as const, name, value }));
}

/**
 * A streamed tools/call gets a progress token when the caller wrote none, so a server that reports progress can, and
 * the playground shows it as it comes (documented in docs/api.md). Never on a call that is not streamed: nobody watches.
 */
function withProgressToken(message: Record<string, unknown>, added: AddedField[]): Record<string, unknown> {
  if (message.method !== "tools/call") return message;
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  if ("progressToken" in meta) return message;
  const progressToken = proxyRequestId();
  added.push({ where: "body", name: "/params/_meta/progressToken", value: progressToken });
  return { ...message, params: { ...params, _meta: { ...meta, progressToken } } };
}

/** Send the user's message as written, plus what the protocol requires, and report every addition. */
export async function sendRpc(opts: SendRpcOptions): Promise<RpcResponse> {
  const { descriptor, upstream } = opts;
  const tasks = opts.tasks === true && descriptor.era === "modern";
  const stamped = stampMessage(opts.message, descriptor.era, proxyRequestId, clientCapabilities(descriptor.apps !== false, tasks));
  const added = stamped.added;
  const message = opts.asker ? withProgressToken(stamped.message, added) : stamped.message;
  const tool = await calledTool(message, opts.findTool);
  refuseExcludedTool(descriptor.era, tool);
  const extraHeaders = upstream.hasHeaders ? mirroredParamHeaders(message, descriptor.era, tool) : {};
  const overrides = upstream.hasHeaders ? (opts.headerOverrides ?? {}) : {};
  const refusing = opts.asker ? undefined : unattendedAsker("this call was not streamed, so no one could be asked");
  const io = {
    userHeaders: opts.userHeaders,
    timeoutMs: opts.timeoutMs,
    maxBodyBytes: opts.maxBodyBytes,
    signal: opts.signal,
    onSseEvent: opts.onSseEvent,
    headerOverrides: overrides,
    interactive: opts.asker !== undefined,
  };
  const result = await upstream.withSession(descriptor, io, (open) =>
    runExchange({
      open: open({ headers: extraHeaders }),
      message,
      era: descriptor.era,
      timeoutMs: opts.timeoutMs,
      stream: opts.stream,
      signal: opts.signal,
      asker: opts.asker ?? refusing!,
      onNotification: opts.onNotification,
    }),
  );
  // The POST that carried the message (on HTTP+SSE the stream's GET and the handshake come first).
  const sentText = JSON.stringify(message);
  const posted = result.exchanges.find((x) => x.request.method === "POST" && x.request.body === sentText);
  const derived: [string, string][] = [
    ...Object.entries(extraHeaders),
    ...transportHeaders(posted?.request.headers ?? [], opts.userHeaders, extraHeaders).map((a): [string, string] => [
      a.name,
      String(a.value),
    ]),
  ];
  const { headers: sentHeaders, overridden } = applyHeaderOverrides(derived, overrides);
  const isOverridden = new Set(overridden.map((o) => o.name.toLowerCase()));
  for (const [name, value] of sentHeaders) if (!isOverridden.has(name.toLowerCase())) added.push({ where: "header", name, value });
  for (const o of overridden)
    added.push({
      where: "header",
      name: o.name,
      value: o.value,
      overridden: true,
      ...(o.replaced !== undefined ? { replaced: o.replaced } : {}),
    });
  recordOverrides(result.exchanges, overrides, opts.userHeaders);
  const outputValidation = tool ? checkOutput(tool, result.response) : undefined;
  const resultType = resultTypeWarning(result.response, descriptor.era, { method: message.method, tasksDeclared: tasks });
  const protocolWarnings = [
    ...(descriptor.era === "modern" ? streamConduct(message, result.notifications) : []),
    ...(resultType ? [resultType] : []),
  ];
  const notes = [
    ...(upstream.transport === "http+sse" ? [SSE_SESSION_NOTE] : []),
    ...(refusing ? [refusedNote(refusing.refused)].filter((n): n is string => n !== undefined) : []),
  ];
  return {
    response: result.response,
    notifications: result.notifications,
    sent: message,
    added,
    exchanges: result.exchanges,
    durationMs: result.durationMs,
    ...(outputValidation ? { outputValidation } : {}),
    ...(protocolWarnings.length ? { protocolWarnings } : {}),
    ...(notes.length ? { notes } : {}),
    ...(result.serverRequests.length ? { serverRequests: result.serverRequests } : {}),
    ...(result.sessionNotifications.length ? { sessionNotifications: result.sessionNotifications } : {}),
    ...upstream.extras(descriptor),
  };
}
