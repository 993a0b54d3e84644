/**
 * Just enough JSON Schema walking for completions, hovers and example arguments: local `$ref`s,
 * `allOf` merging and the union of `anyOf`/`oneOf` branches. Never fetches a network `$ref`.
 */

export type SchemaObject = Record<string, unknown>;

const MAX_REF_CHAIN = 32;

export function isObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follow a local `$ref` (`#/...`) from `root`; anything else yields undefined. */
export function lookupLocalRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

/** Resolve `$ref` chains; keywords beside a `$ref` (description, default…) win over the target's. */
export function deref(root: unknown, schema: unknown): SchemaObject | undefined {
  let current = schema;
  let overlay: SchemaObject = {};
  for (let i = 0; i < MAX_REF_CHAIN && isObject(current); i++) {
    const ref = current.$ref;
    if (typeof ref !== "string") return { ...current, ...overlay };
    const rest = { ...current };
    delete rest.$ref;
    overlay = { ...rest, ...overlay };
    current = lookupLocalRef(root, ref);
  }
  return isObject(current) ? { ...current, ...overlay } : Object.keys(overlay).length ? overlay : undefined;
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
  for (const [kw, mustAll] of [["allOf", true], ["anyOf", false], ["oneOf", false]] as const) {
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
