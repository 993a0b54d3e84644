/**
 * The words a form shows around a field: hints from the schema's constraints and default, the note on a value the
 * form cannot show, and schema messages worded for a field that is already labelled.
 */
import { isObject } from "../json/guards.ts";
import { isGeneratorBound } from "../json/schema-bounds.ts";
import type { FormNode } from "./form-model.ts";
import { visibleText } from "../mcp/visible-text.ts";

const MAX_SHOWN = 60;

/** A value in a few characters, for notes ("the value {"a":1…} …"). */
export function valueSummary(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function range(low: string | undefined, high: string | undefined): string | undefined {
  if (low && high) return `${low} and ${high}`;
  return low ?? high;
}

/** The constraints and default of a field in one line ("3–20 characters · default: "x""), or "". */
export function fieldHints(node: FormNode): string {
  const parts: string[] = [];
  if (node.kind === "string") {
    if (node.minLength !== undefined && node.maxLength !== undefined) parts.push(`${node.minLength}–${node.maxLength} characters`);
    else if (node.minLength !== undefined) parts.push(`at least ${node.minLength} characters`);
    else if (node.maxLength !== undefined) parts.push(`at most ${node.maxLength} characters`);
    if (node.pattern !== undefined) parts.push(`pattern ${node.pattern}`);
    if (node.formatNote) parts.push(node.formatNote);
    else if (node.inputType === "datetime-local" || node.inputType === "time") parts.push("UTC");
  }
  if (node.kind === "number") {
    const shown = (n: number | undefined) => (n === undefined || isGeneratorBound(n) ? undefined : n);
    const bounds = range(
      shown(node.minimum) !== undefined
        ? `≥ ${node.minimum}`
        : node.exclusiveMinimum !== undefined
          ? `> ${node.exclusiveMinimum}`
          : undefined,
      shown(node.maximum) !== undefined
        ? `≤ ${node.maximum}`
        : node.exclusiveMaximum !== undefined
          ? `< ${node.exclusiveMaximum}`
          : undefined,
    );
    parts.push([node.integer ? "whole number" : "number", bounds].filter(Boolean).join(" "));
    if (node.multipleOf !== undefined) parts.push(`multiple of ${node.multipleOf}`);
  }
  if (node.kind === "array" || node.kind === "multiselect") {
    if (node.minItems !== undefined && node.maxItems !== undefined) parts.push(`${node.minItems}–${node.maxItems} items`);
    else if (node.minItems !== undefined) parts.push(`at least ${node.minItems} items`);
    else if (node.maxItems !== undefined) parts.push(`at most ${node.maxItems} items`);
  }
  if (node.hasDefault) parts.push(`default: ${valueSummary(node.default)}`);
  // A pattern and a default are the schema's (the server's) text: hidden characters are shown as marks.
  return visibleText(parts.join(" · "));
}

const KIND_WORDS: Partial<Record<FormNode["kind"], string>> = {
  string: "a string",
  boolean: "true or false",
  null: "null",
  object: "an object",
  array: "a list",
  multiselect: "a list of the offered choices",
  enum: "one of the offered choices",
  choice: "one of the offered options",
};

/** Why a present value is shown as JSON: it is not what the schema declares for this place. */
export function misfitNote(node: FormNode, value: unknown): string {
  let expected = KIND_WORDS[node.kind] ?? "something else";
  if (node.kind === "number") expected = node.integer ? "a whole number" : "a number";
  if (node.kind === "const") expected = valueSummary(node.value);
  if (node.kind === "object" && isObject(value)) expected = "an object with the expected constants";
  return `The value ${valueSummary(value)} is not ${expected}, as the schema declares; it is kept as it is. Edit it as JSON.`;
}

/**
 * A schema message for a labelled field: "required" reads "is required"; a message that starts with the property
 * name ("name must be…") or "the value" loses it, since the label says whose it is.
 */
export function fieldMessage(label: string, message: string): string {
  if (message === "required") return `${label} is required`;
  if (message.startsWith("unexpected property")) return `${label} is not allowed: the schema allows no other properties (remove it)`;
  const rest = message.replace(/^(the value|[^\s]+) (must|matches|is|has|should)\b/, "$2");
  return `${label} ${rest}`;
}
