import type { AddedField } from "./contract.ts";
import { isObject } from "../json/guards.ts";
import { escapeToken } from "../json/pointer.ts";

export const MODERN_PROTOCOL_VERSION = "2026-07-28";
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

/** Who we say we are on the wire. */
export const CLIENT_INFO = { name: "toolscope", title: "Toolscope", version: "0.1.0" } as const;

/**
 * What the client declares, at initialize or in every modern request's `_meta`, on every connection: the playground
 * answers these requests in the browser, and where no person is there (a docs page, a call that is not streamed, a
 * server asking between calls) unattendedAsker answers at once as a client with nobody at the keyboard does. Declared
 * everywhere alike so a server shows docs the tools it shows the playground (issue 26: server-everything hid four).
 */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
} as const;

/** The MCP Apps extension (ext-apps, specification 2026-01-26): a tool's interactive UI as a `ui://` HTML resource. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
/** The MIME type of an MCP App's HTML resource. */
export const APP_HTML_MIME_TYPE = "text/html;profile=mcp-app";

/** The same capabilities without the MCP Apps extension: what a host without apps declares. */
const WITHOUT_APPS = (() => {
  const { extensions: _apps, ...rest } = CLIENT_CAPABILITIES;
  return rest;
})();

/**
 * What this connection declares: everything, or (the playground's switch, ConnectRequest.apps false) everything but
 * the MCP Apps extension, so a person sees the text-only answer a server gives a host without apps.
 */
export function clientCapabilities(apps: boolean, tasks = false): Record<string, unknown> {
  const base: Record<string, unknown> = apps ? CLIENT_CAPABILITIES : WITHOUT_APPS;
  if (!tasks) return base;
  // The tasks extension (2026-07-28, SEP-2663), declared only on requests whose sender follows a task to its end (the
  // playground's calls): a server may then answer a tools/call with a task handle instead of the result.
  const extensions = isObject(base.extensions) ? base.extensions : {};
  return { ...base, extensions: { ...extensions, [TASKS_EXTENSION_ID]: {} } };
}

/** The tasks extension's id (lib/mcp/tasks reads what it brings). */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

let counter = 0;
/** The id the proxy gives a request the user wrote without one (unique enough for one exchange; never reused soon). */
export function proxyRequestId(): string {
  counter = (counter + 1) % 1_000_000;
  return `toolscope-${Date.now().toString(36)}-${counter}`;
}

export interface Stamped {
  message: Record<string, unknown>;
  added: AddedField[];
}

/**
 * Fill in what the protocol requires and the user did not write: a request id, and on the modern era
 * the per-request `_meta` envelope. Anything the user wrote wins; every addition is reported.
 */
export function stampMessage(
  message: Record<string, unknown>,
  era: "modern" | "legacy",
  nextId: () => string | number,
  capabilities: Record<string, unknown> = CLIENT_CAPABILITIES,
): Stamped {
  const added: AddedField[] = [];
  const out: Record<string, unknown> = { ...message };
  if (!("jsonrpc" in out)) {
    out.jsonrpc = "2.0";
    added.push({ where: "body", name: "/jsonrpc", value: "2.0" });
  }
  const method = typeof out.method === "string" ? out.method : undefined;
  const isNotification = method?.startsWith("notifications/") ?? false;
  if (method && !isNotification && !("id" in out)) {
    out.id = nextId();
    added.push({ where: "body", name: "/id", value: out.id });
  }
  if (era === "modern" && method) {
    const params = isObject(out.params) ? { ...out.params } : {};
    if (!("params" in out)) added.push({ where: "body", name: "/params", value: {} });
    const meta = isObject(params._meta) ? { ...params._meta } : {};
    const want: [string, unknown][] = [
      [META_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSION],
      [META_CLIENT_INFO, CLIENT_INFO],
      [META_CLIENT_CAPABILITIES, capabilities],
    ];
    for (const [key, value] of want) {
      if (key in meta) continue;
      meta[key] = value;
      added.push({ where: "body", name: `/params/_meta/${escapeToken(key)}`, value });
    }
    params._meta = meta;
    out.params = params;
  }
  return { message: out, added };
}
