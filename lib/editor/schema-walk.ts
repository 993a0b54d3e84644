/**
 * Just enough JSON Schema walking for completions and hovers: `$ref`s through the shared resolver
 * (lib/schema/ref.ts, local refs only, never fetched), `allOf` merging and the union of `anyOf`/`oneOf` branches.
 */

import { isObject } from "../json/guards.ts";
import { deref as resolveRef, isResolved } from "../schema/ref.ts";

export type SchemaObject = Record<string, unknown>;

/**
 * The schema `schema` stands for, with its `$ref`s resolved by the shared resolver (lib/schema/ref.ts), so
 * hovers and completions read a schema exactly as the docs do: the referring schema's annotations win over the
 * target's, other sibling keywords apply alongside it. A `$ref` that cannot be followed (a cycle, a missing or
 * external target) leaves the referring schema's own keywords, which is also what the docs show; undefined when
 * there is nothing to say (not an object schema, or `false`).
 */
export function deref(root: unknown, schema: unknown): SchemaObject | undefined {
  if (!isObject(schema)) return undefined;
  const d = resolveRef(root, schema);
  if (isResolved(d)) return d.schema === true ? {} : d.schema === false ? undefined : d.schema;
  const { $ref: _ref, ...own } = schema;
  void _ref;
  return Object.keys(own).length > 0 ? own : undefined;
}

export interface PropertyInfo {
  name: string;
  schema: SchemaObject;
  required: boolean;
}

/** Properties an object schema allows, merged across `allOf` and the branches of `anyOf`/`oneOf`. */
export function propertiesOf(root: unknown, schema: unknown, depth = 0): Map<string, PropertyInfo> {
  const out = new Map<string, PropertyInfo>();
  const s = deref(root, schema);
  if (!s || depth > 8) return out;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((r): r is string => typeof r === "string") : []);
  if (isObject(s.properties)) {
    for (const [name, sub] of Object.entries(s.properties)) {
      out.set(name, { name, schema: deref(root, sub) ?? {}, required: required.has(name) });
    }
  }
  for (const [kw, mustAll] of [
    ["allOf", true],
    ["anyOf", false],
    ["oneOf", false],
  ] as const) {
    const branches = s[kw];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      for (const [name, info] of propertiesOf(root, branch, depth + 1)) {
        const prev = out.get(name);
        out.set(name, {
          name,
          schema: prev ? { ...info.schema, ...prev.schema } : info.schema,
          required: (prev?.required ?? false) || (mustAll && info.required),
        });
      }
    }
  }
  // Required names without a `properties` entry still deserve a completion.
  for (const name of required) if (!out.has(name)) out.set(name, { name, schema: {}, required: true });
  return out;
}

/** The schema governing the value at `path` under `schema`, or undefined when the schema says nothing. */
export function schemaAtPath(root: unknown, schema: unknown, path: readonly (string | number)[]): SchemaObject | undefined {
  let current = deref(root, schema);
  for (const seg of path) {
    if (!current) return undefined;
    if (typeof seg === "number") {
      const prefix = current.prefixItems;
      if (Array.isArray(prefix) && seg < prefix.length) current = deref(root, prefix[seg]);
      else if (Array.isArray(current.items) && seg < current.items.length) current = deref(root, current.items[seg]);
      else current = deref(root, current.items);
    } else {
      const prop = propertiesOf(root, current).get(seg);
      if (prop) current = prop.schema;
      else current = isObject(current.additionalProperties) ? deref(root, current.additionalProperties) : undefined;
    }
  }
  return current;
}

/** A short type label: `string`, `integer | null`, `array of string`, `enum`, `object`. */
export function typeLabel(root: unknown, schema: SchemaObject | undefined): string {
  if (!schema) return "any";
  const t = schema.type;
  if (Array.isArray(t)) return t.join(" | ");
  if (t === "array") {
    const items = deref(root, schema.items);
    return items ? `array of ${typeLabel(root, items)}` : "array";
  }
  if (typeof t === "string") return t;
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return "enum";
  for (const kw of ["anyOf", "oneOf"] as const) {
    const branches = schema[kw];
    if (Array.isArray(branches)) return branches.map((b) => typeLabel(root, deref(root, b))).join(" | ");
  }
  if (isObject(schema.properties)) return "object";
  return "any";
}

/** Allowed literal values for a schema: `const`, `enum`, booleans, and the same across union branches. */
export function literalValues(root: unknown, schema: SchemaObject | undefined, depth = 0): unknown[] {
  if (!schema || depth > 8) return [];
  if ("const" in schema) return [schema.const];
  if (Array.isArray(schema.enum)) return [...schema.enum];
  const out: unknown[] = [];
  for (const kw of ["anyOf", "oneOf"] as const) {
    const branches = schema[kw];
    if (Array.isArray(branches)) for (const b of branches) out.push(...literalValues(root, deref(root, b), depth + 1));
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("boolean")) out.push(true, false);
  if (types.includes("null")) out.push(null);
  return out;
}
