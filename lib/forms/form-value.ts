/**
 * Values in a form: reading which branch and kind fit the current value, making the empty value of a new part,
 * applying defaults on request, and replacing one part of a value. Every edit replaces only the part edited, so
 * whatever else the value holds (keys the schema does not know, values the form cannot show) stays as it was.
 */
import { isObject } from "../json/guards.ts";
import { canonicalJson } from "../json/canonical.ts";
import type { Branch, FormModel, FormNode } from "./form-model.ts";
import { validateAt } from "./subschema.ts";

/** Equal as JSON values (key order aside). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return a === b || canonicalJson(a) === canonicalJson(b);
}

/** Whether a value has the shape a node shows (its type; for enums and consts, one of its values). */
export function fitsNode(node: FormNode, value: unknown, strictKeys = false): boolean {
  if (value === null && node.nullable) return true;
  switch (node.kind) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && (!node.integer || Number.isInteger(value));
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "enum":
      return node.options.some((o) => jsonEqual(o.value, value));
    case "const":
      return jsonEqual(node.value, value);
    case "multiselect":
      return Array.isArray(value) && value.every((v) => node.options.some((o) => jsonEqual(o.value, v)));
    case "array":
      return Array.isArray(value);
    case "object":
      if (!isObject(value)) return false;
      // Consts tell branches apart (`{"kind": "user"}`); extra keys do when they are forbidden.
      for (const p of node.properties)
        if (p.node.kind === "const" && p.name in value && !jsonEqual(p.node.value, value[p.name])) return false;
      if (strictKeys && node.additional === "forbidden") return Object.keys(value).every((k) => node.properties.some((p) => p.name === k));
      return true;
    case "choice":
      return node.branches.some((b) => fitsNode(b.node, value, true));
    case "json":
      return true;
  }
}

/**
 * The branch a value belongs to: the only one it validates against; else the user's `preferred` one while the value
 * still has its shape (a half-filled object); else the first whose shape it has. Undefined: it fits none (edit as JSON),
 * or there is no value and no pick (a negative pick: the user chose "not set").
 */
export function pickBranch(root: unknown, branches: Branch[], value: unknown, preferred?: number): number | undefined {
  if (value === undefined) return preferred !== undefined && preferred >= 0 ? preferred : undefined;
  const valid = branches.flatMap((b, i) => (validateAt(root, b.node.at, value).ok ? [i] : []));
  if (valid.length === 1) return valid[0];
  const shaped = branches.flatMap((b, i) => (fitsNode(b.node, value, true) ? [i] : []));
  if (preferred !== undefined && shaped.includes(preferred)) return preferred;
  if (valid.length > 1) return valid[0];
  return shaped[0];
}

/**
 * The value a new part starts with (a branch just chosen, an item just added): objects get their consts and
 * required objects, other kinds start empty (undefined) so nothing is invented that the user did not type.
 */
export function emptyValue(node: FormNode): unknown {
  switch (node.kind) {
    case "const":
      return node.value;
    case "object": {
      const out: Record<string, unknown> = {};
      for (const p of node.properties) {
        if (p.node.kind === "const" || (p.required && (p.node.kind === "object" || p.node.kind === "array")))
          out[p.name] = emptyValue(p.node);
      }
      return out;
    }
    case "array":
    case "multiselect":
      return [];
    case "null":
      return null;
    default:
      return undefined;
  }
}

/**
 * The starting value of an array item (an item cannot be absent): its default; else an empty object, list or
 * string, `false`, the lowest number allowed (or 0), the first choice; else null.
 */
export function newItem(node: FormNode): unknown {
  if (node.hasDefault) return structuredClone(node.default);
  const empty = emptyValue(node);
  if (empty !== undefined) return empty;
  switch (node.kind) {
    case "string":
      return "";
    case "boolean":
      return false;
    case "number":
      return node.minimum ?? 0;
    case "enum":
      return node.options[0]?.value ?? null;
    case "choice":
      return node.branches.length > 0 ? newItem(node.branches[0].node) : null;
    default:
      return null;
  }
}

/**
 * Fill defaults where the value has nothing ("Fill defaults"): every absent property with a `default`, inside objects
 * that are present (or required and created for it). Present values are never replaced.
 */
export function fillDefaults(model: FormModel, value: unknown): unknown {
  return fill(model.root, model.node, value);
}

function fill(root: unknown, node: FormNode, value: unknown): unknown {
  if (value === undefined && node.hasDefault) return structuredClone(node.default);
  if (node.kind === "object" && (value === undefined || isObject(value))) {
    const base = value ?? {};
    let out: Record<string, unknown> | undefined;
    for (const p of node.properties) {
      const current = base[p.name];
      // An absent optional object stays absent: its inner defaults apply once the user adds it.
      const skip = current === undefined && !p.required && p.node.kind === "object" && !p.node.hasDefault;
      const filled = skip ? current : fill(root, p.node, current);
      if (filled !== current) {
        out ??= { ...base };
        out[p.name] = filled;
      }
    }
    return out ?? value;
  }
  if (node.kind === "array" && Array.isArray(value)) {
    const items = value.map((item) => fill(root, node.items, item));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (node.kind === "choice" && value !== undefined) {
    const i = pickBranch(root, node.branches, value);
    return i === undefined ? value : fill(root, node.branches[i].node, value);
  }
  return value;
}

/** `object` with `key` set to `next` (undefined: removed), in place of the old key so the key order is kept. */
export function withKey(object: Record<string, unknown>, key: string, next: unknown): Record<string, unknown> {
  if (next === undefined) {
    if (!(key in object)) return object;
    const { [key]: _removed, ...rest } = object;
    void _removed;
    return rest;
  }
  return { ...object, [key]: next };
}

/** `object` with `from` renamed to `to`, at the same place in the key order. */
export function renameKey(object: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(object)) out[k === from ? to : k] = v;
  return out;
}

/** `list` with item `from` moved to `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}
