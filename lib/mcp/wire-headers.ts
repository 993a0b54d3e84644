/**
 * The HTTP headers one JSON-RPC POST carries, computed from the message alone, so the browser can show them before
 * anything is sent: what the SDK's Streamable HTTP transport derives (content negotiation, MCP-Protocol-Version,
 * Mcp-Method, Mcp-Name, Mcp-Session-Id), and the per-request header overrides a user may set for experiments.
 *
 * The SDK keeps its own derivation private; lib/upstream/calls/send-rpc-overrides.test.ts sends messages through the
 * real transport and fails when these predictions and the wire disagree.
 */
import type { Era } from "./contract.ts";
import { META_PROTOCOL_VERSION } from "./meta.ts";
import { decodeHeaderValue, encodeHeaderValue, headerNameProblem } from "./x-mcp-header.ts";
import { isObject } from "../json/guards.ts";

/** Which params field names the target of a request in `Mcp-Name` (the SDK's table, SEP-2243). */
const MCP_NAME_SOURCE: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

/** What a Streamable HTTP POST always carries: the SDK asks for JSON or an SSE stream. */
export const CONTENT_HEADERS: readonly [string, string][] = [
  ["Content-Type", "application/json"],
  ["Accept", "application/json, text/event-stream"],
];

/**
 * On the deprecated HTTP+SSE transport the POST only says what it carries (answers come on the event stream); the
 * transport sets no Accept, so fetch's default goes out.
 */
const SSE_CONTENT_HEADERS: readonly [string, string][] = [
  ["Content-Type", "application/json"],
  ["Accept", "*/*"],
];

/** The content headers of a message POST on a transport. */
export function contentHeaders(transport: "streamable" | "sse"): readonly [string, string][] {
  return transport === "sse" ? SSE_CONTENT_HEADERS : CONTENT_HEADERS;
}

/** A JSON-RPC request (not a notification): the only messages the transport derives body headers for. */
function isRequest(message: Record<string, unknown>): boolean {
  return typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number");
}

export interface TransportContext {
  era: Era;
  /** The negotiated version: the legacy `MCP-Protocol-Version` (modern requests carry theirs in `_meta`). */
  protocolVersion: string;
  /** Legacy: the session's `Mcp-Session-Id`. */
  sessionId?: string;
  /** Legacy servers on the deprecated HTTP+SSE transport (2024-11-05): the session lives in the endpoint URL. */
  sse?: boolean;
}

/**
 * The MCP headers the transport puts on the POST of an already stamped message. Modern: derived from the body,
 * and only for a request whose `_meta` claims a protocol version (a notification gets none). Legacy: the
 * connection's version and session (never on `initialize`, which asks for a new session).
 */
export function transportMcpHeaders(message: Record<string, unknown>, ctx: TransportContext): [string, string][] {
  const out: [string, string][] = [];
  if (ctx.era === "legacy") {
    out.push(["MCP-Protocol-Version", ctx.protocolVersion]);
    if (ctx.sse) return out;
    if (ctx.sessionId && message.method !== "initialize") out.push(["Mcp-Session-Id", ctx.sessionId]);
    return out;
  }
  const params = isObject(message.params) ? message.params : undefined;
  const claimed = isObject(params?._meta) ? params._meta[META_PROTOCOL_VERSION] : undefined;
  if (!isRequest(message) || typeof claimed !== "string") return out;
  const method = message.method as string;
  out.push(["MCP-Protocol-Version", claimed], ["Mcp-Method", method]);
  const field = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  const name = field && params ? params[field] : undefined;
  if (typeof name === "string") out.push(["Mcp-Name", encodeHeaderValue(name)]);
  return out;
}

// ---- per-request header overrides (experiments: make the headers disagree with the body on purpose) ----

/** At most this many overridden headers per request. */
export const MAX_HEADER_OVERRIDES = 16;
/** The longest override value, in characters. */
export const MAX_HEADER_OVERRIDE_VALUE_CHARS = 1024;

/** Why a header name cannot be overridden (only `Mcp-Name` and `Mcp-Param-<token>`), or undefined. */
export function overrideNameProblem(name: string): string | undefined {
  if (name.toLowerCase() === "mcp-name") return undefined;
  const m = /^mcp-param-(.*)$/is.exec(name);
  if (!m)
    return `Only Mcp-Name and Mcp-Param-* headers can be overridden, not ${JSON.stringify(name.slice(0, 80))} (the others are set by the transport or are your own headers).`;
  const problem = headerNameProblem(m[1]);
  return problem
    ? `${JSON.stringify(name.slice(0, 80))}: the part after Mcp-Param- must be an HTTP token (${problem.replace(/^x-mcp-header /, "")}).`
    : undefined;
}

/** Why a value cannot go into a header as written, or undefined. Non-ASCII must be sent in the `=?base64?…?=` form. */
export function overrideValueProblem(name: string, value: unknown): string | undefined {
  if (typeof value !== "string") return `The override of ${name} must be a string.`;
  if (value.length > MAX_HEADER_OVERRIDE_VALUE_CHARS)
    return `The override of ${name} is ${value.length} characters; at most ${MAX_HEADER_OVERRIDE_VALUE_CHARS} are allowed.`;
  if (!/^[\x20-\x7e\t]*$/.test(value))
    return `The override of ${name} holds a line break, control or non-ASCII character; write such a value in its encoded form ${encodeHeaderValue(value)}.`;
  return undefined;
}

/** Canonical spelling for display and matching: `Mcp-Name`, `Mcp-Param-<as written>`. */
export function canonicalOverrideName(name: string): string {
  return name.toLowerCase() === "mcp-name" ? "Mcp-Name" : `Mcp-Param-${name.slice("mcp-param-".length)}`;
}

/** One header as the overrides left it. */
export interface OverriddenHeader {
  name: string;
  value: string;
  /** The value the request would have carried without the override; absent when it would have had no such header. */
  replaced?: string;
}

/**
 * Apply overrides to a header list (names match ignoring case; a new header is appended). Returns the new list and
 * what was overridden. The proxy applies it on the wire, the preview to its prediction: one rule for both.
 */
export function applyHeaderOverrides(
  headers: readonly [string, string][],
  overrides: Record<string, string>,
): { headers: [string, string][]; overridden: OverriddenHeader[] } {
  const out: [string, string][] = headers.map(([n, v]) => [n, v]);
  const overridden: OverriddenHeader[] = [];
  for (const [rawName, value] of Object.entries(overrides)) {
    const name = canonicalOverrideName(rawName);
    const at = out.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (at >= 0) {
      overridden.push({ name: out[at][0], value, replaced: out[at][1] });
      out[at] = [out[at][0], value];
    } else {
      overridden.push({ name, value });
      out.push([name, value]);
    }
  }
  return { headers: out, overridden };
}

/** A header value and, when it carries the base64 sentinel, what it decodes to (for display). */
export function withDecoded(value: string): { value: string; decoded?: string } {
  const decoded = decodeHeaderValue(value);
  return decoded === undefined ? { value } : { value, decoded };
}
