/**
 * The one `$ref` resolver (JSON Schema 2020-12), shared by the request editor (hover, completions), the docs
 * (parameter rows, diff, lints) and example arguments. Local references only: `#`, `#/json/pointer` (into `$defs`,
 * `definitions` or anywhere else in the document), `#anchor` (`$anchor`/`$dynamicAnchor`) and the root's own `$id`.
 * Never fetches anything: a `$ref` that is not local is reported as `{ external }`, a loop as `{ cycle }`, a
 * dangling one as `{ missing }`.
 *
 * The rule: in 2020-12 `$ref` is an applicator like any other, so the referring schema's sibling keywords apply
 * together with the target. For display the two are merged into one schema: the referring schema's annotations
 * (title, description, default, examples, deprecated, readOnly, writeOnly, x-mcp-header, $comment) override the
 * target's; `required` is united and `properties` merged; any other sibling keyword the target also has is a second
 * constraint, kept through `allOf` rather than dropped. Along a chain of refs the outermost referring schema wins.
 */
import { isObject } from "../json/guards.ts";
import { parsePointer, unescapeToken } from "../json/pointer.ts";

/** A JSON Schema: an object or a boolean (true = anything, false = nothing). */
export type JsonSchema = boolean | Record<string, unknown>;

/** The refs being expanded on the current path from the root, outermost first. */
export type RefTrail = readonly string[];

/** A resolved schema. `ref`/`refName` are set when a `$ref` was followed to get here. */
export interface ResolvedSchema {
  schema: JsonSchema;
  ref?: string;
  /** The last pointer token of the followed ref, e.g. "Address" for `#/$defs/Address`. */
  refName?: string;
  /** The trail to pass on when descending into `schema` (includes `ref`). */
  trail: RefTrail;
}

export type Deref = ResolvedSchema | { cycle: string } | { external: string } | { missing: string };

/** Longest chain of `$ref` → `$ref` → … followed before giving up (reported as a cycle). */
export const MAX_REF_CHAIN = 32;

/** Keywords on a `$ref` node that describe rather than constrain; they override the target's. */
const ANNOTATION_KEYS = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "x-mcp-header",
  "$comment",
]);

export function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "boolean" || isObject(value);
}

/** Look up a JSON pointer ("" or "/a/b") in `root`. Returns undefined when any step is missing. */
export function getByPointer(root: unknown, pointer: string, uriFragment = false): unknown {
  if (uriFragment) {
    // RFC 6901 §6: a URI fragment is percent-decoded as a whole before it is read as a pointer.
    try {
      pointer = decodeURIComponent(pointer);
    } catch {
      return undefined;
    }
  }
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObject(node)) {
      if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}

/** True when `ref` points inside the same document (a fragment, or the root's own `$id` + fragment). */
export function isLocalRef(ref: string, root?: unknown): boolean {
  return localFragment(ref, root) !== undefined;
}

/** True when a `$ref` names a network location (http/https or protocol-relative). */
export function isNetworkRef(ref: string): boolean {
  return /^(https?:)?\/\//i.test(ref.trim());
}

function localFragment(ref: string, root: unknown): string | undefined {
  if (ref.startsWith("#")) return ref.slice(1);
  const id = isObject(root) && typeof root.$id === "string" ? root.$id.replace(/#$/, "") : undefined;
  if (id && (ref === id || ref.startsWith(`${id}#`))) return ref.slice(id.length).replace(/^#/, "");
  return undefined;
}

/** Find a subschema declaring `$anchor: name` (bounded walk). */
function findAnchor(root: unknown, name: string): unknown {
  const stack: unknown[] = [root];
  let visited = 0;
  while (stack.length > 0 && visited < 10_000) {
    const node = stack.pop();
    visited++;
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      if (node.$anchor === name || node.$dynamicAnchor === name) return node;
      for (const v of Object.values(node)) if (typeof v === "object" && v !== null) stack.push(v);
    }
  }
  return undefined;
}

/** Resolve a local ref string against `root`, without following further refs. */
export function lookupRef(root: unknown, ref: string): unknown {
  const fragment = localFragment(ref, root);
  if (fragment === undefined) return undefined;
  if (fragment === "" || fragment.startsWith("/")) return getByPointer(root, fragment, true);
  return findAnchor(root, fragment);
}

function refNameOf(ref: string): string {
  const tokens = ref.split("/");
  let last = tokens[tokens.length - 1] ?? ref;
  try {
    last = decodeURIComponent(last);
  } catch {
    // keep it raw
  }
  return unescapeToken(last).replace(/^#/, "") || "root";
}

/** Merge a `$ref` node's sibling keywords into its target (2020-12 applies both). */
function mergeSiblings(target: JsonSchema, siblings: Record<string, unknown>): JsonSchema {
  const keys = Object.keys(siblings);
  if (keys.length === 0) return target;
  if (target === false) return false;
  const base: Record<string, unknown> = target === true ? {} : { ...target };
  const rest: Record<string, unknown> = {};
  for (const key of keys) {
    const value = siblings[key];
    if (ANNOTATION_KEYS.has(key) || !(key in base)) base[key] = value;
    else if (key === "required" && Array.isArray(value) && Array.isArray(base.required))
      base.required = [...new Set([...base.required, ...value])];
    else if (key === "properties" && isObject(value) && isObject(base.properties)) base.properties = { ...base.properties, ...value };
    else rest[key] = value;
  }
  // Conflicting constraints: keep both through allOf rather than silently dropping one.
  if (Object.keys(rest).length > 0) base.allOf = [...(Array.isArray(base.allOf) ? base.allOf : []), rest];
  return base;
}

/**
 * Follow `schema.$ref` (and chains of refs) within `root`. A schema without `$ref` comes back as is.
 * `trail` holds the refs already being expanded above this node; meeting one again is a cycle.
 */
export function deref(root: unknown, schema: unknown, trail: RefTrail = []): Deref {
  if (!isSchema(schema)) return { schema: true, trail };
  let current: JsonSchema = schema;
  let currentTrail = trail;
  let ref: string | undefined;
  const siblings: Record<string, unknown>[] = [];
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    const next: string = current.$ref as string;
    if (!isLocalRef(next, root)) return { external: next };
    if (currentTrail.includes(next) || hops >= MAX_REF_CHAIN) return { cycle: next };
    const { $ref: _drop, ...rest } = current;
    void _drop;
    siblings.push(rest);
    const target = lookupRef(root, next);
    if (!isSchema(target)) return { missing: next };
    ref = next;
    currentTrail = [...currentTrail, next];
    current = target;
  }
  // Apply siblings innermost first so the outermost annotations win.
  for (let i = siblings.length - 1; i >= 0; i--) current = mergeSiblings(current, siblings[i]);
  return ref === undefined
    ? { schema: current, trail: currentTrail }
    : { schema: current, ref, refName: refNameOf(ref), trail: currentTrail };
}

export function isResolved(d: Deref): d is ResolvedSchema {
  return "schema" in d;
}

/** Collect every `$ref` string in a schema (bounded walk), e.g. for linting network refs. */
export function collectRefs(schema: unknown, limit = 10_000): string[] {
  const refs: string[] = [];
  const stack: unknown[] = [schema];
  let visited = 0;
  while (stack.length > 0 && visited < limit) {
    const node = stack.pop();
    visited++;
    if (Array.isArray(node)) stack.push(...node);
    else if (isObject(node)) {
      if (typeof node.$ref === "string") refs.push(node.$ref);
      if (typeof node.$dynamicRef === "string") refs.push(node.$dynamicRef);
      for (const v of Object.values(node)) if (typeof v === "object" && v !== null) stack.push(v);
    }
  }
  return refs;
}
