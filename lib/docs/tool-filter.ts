import type { Tool } from "../mcp/contract.ts";
import { effectiveHints } from "./annotations.ts";

/** Behaviour filters for the tool index, by effective (defaulted) hints. */
export const BEHAVIOURS = ["read-only", "destructive", "idempotent", "open-world"] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

export interface ToolQuery {
  /** Words that must all appear in the name, title or description (case-insensitive). */
  q?: string;
  behaviour?: Behaviour;
}

/**
 * How much of a description the search reads. The browser filters as you type from the same text the server
 * filtered on, so the text travels to the page: a hostile megabyte-long description must not.
 */
export const SEARCH_DESCRIPTION_CHARS = 2000;

/** What the filter looks at in one tool, small enough to send to the browser for every tool of a big server. */
export interface ToolSearchEntry {
  /** Name, titles and the start of the description, lower-cased. */
  text: string;
  /** The behaviours the tool has, by its effective hints. */
  behaviours: Behaviour[];
}

function hasBehaviour(tool: Tool, behaviour: Behaviour): boolean {
  const [readOnly, destructive, idempotent, openWorld] = effectiveHints(tool);
  switch (behaviour) {
    case "read-only":
      return readOnly.value;
    case "destructive":
      return !readOnly.value && destructive.value;
    case "idempotent":
      return !readOnly.value && idempotent.value;
    case "open-world":
      return openWorld.value;
  }
}

/** Parse untrusted query-string values into a ToolQuery (unknown behaviours are ignored). */
export function parseToolQuery(q: unknown, behaviour: unknown): ToolQuery {
  return {
    q: typeof q === "string" ? q.slice(0, 200) : undefined,
    behaviour: (BEHAVIOURS as readonly unknown[]).includes(behaviour) ? (behaviour as Behaviour) : undefined,
  };
}

/** The text a search reads: the given names, titles and description start, one per line, lower-cased. */
export function searchText(parts: unknown[]): string {
  return parts
    .filter((s) => typeof s === "string")
    .join("\n")
    .toLowerCase();
}

/** The search entry of one tool. */
export function toolSearchEntry(tool: Tool): ToolSearchEntry {
  const description = typeof tool.description === "string" ? tool.description.slice(0, SEARCH_DESCRIPTION_CHARS) : undefined;
  return {
    text: searchText([tool.name, tool.title, tool.annotations?.title, description]),
    behaviours: BEHAVIOURS.filter((b) => hasBehaviour(tool, b)),
  };
}

/** The words of a query's text, lower-cased. */
function queryWords(query: ToolQuery): string[] {
  return (query.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether a text holds every word of the query (words may appear in any order). */
export function matchesWords(text: string, q: string | undefined): boolean {
  return queryWords({ q }).every((w) => text.includes(w));
}

/** Whether one tool's entry matches a query: the one rule, on the server page's first render and as you type. */
export function matchesQuery(entry: ToolSearchEntry, query: ToolQuery): boolean {
  if (query.behaviour && !entry.behaviours.includes(query.behaviour)) return false;
  return matchesWords(entry.text, query.q);
}

/** The tools matching a query, in their original order. */
export function filterTools(tools: Tool[], query: ToolQuery): Tool[] {
  return tools.filter((tool) => matchesQuery(toolSearchEntry(tool), query));
}

/**
 * A query's URL search string over a base search string (`?server=…`): `q` and `behaviour` set when present,
 * dropped when empty, everything else kept. What the filter writes to the address bar as you type.
 */
export function searchWithQuery(search: string, query: ToolQuery): string {
  const params = new URLSearchParams(search);
  if (query.q) params.set("q", query.q);
  else params.delete("q");
  if (query.behaviour) params.set("behaviour", query.behaviour);
  else params.delete("behaviour");
  const s = params.toString();
  return s ? `?${s}` : "";
}
