/** Tool-name rules: the MCP spec (SEP-986) and what model APIs accept. */

/** SEP-986 as adopted by the 2026-07-28 spec: 1–128 of A-Z a-z 0-9 _ - . */
export const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** The Claude API's tool-name pattern (also accepted by OpenAI function names, which allow up to 64). */
export const CLAUDE_TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
export const MAX_TOOL_NAME_LENGTH = 128;

/** True when `name` follows the spec's tool-name rules. */
export function isSpecToolName(name: unknown): name is string {
  return typeof name === "string" && MCP_TOOL_NAME.test(name);
}

/** True when `name` can be sent to the Claude API unchanged. */
export function isClaudeToolName(name: unknown): name is string {
  return typeof name === "string" && CLAUDE_TOOL_NAME.test(name);
}

/**
 * A Claude-safe rendering of a tool name: dots and any other disallowed characters become `_`,
 * trimmed to 128 characters; an empty name becomes "tool".
 */
export function toClaudeToolName(name: string): string {
  const mapped = [...name]
    .map((c) => (/^[a-zA-Z0-9_-]$/.test(c) ? c : "_"))
    .join("")
    .slice(0, MAX_TOOL_NAME_LENGTH);
  return mapped === "" ? "tool" : mapped;
}

/** The characters of `name` outside the spec's allowed set, each once, shown as printable tokens. */
export function disallowedNameChars(name: string): string[] {
  const bad = new Set<string>();
  for (const c of name) {
    if (/^[A-Za-z0-9_.-]$/.test(c)) continue;
    bad.add(c === " " ? "space" : /^[\x21-\x7e]$/.test(c) ? c : `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`);
  }
  return [...bad];
}
