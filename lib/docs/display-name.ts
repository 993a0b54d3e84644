import type { Tool } from "../mcp/contract.ts";

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/**
 * The name to show a human, by the spec's precedence: `title`, then `annotations.title`, then `name`.
 * Blank titles are skipped (a server sending `""` meant "no title").
 */
export function displayName(tool: Pick<Tool, "name" | "title" | "annotations">): string {
  return nonEmpty(tool.title) ?? nonEmpty(tool.annotations?.title) ?? (typeof tool.name === "string" ? tool.name : "");
}

/** True when the display name differs from the wire name, so the docs should show both. */
export function hasDistinctTitle(tool: Pick<Tool, "name" | "title" | "annotations">): boolean {
  return displayName(tool) !== tool.name;
}

/**
 * The first line of a description, for summaries in lists: the first non-blank line, with leading
 * Markdown heading/list markers removed. Returns "" when there is no description.
 */
export function firstLine(description: string | undefined | null): string {
  if (typeof description !== "string") return "";
  for (const raw of description.split(/\r\n|\r|\n/)) {
    const line = raw
      .trim()
      .replace(/^(#{1,6}\s+|[-*+]\s+|>\s*)/, "")
      .trim();
    if (line !== "") return line;
  }
  return "";
}
