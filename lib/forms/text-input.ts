/**
 * What a text input holds and the value it stands for. A field keeps the typed text (its draft) as long as it still
 * stands for the current value, so "1." or "-" in a number field stays on screen with its error rather than being
 * rewritten; {@link parseDraft} says what a draft means.
 */
import type { FormNode } from "./form-model.ts";

/** What a draft stands for: a value, nothing (an empty field), or a problem to show under the field. */
export type DraftResult = { value: unknown } | { empty: true } | { error: string };

type TextNode = Extract<FormNode, { kind: "string" | "number" }>;

/** A whole number or decimal as people type it (no hex, no "Infinity", no blank), exponent allowed. */
const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function parseDraft(node: TextNode, text: string): DraftResult {
  if (node.kind === "string") {
    if (text === "") return { empty: true };
    return { value: fromInput(node, text) };
  }
  const trimmed = text.trim();
  if (trimmed === "") return { empty: true };
  if (!NUMBER_TEXT.test(trimmed) || /\.$/.test(trimmed)) return { error: node.integer ? "must be a whole number" : "must be a number" };
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return { error: "is too large a number" };
  if (node.integer && !Number.isInteger(n)) return { error: "must be a whole number" };
  if (node.integer && !Number.isSafeInteger(n)) return { error: "is beyond ±2^53 − 1, which JSON numbers cannot carry exactly" };
  return { value: n };
}

/** The text a field shows for a value. */
export function draftOf(node: TextNode, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (node.kind === "number") return typeof value === "number" ? String(value) : "";
  return typeof value === "string" ? toInput(node, value) : "";
}

/**
 * The input type that can show `value` without changing it: a date-time or time input shows the UTC forms
 * ("2026-01-02T03:04:05Z", "10:00:00Z"); any other text in such a field is shown in a text input, as it is.
 */
export function inputTypeFor(node: Extract<FormNode, { kind: "string" }>, value: unknown): string {
  if (typeof value !== "string" || value === "") return node.inputType;
  if (node.inputType === "datetime-local") return DATE_TIME_UTC.test(value) ? node.inputType : "text";
  if (node.inputType === "time") return TIME_UTC.test(value) ? node.inputType : "text";
  if (node.inputType === "date") return /^\d{4}-\d{2}-\d{2}$/.test(value) ? node.inputType : "text";
  return node.inputType;
}

const DATE_TIME_UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?)Z$/;
const TIME_UTC = /^(\d{2}:\d{2}(?::\d{2})?)Z$/;

/** The value in a date-time/time input's own form (no zone; the value is UTC). */
function toInput(node: TextNode, value: string): string {
  if (node.kind === "string" && node.inputType === "datetime-local") return DATE_TIME_UTC.exec(value)?.[1] ?? value;
  if (node.kind === "string" && node.inputType === "time") return TIME_UTC.exec(value)?.[1] ?? value;
  return value;
}

/** A date-time/time input gives "2026-01-02T03:04" or "10:00"; the schema's formats want seconds and a zone (UTC). */
function fromInput(node: TextNode, text: string): string {
  if (node.kind !== "string") return text;
  if (node.inputType === "datetime-local" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text))
    return `${text.length === 16 ? `${text}:00` : text}Z`;
  if (node.inputType === "time" && /^\d{2}:\d{2}(:\d{2})?$/.test(text)) return `${text.length === 5 ? `${text}:00` : text}Z`;
  return text;
}
