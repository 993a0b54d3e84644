import { MAX_HEADER_OVERRIDES, overrideNameProblem, overrideValueProblem } from "./wire-headers.ts";
import {
  ERA_CHOICES,
  type ConnectRequest,
  type ConnectionDescriptor,
  type EraChoice,
  type RootEntry,
  type RpcAnswerRequest,
  type RpcCancelRequest,
  type RpcRequest,
  type ToolsRequest,
  type UserHeaders,
} from "./contract.ts";
import { isObject } from "../json/guards.ts";
import type { AppRpcRequest, AppViewRequest } from "./apps-contract.ts";

/** A request to our API that does not match the contract; the message says what to change. */
export class ContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractError";
  }
}

export interface HeaderLimits {
  maxCount: number;
  maxBytes: number;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Headers the proxy owns: the user can't set them, because they would break or spoof the exchange. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "content-type",
  "accept",
  "connection",
  "transfer-encoding",
  "mcp-session-id",
  "mcp-protocol-version",
  "upgrade",
  "te",
  "trailer",
  "keep-alive",
  "proxy-connection",
]);

export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (!isObject(body)) throw new ContractError(`The request body must be a JSON object ${what}.`);
  return body;
}

/** Parse user headers: names must be HTTP tokens, values single-line, within the configured limits. */
export function parseUserHeaders(value: unknown, limits: HeaderLimits): UserHeaders {
  if (value === undefined || value === null) return {};
  if (!isObject(value))
    throw new ContractError('"headers" must be an object of header name to string value, e.g. {"Authorization": "Bearer …"}.');
  const entries = Object.entries(value);
  if (entries.length > limits.maxCount)
    throw new ContractError(`Too many headers: ${entries.length}; at most ${limits.maxCount} are allowed (TOOLSCOPE_MAX_USER_HEADERS).`);
  let bytes = 0;
  const out: UserHeaders = {};
  for (const [name, v] of entries) {
    if (!TOKEN.test(name))
      throw new ContractError(
        `Header name ${JSON.stringify(name)} is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_\`|~ only).`,
      );
    if (RESERVED_HEADERS.has(name.toLowerCase()))
      throw new ContractError(`Header "${name}" is set by the proxy itself and cannot be overridden.`);
    if (typeof v !== "string") throw new ContractError(`Header "${name}" must have a string value.`);
    if (/[\r\n\0]/.test(v)) throw new ContractError(`Header "${name}" contains a line break or NUL, which HTTP does not allow.`);
    bytes += name.length + v.length;
    out[name] = v;
  }
  if (bytes > limits.maxBytes)
    throw new ContractError(`The headers total ${bytes} bytes; at most ${limits.maxBytes} are allowed (TOOLSCOPE_MAX_USER_HEADER_BYTES).`);
  return out;
}

/** The name of a stdio server in the local config file (`stdio:<name>`): never a command line. */
export const STDIO_SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Parse a server URL: http(s) only, no credentials in it, a `builtin:` id, or `stdio:<name>` (a configured stdio server). */
export function parseServerUrl(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "")
    throw new ContractError('"url" is required: the MCP endpoint, e.g. https://example.com/mcp.');
  const raw = value.trim();
  if (/^builtin:[a-z0-9-]+$/.test(raw)) return raw;
  if (raw.startsWith("stdio:")) {
    if (STDIO_SERVER_NAME.test(raw.slice("stdio:".length))) return raw;
    throw new ContractError(
      `"${raw.slice(0, 80)}" is not a stdio server name: write stdio:<name> with a name from the local config file (letters, digits, . _ -), never a command.`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ContractError(`"${raw.slice(0, 200)}" is not a valid URL; write a full address such as https://example.com/mcp.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ContractError(`Only http:// and https:// servers can be reached over HTTP, not ${url.protocol}`);
  if (url.username || url.password)
    throw new ContractError("Put credentials in a header (e.g. Authorization), not in the URL: URLs end up in history and share links.");
  url.hash = "";
  return url.toString();
}

function parseEra(value: unknown): EraChoice {
  if (value === undefined) return "auto";
  if (typeof value === "string" && (ERA_CHOICES as readonly string[]).includes(value)) return value as EraChoice;
  throw new ContractError(`"era" must be one of ${ERA_CHOICES.join(", ")}.`);
}

export function parseConnectRequest(body: unknown, limits: HeaderLimits): ConnectRequest & { era: EraChoice; headers: UserHeaders } {
  const b = requireObject(body, 'like {"url": "https://example.com/mcp", "era": "auto"}');
  if (b.interactive !== undefined && typeof b.interactive !== "boolean")
    throw new ContractError('"interactive" must be true or false: true when a person answers the server\'s requests (the playground).');
  if (b.apps !== undefined && typeof b.apps !== "boolean")
    throw new ContractError('"apps" must be true or false: false connects without declaring the MCP Apps extension.');
  return {
    url: parseServerUrl(b.url),
    era: parseEra(b.era),
    headers: parseUserHeaders(b.headers, limits),
    interactive: b.interactive === true,
    ...(b.roots !== undefined ? { roots: parseRoots(b.roots) } : {}),
    ...(b.apps === false ? { apps: false } : {}),
  };
}

/** Roots a connect may carry at most, and the longest URI and name of one. */
export const MAX_CONNECT_ROOTS = 64;
const MAX_ROOT_CHARS = 2_048;

/** `roots`: file:// URIs with optional names, as the playground's roots setting holds them. */
function parseRoots(value: unknown): RootEntry[] {
  const shape = ' like [{"uri": "file:///home/me/project", "name": "project"}]';
  if (!Array.isArray(value)) throw new ContractError(`"roots" must be a list${shape}.`);
  if (value.length > MAX_CONNECT_ROOTS)
    throw new ContractError(`"roots" holds ${value.length} entries; at most ${MAX_CONNECT_ROOTS} are taken.`);
  return value.map((r: unknown, i) => {
    const o = typeof r === "object" && r !== null && !Array.isArray(r) ? (r as Record<string, unknown>) : undefined;
    if (!o || typeof o.uri !== "string" || !/^file:\/\/\S*$/.test(o.uri) || o.uri.length > MAX_ROOT_CHARS)
      throw new ContractError(`"roots[${i}].uri" must be a file:// URI of at most ${MAX_ROOT_CHARS} characters${shape}.`);
    if (o.name !== undefined && (typeof o.name !== "string" || o.name.length > MAX_ROOT_CHARS))
      throw new ContractError(`"roots[${i}].name" must be text of at most ${MAX_ROOT_CHARS} characters, or left out.`);
    return o.name ? { uri: o.uri, name: o.name } : { uri: o.uri };
  });
}

/** An id we minted (a stream or a pending server request): a UUID. */
function parseMintedId(value: unknown, name: string, from: string): string {
  if (typeof value !== "string" || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value))
    throw new ContractError(`"${name}" must be the id from the ${from}.`);
  return value;
}

/** POST /api/rpc/answer */
export function parseRpcAnswerRequest(body: unknown): RpcAnswerRequest {
  const b = requireObject(body, 'like {"streamId": "…", "pendingId": "…", "response": {"result": {…}}}');
  const streamId = parseMintedId(b.streamId, "streamId", 'stream\'s first event ({"type": "stream"})');
  const pendingId = parseMintedId(b.pendingId, "pendingId", "server-request event");
  if (b.prepared !== undefined && b.prepared !== true)
    throw new ContractError('"prepared" is true (an answer from a collection\'s prepared answers) or left out.');
  const by = b.prepared === true ? { prepared: true as const } : {};
  const r = b.response;
  if (!isObject(r) || "result" in r === "error" in r)
    throw new ContractError('"response" must hold exactly one of "result" (an object) or "error" ({"code", "message"}).');
  if ("result" in r) {
    if (!isObject(r.result))
      throw new ContractError('"response.result" must be an object, e.g. {"action": "accept", "content": {…}} for an elicitation.');
    return { streamId, pendingId, response: { result: r.result }, ...by };
  }
  const e = r.error;
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== "string")
    throw new ContractError('"response.error" must be {"code": <integer>, "message": <string>}.');
  return {
    streamId,
    pendingId,
    response: { error: { code: e.code as number, message: e.message, ...("data" in e ? { data: e.data } : {}) } },
    ...by,
  };
}

/** POST /api/rpc/cancel */
export function parseRpcCancelRequest(body: unknown): RpcCancelRequest {
  const b = requireObject(body, 'like {"streamId": "…"}');
  return { streamId: parseMintedId(b.streamId, "streamId", 'stream\'s first event ({"type": "stream"})') };
}

/** Parse the connection descriptor the browser sends back (untrusted: it could be anything). */
export function parseDescriptor(value: unknown): ConnectionDescriptor {
  if (!isObject(value)) throw new ContractError('"connection" is required: send back the descriptor /api/connect returned.');
  if (value.v !== 1) throw new ContractError('"connection.v" must be 1; reconnect to get a current descriptor.');
  if (value.era !== "modern" && value.era !== "legacy") throw new ContractError('"connection.era" must be "modern" or "legacy".');
  if (typeof value.protocolVersion !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value.protocolVersion))
    throw new ContractError('"connection.protocolVersion" must be a date-like version such as 2026-07-28.');
  if (value.sessionId !== undefined && (typeof value.sessionId !== "string" || !/^[\x21-\x7e]{1,512}$/.test(value.sessionId)))
    throw new ContractError('"connection.sessionId" must be visible ASCII (the Mcp-Session-Id the server gave).');
  if (value.discover !== undefined && !isObject(value.discover)) throw new ContractError('"connection.discover" must be an object.');
  if (value.stdioId !== undefined && (typeof value.stdioId !== "string" || !/^[A-Za-z0-9-]{1,64}$/.test(value.stdioId)))
    throw new ContractError('"connection.stdioId" must be the process id /api/connect returned.');
  if (value.transport !== undefined && (value.transport !== "sse" || value.era !== "legacy"))
    throw new ContractError('"connection.transport" can only be "sse", on a legacy connection (the HTTP+SSE transport).');
  if (value.interactive !== undefined && value.interactive !== true)
    throw new ContractError('"connection.interactive" can only be true (or left out).');
  if (value.apps !== undefined && value.apps !== false) throw new ContractError('"connection.apps" can only be false (or left out).');
  return {
    v: 1,
    url: parseServerUrl(value.url),
    era: value.era,
    protocolVersion: value.protocolVersion,
    ...(value.sessionId !== undefined ? { sessionId: value.sessionId as string } : {}),
    ...(value.discover !== undefined ? { discover: value.discover as Record<string, unknown> } : {}),
    ...(value.stdioId !== undefined ? { stdioId: value.stdioId as string } : {}),
    ...(value.transport !== undefined ? { transport: "sse" as const } : {}),
    ...(value.interactive === true ? { interactive: true as const } : {}),
    ...(value.apps === false ? { apps: false as const } : {}),
  };
}

export function parseToolsRequest(body: unknown, limits: HeaderLimits): ToolsRequest & { headers: UserHeaders } {
  const b = requireObject(body, 'like {"connection": {…}}');
  if (b.fresh !== undefined && typeof b.fresh !== "boolean") throw new ContractError('"fresh" must be true or false.');
  return {
    connection: parseDescriptor(b.connection),
    headers: parseUserHeaders(b.headers, limits),
    ...(b.fresh !== undefined ? { fresh: b.fresh } : {}),
  };
}

/**
 * Parse `headerOverrides`: only `Mcp-Name` and `Mcp-Param-<token>` (the headers derived from the message; the others
 * belong to the transport or are the user's own), each once ignoring case, single-line visible ASCII values, bounded.
 */
export function parseHeaderOverrides(value: unknown, connection: ConnectionDescriptor): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value))
    throw new ContractError('"headerOverrides" must be an object of header name to value, e.g. {"Mcp-Param-Region": "eu-west1"}.');
  const entries = Object.entries(value);
  if (entries.length === 0) return {};
  if (connection.url.startsWith("stdio:"))
    throw new ContractError('"headerOverrides" are HTTP headers, and a stdio server is reached without HTTP: leave them out.');
  if (entries.length > MAX_HEADER_OVERRIDES)
    throw new ContractError(
      `Too many header overrides: ${entries.length}; at most ${MAX_HEADER_OVERRIDES} are allowed (MAX_HEADER_OVERRIDES).`,
    );
  const seen = new Set<string>();
  const out: Record<string, string> = {};
  for (const [name, v] of entries) {
    const problem = overrideNameProblem(name) ?? overrideValueProblem(name, v);
    if (problem) throw new ContractError(problem);
    if (seen.has(name.toLowerCase()))
      throw new ContractError(`Header override ${JSON.stringify(name)} is given twice (header names ignore case).`);
    seen.add(name.toLowerCase());
    out[name] = v as string;
  }
  return out;
}

export function parseRpcRequest(
  body: unknown,
  limits: HeaderLimits,
): RpcRequest & { message: Record<string, unknown>; headers: UserHeaders; headerOverrides: Record<string, string> } {
  const b = requireObject(body, 'like {"connection": {…}, "message": {"jsonrpc": "2.0", …}}');
  if (!isObject(b.message)) {
    throw new ContractError(
      Array.isArray(b.message)
        ? '"message" is an array: MCP no longer allows JSON-RPC batches; send one message object.'
        : '"message" must be one JSON-RPC message object, e.g. {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}.',
    );
  }
  if (typeof b.message.method !== "string")
    throw new ContractError('"message.method" must be a string: the proxy sends requests and notifications, not responses.');
  const connection = parseDescriptor(b.connection);
  if (b.exchanges !== undefined && typeof b.exchanges !== "boolean")
    throw new ContractError('"exchanges" must be true or false: false answers without the HTTP exchanges.');
  if (b.tasks !== undefined && typeof b.tasks !== "boolean")
    throw new ContractError('"tasks" must be true or false: true declares the tasks extension, so a tools/call may become a task.');
  return {
    connection,
    message: b.message,
    headers: parseUserHeaders(b.headers, limits),
    headerOverrides: parseHeaderOverrides(b.headerOverrides, connection),
    ...(b.exchanges === false ? { exchanges: false } : {}),
    ...(b.tasks === true ? { tasks: true } : {}),
  };
}

/** POST /api/apps/view: the app's connection and the `ui://` resource to read. */
export function parseAppViewRequest(body: unknown, limits: HeaderLimits): AppViewRequest & { headers: UserHeaders } {
  const b = requireObject(body, 'like {"connection": {…}, "uri": "ui://…"}');
  if (typeof b.uri !== "string" || !b.uri.startsWith("ui://") || b.uri.length > 2_000)
    throw new ContractError('"uri" must be the ui:// resource the tool names in _meta.ui.resourceUri (at most 2,000 characters).');
  return { connection: parseDescriptor(b.connection), headers: parseUserHeaders(b.headers, limits), uri: b.uri };
}

/** POST /api/apps/rpc: an RpcRequest from an app, with whether the person confirmed a tool that may modify. */
export function parseAppRpcRequest(body: unknown, limits: HeaderLimits): ReturnType<typeof parseRpcRequest> & AppRpcRequest {
  const request = parseRpcRequest(body, limits);
  const confirmed = isObject(body) ? body.confirmed : undefined;
  if (confirmed !== undefined && typeof confirmed !== "boolean")
    throw new ContractError('"confirmed" must be true or false: true once the person allowed a call of a tool that may modify.');
  return { ...request, ...(confirmed === true ? { confirmed: true } : {}) };
}
