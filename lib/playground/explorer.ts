/**
 * The playground's explorer, as plain functions: which tools match a search and how they group, the editor texts
 * that choosing a tool, resource, resource template or prompt puts in the editor, RFC 6570 level-1 uri templates,
 * and the paged `*\/list` walk of resources, templates and prompts.
 */
import type { Tool } from "../mcp/contract.ts";
import { isObject } from "../json/guards.ts";
import { filterTools } from "../docs/tool-filter.ts";
import { groupByNamespace } from "../docs/namespaces.ts";
import { requestTemplate } from "../editor/templates.ts";

/** Pages of one `*\/list` the explorer walks before it stops and says more exist. */
export const MAX_LIST_PAGES = 10;

/** The tools whose name, title or description hold every word of `query`, in the server's order. */
export function searchTools(tools: Tool[], query: string): Tool[] {
  return filterTools(tools, { q: query });
}

export interface ToolGroup {
  /** The namespace (e.g. "github"), or null when the server's tools share none (one flat list). */
  label: string | null;
  tools: Tool[];
}

/** Group by namespace prefix like the docs' tool index; one unlabelled group when there is no shared prefix. */
export function groupTools(tools: Tool[]): ToolGroup[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const groups = groupByNamespace([...byName.keys()]);
  if (groups.length === 1 && groups[0].prefix === null) return [{ label: null, tools }];
  return groups.map((g) => ({ label: g.label, tools: g.names.map((n) => byName.get(n)!) }));
}

/** The `tools/call` for `tool`, with example arguments from its inputSchema (`id`: lib/editor/templates nextRequestId). */
export function toolCallText(tool: Pick<Tool, "name" | "inputSchema"> & { execution?: unknown }, id: number): string {
  return requestTemplate("tools/call", { tool, id });
}

/** The `resources/read` for `uri`. */
export function resourceReadText(uri: string, id: number): string {
  return requestTemplate("resources/read", { uri, id });
}

/** A prompt's `prompts/get`: every argument present, required ones first, as empty strings for the user to fill. */
export function promptGetText(prompt: ExplorerPrompt, id: number): string {
  const message = JSON.parse(requestTemplate("prompts/get", { promptName: prompt.name, id })) as { params: Record<string, unknown> };
  const ordered = [...prompt.arguments.filter((a) => a.required), ...prompt.arguments.filter((a) => !a.required)];
  message.params.arguments = Object.fromEntries(ordered.map((a) => [a.name, ""]));
  return JSON.stringify(message, null, 2);
}

// ---------------------------------------------------------------------------------------------------------------
// Resources, resource templates and prompts, as the lists give them (untrusted: odd entries are counted, not shown).

export interface ExplorerResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ExplorerTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface ExplorerPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: PromptArgument[];
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** Optional text fields, only when they are non-empty strings. */
function texts(item: Record<string, unknown>, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = str(item[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function toResource(item: unknown): ExplorerResource | undefined {
  if (!isObject(item) || !str(item.uri)) return undefined;
  return { uri: item.uri as string, name: str(item.name) ?? (item.uri as string), ...texts(item, ["title", "description", "mimeType"]) };
}

export function toTemplate(item: unknown): ExplorerTemplate | undefined {
  if (!isObject(item) || !str(item.uriTemplate)) return undefined;
  const uriTemplate = item.uriTemplate as string;
  return { uriTemplate, name: str(item.name) ?? uriTemplate, ...texts(item, ["title", "description", "mimeType"]) };
}

export function toPrompt(item: unknown): ExplorerPrompt | undefined {
  if (!isObject(item) || !str(item.name)) return undefined;
  const args = Array.isArray(item.arguments) ? item.arguments : [];
  return {
    name: item.name as string,
    ...texts(item, ["title", "description"]),
    arguments: args
      .filter((a): a is Record<string, unknown> => isObject(a) && str(a.name) !== undefined)
      .map((a) => ({ name: a.name as string, ...texts(a, ["description"]), required: a.required === true })),
  };
}

/** The three lists the explorer shows besides tools: method, the result's array key, and how an entry is read. */
export const LISTS = {
  resources: { method: "resources/list", key: "resources", read: toResource, capability: "resources" },
  templates: { method: "resources/templates/list", key: "resourceTemplates", read: toTemplate, capability: "resources" },
  prompts: { method: "prompts/list", key: "prompts", read: toPrompt, capability: "prompts" },
} as const;

export type ListName = keyof typeof LISTS;
/** What one entry of a list is read as. */
export type WalkItem<L extends ListName> = NonNullable<ReturnType<(typeof LISTS)[L]["read"]>>;

/** Whether the server declared the capability a list needs (initialize / server/discover `capabilities`). */
export function declares(capabilities: Record<string, unknown> | undefined, list: ListName): boolean {
  return isObject(capabilities?.[LISTS[list].capability]);
}

/** The `*\/list` request for one page. */
export function listMessage(list: ListName, page: number, cursor?: string): Record<string, unknown> {
  // An id of its own per list and page: the lists are walked side by side on one session or stdio process, where two
  // requests with the same id collide (a stdio process refused the second "id 1").
  return { jsonrpc: "2.0", id: `explorer-${list}-${page}`, method: LISTS[list].method, params: cursor === undefined ? {} : { cursor } };
}

export interface ListWalk<T> {
  items: T[];
  pages: number;
  /** The server has more pages than {@link MAX_LIST_PAGES}: the walk stopped with a cursor left. */
  more: boolean;
  /** Entries left out because they lack the field that identifies them (uri, uriTemplate, name). */
  skipped: number;
  /** What went wrong, in words (the items of the pages read before it are kept). */
  error?: string;
}

/** One page's JSON-RPC response (or a failure to get one, as a message). */
export type PageFetch = (message: Record<string, unknown>) => Promise<{ response: Record<string, unknown> | null } | { error: string }>;

/** Words for a JSON-RPC error response. */
function rpcErrorText(method: string, error: unknown): string {
  const e = isObject(error) ? error : {};
  const code = typeof e.code === "number" ? ` (${e.code})` : "";
  return `The server answered ${method} with an error${code}: ${typeof e.message === "string" ? e.message : "no message"}.`;
}

/**
 * Walk a paged list: follow `nextCursor` until the last page or {@link MAX_LIST_PAGES}. A cursor that repeats
 * stops the walk (a server that loops would otherwise be asked forever).
 */
export async function walkList<L extends ListName>(
  list: L,
  fetchPage: PageFetch,
  maxPages = MAX_LIST_PAGES,
): Promise<ListWalk<WalkItem<L>>> {
  const { method, key, read } = LISTS[list];
  const out: ListWalk<WalkItem<L>> = { items: [], pages: 0, more: false, skipped: 0 };
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    if (out.pages >= maxPages) {
      out.more = true;
      return out;
    }
    const got = await fetchPage(listMessage(list, out.pages + 1, cursor));
    if ("error" in got) return { ...out, error: got.error };
    const response = got.response;
    if (!response) return { ...out, error: `The server sent no answer to ${method}.` };
    if ("error" in response) return { ...out, error: rpcErrorText(method, response.error) };
    const result = isObject(response.result) ? response.result : undefined;
    const entries = result?.[key];
    if (!Array.isArray(entries)) return { ...out, error: `The ${method} result has no "${key}" array.` };
    out.pages++;
    for (const entry of entries) {
      const item = (read as (v: unknown) => WalkItem<L> | undefined)(entry);
      if (item) out.items.push(item);
      else out.skipped++;
    }
    const next = result?.nextCursor;
    if (typeof next !== "string") return out;
    if (seen.has(next))
      return { ...out, error: `The server repeated the cursor ${JSON.stringify(next)}; stopped after ${out.pages} pages.` };
    seen.add(next);
    cursor = next;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// URI templates (RFC 6570): level 1 (`{var}`) is filled in; other expressions are left as written.

export interface UriTemplateScan {
  /** Level-1 variable names, in order of first appearance. */
  variables: string[];
  /** Expressions of higher levels (operators, lists, modifiers), kept as written. */
  unsupported: string[];
}

const EXPRESSION = /\{([^{}]*)\}/g;
const LEVEL1_NAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;

/** The variables of a uri template that the explorer can fill, and the expressions it cannot. */
export function scanUriTemplate(template: string): UriTemplateScan {
  const variables: string[] = [];
  const unsupported: string[] = [];
  for (const m of template.matchAll(EXPRESSION)) {
    if (LEVEL1_NAME.test(m[1])) {
      if (!variables.includes(m[1])) variables.push(m[1]);
    } else if (!unsupported.includes(m[0])) unsupported.push(m[0]);
  }
  return { variables, unsupported };
}

/** RFC 6570 simple string expansion: everything but the unreserved characters is percent-encoded (UTF-8). */
function encodeSimple(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Fill the level-1 variables of `template` from `values`; an empty or missing value leaves its `{var}` in place so
 * what remains to fill stays visible. Higher-level expressions are kept as written.
 */
export function fillUriTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (whole, inner: string) => {
    if (!LEVEL1_NAME.test(inner)) return whole;
    const v = values[inner];
    return v ? encodeSimple(v) : whole;
  });
}
