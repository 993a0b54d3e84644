import type { Tool } from "./contract.ts";

/** The marker a cut text ends with, so a reader of the docs sees it was cut and by which setting. */
export function cutMarker(length: number, max: number): string {
  return ` … [${length - max} more characters cut: TOOLSCOPE_MAX_DESCRIPTION_CHARS is ${max}]`;
}

const MARKER = / … \[(\d+) more characters cut: TOOLSCOPE_MAX_DESCRIPTION_CHARS is (\d+)\]$/;

/**
 * The length a text had before Toolscope cut it (its own length when it was not cut), so a lint about length
 * speaks of what the server sent, not of what is shown.
 */
export function originalLength(text: string): number {
  const m = MARKER.exec(text);
  return m ? text.length - m[0].length + Number(m[1]) : text.length;
}

function capped(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  // Never half a surrogate pair: the cut text must still be valid UTF-16 for JSON and the page.
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}${cutMarker(text.length, max)}`;
}

/**
 * A tool whose description or title is longer than `max` characters, with them cut (the rest of the definition as it
 * was), and whether anything was cut. A list is held whole while it is walked, shown and stored: a server sending
 * 90 KB per description multiplies every copy. Schemas have their own cap (TOOLSCOPE_MAX_SCHEMA_BYTES).
 */
export function capToolTexts(tool: Tool, max: number): { tool: Tool; cut: boolean } {
  const long = (v: unknown): v is string => typeof v === "string" && v.length > max;
  if (!long(tool.description) && !long(tool.title)) return { tool, cut: false };
  return {
    tool: {
      ...tool,
      ...(long(tool.description) ? { description: capped(tool.description, max) } : {}),
      ...(long(tool.title) ? { title: capped(tool.title, max) } : {}),
    },
    cut: true,
  };
}
