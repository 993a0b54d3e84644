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

/** The tools matching a query, in their original order. */
export function filterTools(tools: Tool[], query: ToolQuery): Tool[] {
  const words = (query.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  return tools.filter((tool) => {
    if (query.behaviour && !hasBehaviour(tool, query.behaviour)) return false;
    if (words.length === 0) return true;
    const hay = [tool.name, tool.title, tool.annotations?.title, tool.description]
      .filter((s) => typeof s === "string")
      .join("\n")
      .toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}
