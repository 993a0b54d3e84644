import { diagnoseRequest } from "../editor/request-diagnostics.ts";
import { findUnsafeIntegers, unsafeIntegerMessage } from "../mcp/safe-integers.ts";

/** Why Send refuses the text: what is wrong and where (1-based line and column). */
export interface SendBlock {
  what: string;
  line: number;
  column: number;
}

export type ParsedMessage = { ok: true; value: Record<string, unknown> } | { ok: false; error: string; block: SendBlock };

/**
 * The one sentence every place says about a text Send refuses (the line under the editor, the "Will be sent" preview,
 * the refusal itself): what is wrong, where, and that nothing is sent until it is fixed. Problems that do not block
 * Send say {@link STILL_SENDABLE} instead.
 */
export function sendBlockMessage(block: SendBlock): string {
  return `Line ${block.line}, column ${block.column}: ${block.what.replace(/\.$/, "")}. Send will not send the request until this is fixed.`;
}

/** Said of problems that do not stop Send (schema and argument checks): an invalid request is a legitimate experiment. */
export const STILL_SENDABLE = "it can still be sent, to see how the server reacts";

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}

function blocked(text: string, offset: number, what: string): ParsedMessage {
  const block = { what, ...lineColumn(text, offset) };
  return { ok: false, error: sendBlockMessage(block), block };
}

/**
 * The editor text as the one JSON-RPC object Send would send, or why not (with the place). Computed once per text
 * (the component memoises it) and shared by Send, Copy as code, the next-page send and the "Will be sent" preview.
 */
export function parseMessage(text: string): ParsedMessage {
  // JSON.parse would round them silently, and the server would get another number than the one written.
  const unsafe = findUnsafeIntegers(text);
  if (unsafe.length) return blocked(text, unsafe[0].offset, unsafeIntegerMessage(unsafe));
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    // The editor's own syntax check names the problem in words and places it; JSON.parse's message is the fallback.
    const syntax = diagnoseRequest(text, { tools: [], era: "modern" }).find((d) => d.source === "json" && d.severity === "error");
    return blocked(text, syntax?.offset ?? 0, `The request is not valid JSON: ${syntax?.message ?? (err as Error).message}`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v))
    return blocked(
      text,
      text.length - text.trimStart().length,
      "The request must be one JSON object (a JSON-RPC message); batches are not part of MCP",
    );
  return { ok: true, value: v as Record<string, unknown> };
}
