/**
 * Schema errors of a form's value, placed on the fields they belong to. The value is checked with the editor's ajv
 * rules (lib/schema/validate.ts); inside a `oneOf`/`anyOf` the part is checked again against the branch the form
 * shows, so the failures of the other branches do not bury the one that matters.
 */
import { isObject } from "../json/guards.ts";
import { appendPointer, parsePointer } from "../json/pointer.ts";
import type { SchemaDiagnostic } from "../schema/validate.ts";
import type { FormModel, FormNode } from "./form-model.ts";
import { fitsNode, pickBranch } from "./form-value.ts";
import { validateAt } from "./subschema.ts";

export interface FormErrors {
  /** Messages per field, by the field's JSON pointer ("/assignee/user_id"). */
  byField: Record<string, string[]>;
  /** Messages that belong to no field the form shows (the root itself, a part it cannot place). */
  top: string[];
  /** False when the schema itself cannot be compiled (then nothing is checked): its message is in `top`. */
  checked: boolean;
}

/** The branch the form shows for each choice (by pointer), when the user picked one the value does not decide. */
export type BranchPicks = Readonly<Record<string, number>>;

/** Check `value` against the model's schema and place each problem on a field. */
export function formErrors(model: FormModel, value: unknown, picks: BranchPicks = {}): FormErrors {
  const whole = validateAt(model.root, "#", value);
  if (whole.schemaError) return { byField: {}, top: [whole.schemaError], checked: false };
  const fields = new Map<string, FormNode>();
  const choices: { pointer: string; at: string | undefined }[] = [];
  walk(model, model.node, value, "", picks, fields, choices);

  let diagnostics = whole.diagnostics;
  for (const { pointer, at } of choices) {
    if (at === undefined) {
      // A value that fits no branch (shown as JSON): the summary says it; each branch's complaints would bury it.
      diagnostics = diagnostics.filter(
        (d) =>
          !(d.pointer === pointer || d.pointer.startsWith(`${pointer}/`)) ||
          (d.pointer === pointer && (d.keyword === "oneOf" || d.keyword === "anyOf")),
      );
      continue;
    }
    const inside = (d: SchemaDiagnostic) => d.pointer === pointer || d.pointer.startsWith(`${pointer}/`);
    const part = validateAt(model.root, at, valueAt(value, pointer));
    if (part.schemaError) continue; // the branch cannot be checked on its own: keep what the whole check said
    const branchDiagnostics = part.diagnostics.map((d) => ({ ...d, pointer: pointer + d.pointer }));
    // The branch's own problems replace everything ajv said about this part (other branches, the oneOf summary),
    // except when the branch is fine and the choice still fails (a value matching two oneOf branches).
    diagnostics = [...diagnostics.filter((d) => !inside(d) || (part.ok && d.pointer === pointer)), ...branchDiagnostics];
  }

  const byField: Record<string, string[]> = {};
  const top: string[] = [];
  for (const d of diagnostics) {
    const missing = d.keyword === "required" ? String(d.params?.missingProperty ?? "") : undefined;
    const target = missing !== undefined ? appendPointer(d.pointer, missing) : d.pointer;
    const field = nearestField(fields, target);
    if (field === undefined) {
      top.push(d.pointer === "" ? d.message : `${d.pointer}: ${d.message}`);
      continue;
    }
    const message = missing !== undefined && field === target ? "required" : d.message;
    const list = (byField[field] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return { byField, top, checked: true };
}

/** The pointer itself or its nearest ancestor that the form shows as a field; never the root (that is the form). */
function nearestField(fields: Map<string, FormNode>, pointer: string): string | undefined {
  for (let p = pointer; p !== ""; p = p.slice(0, p.lastIndexOf("/"))) if (fields.has(p)) return p;
  return undefined;
}

/** The part of `value` at `pointer`, or undefined. */
export function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const token of parsePointer(pointer) ?? []) {
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = Object.prototype.hasOwnProperty.call(node, token) ? node[token] : undefined;
    else return undefined;
  }
  return node;
}

/** Collect the fields the form shows for `value` (the same rules the UI follows) and the choices with a branch shown. */
function walk(
  model: FormModel,
  node: FormNode,
  value: unknown,
  pointer: string,
  picks: BranchPicks,
  fields: Map<string, FormNode>,
  choices: { pointer: string; at: string | undefined }[],
): void {
  fields.set(pointer, node);
  if (value !== undefined && node.kind !== "choice" && !fitsNode(node, value)) return; // shown as JSON
  if (node.kind === "object") {
    const object = isObject(value) ? value : {};
    for (const p of node.properties) walk(model, p.node, object[p.name], appendPointer(pointer, p.name), picks, fields, choices);
    for (const key of Object.keys(object)) {
      if (node.properties.some((p) => p.name === key)) continue;
      const child = appendPointer(pointer, key);
      if (typeof node.additional === "object") walk(model, node.additional, object[key], child, picks, fields, choices);
      else fields.set(child, node);
    }
  } else if (node.kind === "array" && Array.isArray(value)) {
    value.forEach((item, i) => walk(model, node.items, item, appendPointer(pointer, i), picks, fields, choices));
  } else if (node.kind === "choice" && value !== undefined) {
    const i = pickBranch(model.root, node.branches, value, picks[pointer]);
    if (i === undefined) return void choices.push({ pointer, at: undefined });
    choices.push({ pointer, at: node.branches[i].node.at });
    walk(model, node.branches[i].node, value, pointer, picks, fields, choices);
  }
}
