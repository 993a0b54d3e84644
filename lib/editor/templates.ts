/**
 * Request templates for the editor: pretty-printed JSON-RPC messages (2-space indent, `"id": 1` unless told the id to
 * continue from, see {@link nextRequestId}). `_meta` is left out on purpose: the proxy stamps the protocol fields and
 * reports what it added.
 */
import { parse } from "jsonc-parser";
import type { Tool } from "../mcp/contract.ts";
import type { EditorEra } from "./mcp-catalogue.ts";
import { isObject } from "../json/guards.ts";
import { exampleArgs } from "../docs/example-args.ts";
import { TEMPLATE_TASK_TTL_MS, toolTaskSupport } from "../mcp/tasks/task-support.ts";

export type TemplateKind =
  | "server/discover"
  | "tools/list"
  | "tools/call"
  | "subscriptions/listen"
  | "resources/list"
  | "resources/read"
  | "resources/templates/list"
  | "prompts/list"
  | "prompts/get"
  | "completion/complete"
  | "ping"
  | "logging/setLevel"
  | "custom";

export interface TemplateInfo {
  kind: TemplateKind;
  label: string;
  /** Eras whose MCP revision defines the method (`custom` is allowed everywhere). */
  eras: readonly EditorEra[];
}

export const TEMPLATES: readonly TemplateInfo[] = [
  { kind: "server/discover", label: "Discover the server", eras: ["modern"] },
  { kind: "tools/list", label: "List tools", eras: ["modern", "legacy"] },
  { kind: "tools/call", label: "Call a tool", eras: ["modern", "legacy"] },
  { kind: "subscriptions/listen", label: "Listen for notifications", eras: ["modern"] },
  { kind: "resources/list", label: "List resources", eras: ["modern", "legacy"] },
  { kind: "resources/read", label: "Read a resource", eras: ["modern", "legacy"] },
  { kind: "resources/templates/list", label: "List resource templates", eras: ["modern", "legacy"] },
  { kind: "prompts/list", label: "List prompts", eras: ["modern", "legacy"] },
  { kind: "prompts/get", label: "Get a prompt", eras: ["modern", "legacy"] },
  { kind: "completion/complete", label: "Complete an argument", eras: ["modern", "legacy"] },
  { kind: "ping", label: "Ping", eras: ["legacy"] },
  // 2026-07-28 asks for a level per request in _meta instead (the playground's "Server log messages" setting).
  { kind: "logging/setLevel", label: "Set the session's log level", eras: ["legacy"] },
  { kind: "custom", label: "Custom method", eras: ["modern", "legacy"] },
];

/** The templates whose method exists in `era`. */
export function templatesFor(era: EditorEra): TemplateInfo[] {
  return TEMPLATES.filter((t) => t.eras.includes(era));
}

export interface TemplateOptions {
  /** For `tools/call`: the tool to call. Without it a placeholder name is used. */
  tool?: Pick<Tool, "name" | "inputSchema"> & { execution?: unknown };
  /** For `tools/call`: example arguments from a schema; defaults to the docs generator (valid against the schema). */
  exampleArgs?: (schema: Record<string, unknown>) => unknown;
  /** For `resources/read`. */
  uri?: string;
  /** For `prompts/get` and `completion/complete`. */
  promptName?: string;
  /** For `custom`. */
  method?: string;
  /** The request id (default 1); the playground passes {@link nextRequestId}. */
  id?: number;
}

/** The template text for `kind`: a pretty-printed JSON-RPC request with `"id": 1` (or `options.id`). */
export function requestTemplate(kind: TemplateKind, options: TemplateOptions = {}): string {
  return JSON.stringify(templateMessage(kind, options), null, 2);
}

/** The top-level numeric `id` of a JSON-RPC text, read leniently (the editor's text may be half typed). */
function numericId(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const value: unknown = parse(text, [], { allowTrailingComma: true });
  const id = isObject(value) ? value.id : undefined;
  return typeof id === "number" && Number.isSafeInteger(id) ? id : undefined;
}

/**
 * The id for a request the playground writes into the editor (a template, the next page, a tool from the explorer):
 * one more than the largest numeric id among `texts` (the editor's text, the last sent request), so ids keep counting
 * up through a session instead of going back to 1 with every template; 1 when none has a numeric id.
 */
export function nextRequestId(...texts: (string | null | undefined)[]): number {
  const ids = texts.map(numericId).filter((id): id is number => id !== undefined);
  return ids.length ? Math.max(0, ...ids) + 1 : 1;
}

/** `text` (a template's JSON, as requestTemplate prints it) with its top-level `id` set to `id`; other text as it is. */
export function withRequestId(text: string, id: number): string {
  try {
    const message: unknown = JSON.parse(text);
    return isObject(message) && "id" in message ? JSON.stringify({ ...message, id }, null, 2) : text;
  } catch {
    return text;
  }
}

function templateMessage(kind: TemplateKind, o: TemplateOptions): Record<string, unknown> {
  const id = o.id ?? 1;
  const msg = (method: string, params?: Record<string, unknown>) =>
    params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
  switch (kind) {
    case "server/discover":
    case "tools/list":
    case "resources/list":
    case "resources/templates/list":
    case "prompts/list":
      return msg(kind, {});
    case "ping":
      return msg("ping");
    case "logging/setLevel":
      return msg("logging/setLevel", { level: "debug" });
    case "tools/call": {
      const schema = o.tool && isObject(o.tool.inputSchema) ? o.tool.inputSchema : { type: "object" };
      const args = (o.exampleArgs ?? exampleArgs)(schema);
      const call: Record<string, unknown> = { name: o.tool?.name ?? "tool_name", arguments: isObject(args) ? args : {} };
      // A 2025-11-25 tool that must run as a task gets the request for one; "optional" is the person's choice.
      if (o.tool && toolTaskSupport(o.tool).support === "required") call.task = { ttl: TEMPLATE_TASK_TTL_MS };
      return msg("tools/call", call);
    }
    case "subscriptions/listen":
      return msg("subscriptions/listen", {
        notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
      });
    case "resources/read":
      return msg("resources/read", { uri: o.uri ?? "file:///example.txt" });
    case "prompts/get":
      return msg("prompts/get", { name: o.promptName ?? "prompt_name", arguments: {} });
    case "completion/complete":
      return msg("completion/complete", {
        ref: { type: "ref/prompt", name: o.promptName ?? "prompt_name" },
        argument: { name: "argument_name", value: "" },
      });
    case "custom":
      return msg(o.method ?? "vendor/method", {});
  }
}
