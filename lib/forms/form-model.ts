/**
 * A JSON Schema turned into a form model: one node per part of the value, each saying how a form shows it. Pure (no
 * React). What a form cannot express becomes a `json` node with a short reason, so the UI falls back to a JSON text
 * field for that part instead of dropping or rewriting anything.
 *
 * Local `$ref`s are followed with the one resolver (lib/schema/ref.ts). A recursive schema is expanded until the same
 * ref repeats {@link MAX_REF_REPEAT} times on one path; below that it is edited as JSON.
 */
import { isObject } from "../json/guards.ts";
import { escapeToken } from "../json/pointer.ts";
import { deref, isResolved, type RefTrail } from "../schema/ref.ts";
import { visibleText } from "../mcp/visible-text.ts";

/** One choice of an `enum` (or a list of `const`s): any JSON scalar, labelled for people. */
export interface EnumOption {
  value: unknown;
  label: string;
}

/** What every node carries besides its kind. */
export interface NodeBase {
  /** Where the node's schema sits in the root schema ("#/properties/a"): subtrees are validated through it. */
  at: string;
  title?: string;
  description?: string;
  /** The schema's `default`, shown as a hint and applied only on request. */
  default?: unknown;
  hasDefault: boolean;
  /** `null` is allowed besides the node's own type (`type: ["string","null"]` or `nullable: true`). */
  nullable: boolean;
  /** The `$ref` name the node came through ("UserAssignee"), for labelling choices. */
  refName?: string;
}

export interface PropertyModel {
  name: string;
  required: boolean;
  node: FormNode;
}

export type StringInput = "text" | "email" | "url" | "date" | "datetime-local" | "time";

export type FormNode =
  | (NodeBase & {
      kind: "string";
      inputType: StringInput;
      format?: string;
      /** Set when the format has no input type of its own: shown beside the field ("format: uuid"). */
      formatNote?: string;
      minLength?: number;
      maxLength?: number;
      pattern?: string;
    })
  | (NodeBase & {
      kind: "number";
      integer: boolean;
      minimum?: number;
      maximum?: number;
      exclusiveMinimum?: number;
      exclusiveMaximum?: number;
      multipleOf?: number;
    })
  /** `explicit`: required with no default, so it is answered yes or no rather than left as an unticked box. */
  | (NodeBase & { kind: "boolean"; explicit: boolean })
  | (NodeBase & { kind: "null" })
  | (NodeBase & { kind: "enum"; options: EnumOption[] })
  | (NodeBase & { kind: "const"; value: unknown })
  /** An array of distinct choices, shown as a group of checkboxes. */
  | (NodeBase & { kind: "multiselect"; options: EnumOption[]; minItems?: number; maxItems?: number })
  | (NodeBase & {
      kind: "object";
      properties: PropertyModel[];
      /** Keys not in `properties`: a schema for them (key/value editor), forbidden, or anything (kept as JSON). */
      additional: FormNode | "forbidden" | "any";
    })
  | (NodeBase & { kind: "array"; items: FormNode; minItems?: number; maxItems?: number })
  /** `oneOf`/`anyOf`, or a `type` list of several types: the user picks a branch. */
  | (NodeBase & { kind: "choice"; keyword: "oneOf" | "anyOf" | "type"; branches: Branch[] })
  /** Edited as JSON text; `reason` says why (empty for a schema that allows any value). */
  | (NodeBase & { kind: "json"; reason: string });

export interface Branch {
  label: string;
  node: FormNode;
}

export interface FormModel {
  /** The schema as given, the document every `$ref` and {@link NodeBase.at} points into. */
  root: unknown;
  node: FormNode;
}

/** How many times one `$ref` may be expanded on a single path before the part is edited as JSON. */
export const MAX_REF_REPEAT = 3;
/** Nesting depth (objects, arrays, branches) beyond which a part is edited as JSON. */
export const MAX_DEPTH = 24;

/** Keywords the form cannot express; a schema using one of them is edited as JSON, naming it. */
const UNSUPPORTED_KEYWORDS = [
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "patternProperties",
  "dependentSchemas",
  "dependentRequired",
  "dependencies",
  "propertyNames",
  "prefixItems",
  "contains",
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
];

const INPUT_TYPES: Record<string, StringInput> = {
  email: "email",
  uri: "url",
  url: "url",
  date: "date",
  "date-time": "datetime-local",
  time: "time",
};

const TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
/**
 * A schema's words for people (titles, descriptions, choice labels) as the form shows them: the schema is the
 * server's, so invisible and direction-changing characters become visible marks (lib/mcp/visible-text.ts).
 * Values (enum members, consts, defaults) are never touched: they are what the answer sends.
 */
const shown = (v: unknown): string | undefined => (typeof v === "string" ? visibleText(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** `{ key: value }` when value is defined, else `{}`: keeps optional members absent rather than `undefined`. */
function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A label for a scalar: strings as they are (hidden characters marked), anything else as JSON. */
export function scalarLabel(value: unknown): string {
  return typeof value === "string" ? visibleText(value) : JSON.stringify(value);
}

interface Ctx {
  root: unknown;
  trail: RefTrail;
  depth: number;
}

/** Models by schema text, so a caller that rebuilds an equal schema on each render gets the same model back. */
const byText = new Map<string, FormModel>();
const MAX_CACHED_MODELS = 50;

/** {@link buildFormModel}, the same model object for equal schemas (a stable identity for memos and caches). */
export function cachedFormModel(schema: unknown): FormModel {
  let key: string;
  try {
    key = JSON.stringify(schema) ?? "undefined";
  } catch {
    return buildFormModel(schema);
  }
  const hit = byText.get(key);
  if (hit) return hit;
  const model = buildFormModel(schema);
  if (byText.size >= MAX_CACHED_MODELS) byText.delete(byText.keys().next().value as string);
  byText.set(key, model);
  return model;
}

/** Build the model of a schema. Never throws: anything odd becomes a `json` node with its reason. */
export function buildFormModel(schema: unknown): FormModel {
  return { root: schema, node: nodeFor(schema, "#", { root: schema, trail: [], depth: 0 }) };
}

/** The model of the subschema at `at`, reached from its parent through `ctx`. */
function nodeFor(schema: unknown, at: string, ctx: Ctx): FormNode {
  if (ctx.depth > MAX_DEPTH) return jsonNode(at, `nested deeper than ${MAX_DEPTH} levels`);
  const resolved = deref(ctx.root, schema);
  if (!isResolved(resolved)) {
    if ("cycle" in resolved) return jsonNode(at, `the $ref ${resolved.cycle} refers back to itself`);
    if ("external" in resolved) return jsonNode(at, `the $ref ${resolved.external} is not in this schema`);
    return jsonNode(at, `the $ref ${resolved.missing} points at nothing`);
  }
  let trail = ctx.trail;
  if (resolved.ref !== undefined) {
    if (trail.filter((r) => r === resolved.ref).length >= MAX_REF_REPEAT)
      return jsonNode(at, `the recursive $ref ${resolved.ref} is not expanded past ${MAX_REF_REPEAT} levels`);
    trail = [...trail, resolved.ref];
  }
  const s = resolved.schema;
  const next: Ctx = { root: ctx.root, trail, depth: ctx.depth + 1 };
  if (s === true) return jsonNode(at, "", resolved.refName);
  if (s === false) return jsonNode(at, "the schema allows no value at all", resolved.refName);
  return fromObject(s, at, next, resolved.refName);
}

function jsonNode(at: string, reason: string, refName?: string): FormNode {
  return { kind: "json", reason, at, hasDefault: false, nullable: false, ...opt("refName", refName) };
}

function baseOf(s: Record<string, unknown>, at: string, refName: string | undefined, nullable: boolean): NodeBase {
  return {
    at,
    ...opt("title", shown(s.title)),
    ...opt("description", shown(s.description)),
    ...("default" in s ? { default: s.default } : {}),
    hasDefault: "default" in s,
    nullable,
    ...opt("refName", refName),
  };
}

/** The declared types (`type` as a string or a list), or undefined when the schema declares none. */
function declaredTypes(s: Record<string, unknown>): string[] | undefined {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  return undefined;
}

/** The type a schema without `type` implies by its keywords (properties → object, items → array…). */
function impliedType(s: Record<string, unknown>): string | undefined {
  if ("properties" in s || "additionalProperties" in s || "required" in s) return "object";
  if ("items" in s || "minItems" in s || "maxItems" in s) return "array";
  if ("minLength" in s || "maxLength" in s || "pattern" in s || "format" in s) return "string";
  if ("minimum" in s || "maximum" in s || "multipleOf" in s || "exclusiveMinimum" in s || "exclusiveMaximum" in s) return "number";
  return undefined;
}

function fromObject(s: Record<string, unknown>, at: string, ctx: Ctx, refName?: string): FormNode {
  const unsupported = UNSUPPORTED_KEYWORDS.find((k) => k in s);
  if (unsupported) return { ...baseOf(s, at, refName, false), kind: "json", reason: `the form cannot express "${unsupported}"` };

  const declared = declaredTypes(s);
  const nullable = s.nullable === true || (declared?.includes("null") ?? false);
  const base = baseOf(s, at, refName, nullable);

  if ("const" in s) return { ...base, kind: "const", value: s.const };
  if (Array.isArray(s.enum)) return enumNode(base, s.enum, s.enumNames);
  const titled = constOptions(s.oneOf) ?? constOptions(s.anyOf);
  if (titled) return { ...base, kind: "enum", options: titled };

  for (const keyword of ["oneOf", "anyOf"] as const) {
    const list = s[keyword];
    if (!Array.isArray(list)) continue;
    if (list.length === 0) return { ...base, kind: "json", reason: `"${keyword}" lists no schema` };
    // Siblings besides annotations would have to hold in every branch: more than a chooser can say.
    const extra = Object.keys(s).find((k) => k !== keyword && !BRANCH_SIBLINGS.has(k));
    if (extra) return { ...base, kind: "json", reason: `"${keyword}" together with "${extra}"` };
    const branches = list.map((branch, i) => {
      const node = nodeFor(branch, `${at}/${keyword}/${i}`, ctx);
      return { label: branchLabel(branch, node, i), node };
    });
    return { ...base, kind: "choice", keyword, branches };
  }

  const types = (declared ?? [impliedType(s)].filter((t): t is string => t !== undefined)).filter((t) => t !== "null");
  const unknownType = types.find((t) => !TYPES.includes(t));
  if (unknownType) return { ...base, kind: "json", reason: `unknown type "${unknownType}"` };
  if (types.length === 0) return declared?.includes("null") ? { ...base, kind: "null" } : { ...base, kind: "json", reason: "" };
  if (types.length > 1) {
    // `type: ["string","number"]`: one branch per type, each with the schema's other keywords.
    const branches = types.map((type) => ({ label: type, node: typed(s, type, { ...base, nullable: false }, at, ctx) }));
    return { ...base, kind: "choice", keyword: "type", branches };
  }
  return typed(s, types[0], base, at, ctx);
}

/**
 * Keywords that may sit beside `oneOf`/`anyOf` without changing what the branches accept (a `type` there is one the
 * branches repeat in practice; ajv still checks it).
 */
const BRANCH_SIBLINGS = new Set([
  "type",
  "title",
  "description",
  "default",
  "examples",
  "$comment",
  "deprecated",
  "nullable",
  "$defs",
  "definitions",
  "$schema",
  "$id",
]);

function typed(s: Record<string, unknown>, type: string, base: NodeBase, at: string, ctx: Ctx): FormNode {
  switch (type) {
    case "string": {
      const format = str(s.format);
      const inputType = (format && INPUT_TYPES[format]) || "text";
      return {
        ...base,
        kind: "string",
        inputType,
        ...opt("format", format),
        ...opt("formatNote", format && !INPUT_TYPES[format] ? `format: ${format}` : undefined),
        ...opt("minLength", num(s.minLength)),
        ...opt("maxLength", num(s.maxLength)),
        ...opt("pattern", str(s.pattern)),
      };
    }
    case "number":
    case "integer":
      return {
        ...base,
        kind: "number",
        integer: type === "integer",
        ...opt("minimum", num(s.minimum)),
        ...opt("maximum", num(s.maximum)),
        ...opt("exclusiveMinimum", num(s.exclusiveMinimum)),
        ...opt("exclusiveMaximum", num(s.exclusiveMaximum)),
        ...opt("multipleOf", num(s.multipleOf)),
      };
    case "boolean":
      return { ...base, kind: "boolean", explicit: false };
    case "object":
      return objectNode(s, base, at, ctx);
    case "array":
      return arrayNode(s, base, at, ctx);
    default:
      return { ...base, kind: "null" };
  }
}

function objectNode(s: Record<string, unknown>, base: NodeBase, at: string, ctx: Ctx): FormNode {
  const props = isObject(s.properties) ? s.properties : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
  const properties = Object.entries(props).map(([name, schema]) => {
    const node = nodeFor(schema, `${at}/properties/${escapeToken(name)}`, ctx);
    const isRequired = required.has(name);
    // A required boolean with no default must be answered: an unticked box would silently mean "false".
    const answered = node.kind === "boolean" && isRequired && !node.hasDefault ? { ...node, explicit: true } : node;
    return { name, required: isRequired, node: answered };
  });
  // A required key without a property schema still has to be given: a JSON field for it.
  for (const name of required)
    if (!(name in props))
      properties.push({ name, required: true, node: jsonNode(`${at}/required`, "required, but the schema does not describe it") });
  const ap = s.additionalProperties;
  const additional: FormNode | "forbidden" | "any" =
    ap === false ? "forbidden" : ap === undefined || ap === true ? "any" : nodeFor(ap, `${at}/additionalProperties`, ctx);
  return { ...base, kind: "object", properties, additional };
}

function arrayNode(s: Record<string, unknown>, base: NodeBase, at: string, ctx: Ctx): FormNode {
  if (Array.isArray(s.items)) return { ...base, kind: "json", reason: "a tuple (an items list) is edited as JSON" };
  const minItems = num(s.minItems);
  const maxItems = num(s.maxItems);
  const items = s.items === undefined ? jsonNode(`${at}/items`, "") : nodeFor(s.items, `${at}/items`, ctx);
  if (items.kind === "enum" && !items.nullable)
    return { ...base, kind: "multiselect", options: items.options, ...opt("minItems", minItems), ...opt("maxItems", maxItems) };
  return { ...base, kind: "array", items, ...opt("minItems", minItems), ...opt("maxItems", maxItems) };
}

function enumNode(base: NodeBase, values: unknown[], names: unknown): FormNode {
  const labels = Array.isArray(names) ? names : [];
  const options = values.map((value, i) => ({ value, label: shown(labels[i]) ?? scalarLabel(value) }));
  return { ...base, kind: "enum", options };
}

/** Options of a list of `{const, title?}` schemas (titled choices), or undefined when the list is anything else. */
function constOptions(list: unknown): EnumOption[] | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: EnumOption[] = [];
  for (const item of list) {
    if (!isObject(item) || !("const" in item) || Object.keys(item).some((k) => !["const", "title", "description"].includes(k)))
      return undefined;
    out.push({ value: item.const, label: shown(item.title) ?? scalarLabel(item.const) });
  }
  return out;
}

/** A branch's label: its title, else its `$ref` name, else what it is (a const, a type). */
function branchLabel(schema: unknown, node: FormNode, index: number): string {
  if (node.title) return node.title;
  if (node.refName) return visibleText(node.refName);
  if (isObject(schema) && typeof schema.title === "string") return visibleText(schema.title);
  if (node.kind === "const") return scalarLabel(node.value);
  const kindName: Partial<Record<FormNode["kind"], string>> = {
    string: "string",
    boolean: "boolean",
    null: "null",
    object: "object",
    array: "array",
    enum: "one of a list",
    multiselect: "a list of choices",
  };
  if (node.kind === "number") return node.integer ? "integer" : "number";
  if (node.kind === "object") {
    const names = node.properties.map((p) => p.name);
    if (names.length > 0) return `object (${names.slice(0, 3).join(", ")}${names.length > 3 ? ", …" : ""})`;
  }
  return kindName[node.kind] ?? `option ${index + 1}`;
}
