/**
 * inputSchema (or outputSchema) → a tree of parameter rows for the docs. Pure and bounded:
 * a hostile schema yields at most MAX_ROWS rows nested at most MAX_DEPTH deep, with `truncated` set.
 */
import { isObject } from "../json/guards.ts";
import { appendPointer, unescapeToken } from "../json/pointer.ts";
import { deref, type Deref, type JsonSchema, type RefTrail } from "../schema/ref.ts";
import { isGeneratorBound } from "../json/schema-bounds.ts";
import { previewJson } from "../json/preview.ts";

/** Hard cap on rows per tree. */
export const MAX_ROWS = 2000;
/** Hard cap on nesting depth (root properties are depth 1). */
export const MAX_DEPTH = 12;
/** Enum values kept per row; the rest are dropped with `enumTruncated`. */
export const MAX_ENUM = 200;
/** Path token for "any element" of an array (as in JSON Patch's `-`). */
export const ITEM_TOKEN = "-";
/** Path token for "any other key" of an object (additionalProperties / patternProperties). */
export const ANY_KEY_TOKEN = "*";
/** Characters of a `const` value shown in a type label or branch name (longer ones are cut with an ellipsis). */
const CONST_PREVIEW_CHARS = 60;

export type AlternativeKind = "oneOf" | "anyOf" | "allOf" | "if" | "then" | "else";

/** One branch of a oneOf/anyOf/allOf/if-then-else, as a labelled group of rows. */
export interface Alternative {
  label: string;
  kind: AlternativeKind;
  rows: ParamRow[];
}

/** How a row relates to its parent. */
export type RowRole = "property" | "items" | "tuple-item" | "additional" | "pattern" | "branch" | "root";

export interface ParamRow {
  name: string;
  /** JSON pointer into the arguments; array elements use {@link ITEM_TOKEN}, other keys {@link ANY_KEY_TOKEN}. */
  path: string;
  role: RowRole;
  /** e.g. "string", "integer | string", `const "a"`, "array<string>", "object", "oneOf". */
  type: string;
  required: boolean;
  title?: string;
  description?: string;
  enum?: unknown[];
  enumTruncated?: boolean;
  const?: unknown;
  /** Set only when the schema has a `default` (which may be null). */
  default?: unknown;
  hasDefault?: boolean;
  format?: string;
  /** Human-readable constraints, e.g. "≥ 1", "length 1–200", "pattern ^a", "1–5 items", "unique items". */
  constraints: string[];
  examples?: unknown[];
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** The raw `x-mcp-header` value, not validated here. */
  xMcpHeader?: string;
  nullable?: boolean;
  /** For object rows: what happens to keys not listed in properties. */
  additionalProperties?: "forbidden" | "allowed" | "schema";
  children: ParamRow[];
  alternatives?: Alternative[];
  /** Name of the `$defs` entry this row was resolved from. */
  refName?: string;
  /** Set when expanding this row would loop: the ref that is already being expanded. */
  cycleRef?: string;
  /** A non-local `$ref`, never fetched. */
  externalRef?: string;
  /** A local `$ref` that points nowhere. */
  missingRef?: string;
  /** Children were not expanded (depth or row cap). */
  truncated?: boolean;
}

export interface ParamTree {
  /** The top-level rows: the root's properties, or a single "value" row for a non-object root. */
  rows: ParamRow[];
  /** True when the root is an object with no properties, no alternatives and no extra-key schema. */
  noParameters: boolean;
  rootType: string;
  rootDescription?: string;
  rootRefName?: string;
  /** Root-level oneOf/anyOf/allOf/if-then-else. */
  rootAlternatives?: Alternative[];
  /** For an object root: whether keys beyond `properties` are accepted. */
  additionalProperties?: "forbidden" | "allowed" | "schema";
  /** The root does not declare `type: "object"` (tools/list requires it for inputSchema). */
  rootNotObject: boolean;
  rootCycleRef?: string;
  rootExternalRef?: string;
  rootMissingRef?: string;
  truncated: boolean;
  rowCount: number;
}

export interface ParamTreeOptions {
  maxRows?: number;
  maxDepth?: number;
}

interface Ctx {
  root: unknown;
  count: number;
  truncated: boolean;
  maxRows: number;
  maxDepth: number;
}

const COMPOSITIONS = ["oneOf", "anyOf", "allOf"] as const;

/** Build the parameter tree of a schema. Never throws, never fetches. */
export function buildParamTree(schema: unknown, options: ParamTreeOptions = {}): ParamTree {
  const ctx: Ctx = {
    root: schema,
    count: 0,
    truncated: false,
    maxRows: options.maxRows ?? MAX_ROWS,
    maxDepth: options.maxDepth ?? MAX_DEPTH,
  };
  const d = deref(schema, schema, []);
  const tree: ParamTree = { rows: [], noParameters: false, rootType: "any", rootNotObject: true, truncated: false, rowCount: 0 };
  if (!("schema" in d)) {
    if ("cycle" in d) tree.rootCycleRef = d.cycle;
    if ("external" in d) tree.rootExternalRef = d.external;
    if ("missing" in d) tree.rootMissingRef = d.missing;
    tree.rootType = "$ref";
    return tree;
  }
  const root = d.schema;
  tree.rootRefName = d.refName;
  tree.rootType = typeString(ctx, root, d.trail, 0);
  const declaredObject = isObject(root) && (root.type === "object" || (Array.isArray(root.type) && root.type.includes("object")));
  tree.rootNotObject = !(isObject(root) && root.type === "object");
  if (isObject(root) && typeof root.description === "string") tree.rootDescription = root.description;

  if (isObject(root) && (declaredObject || looksLikeObject(root))) {
    const holder = blankRow("", "", "root");
    expandObject(ctx, holder, root, "", 0, d.trail);
    expandAlternatives(ctx, holder, root, "", 0, d.trail);
    tree.rows = holder.children;
    tree.rootAlternatives = holder.alternatives;
    tree.additionalProperties = holder.additionalProperties;
    tree.noParameters = tree.rows.length === 0 && !tree.rootAlternatives;
  } else if (
    root === true ||
    (isObject(root) && Object.keys(root).every((k) => k.startsWith("$") || k === "description" || k === "title"))
  ) {
    // `{}` / `true`: anything goes, which for tool arguments means "no declared parameters".
    tree.noParameters = true;
    tree.additionalProperties = "allowed";
  } else {
    const row = makeRow(ctx, "value", "", root, true, 0, d.trail, "root");
    if (row) tree.rows = [row];
  }
  tree.truncated = ctx.truncated;
  tree.rowCount = ctx.count;
  return tree;
}

function looksLikeObject(s: Record<string, unknown>): boolean {
  return (
    s.type === undefined &&
    (isObject(s.properties) || s.additionalProperties !== undefined || Array.isArray(s.required) || isObject(s.patternProperties))
  );
}

function blankRow(name: string, path: string, role: RowRole): ParamRow {
  return { name, path, role, type: "any", required: false, constraints: [], children: [] };
}

function refLeaf(ref: string): string {
  const last = ref.split("/").pop() ?? ref;
  return unescapeToken(last).replace(/^#/, "") || ref;
}

function makeRow(
  ctx: Ctx,
  name: string,
  path: string,
  input: unknown,
  required: boolean,
  depth: number,
  trail: RefTrail,
  role: RowRole,
): ParamRow | undefined {
  if (ctx.count >= ctx.maxRows) {
    ctx.truncated = true;
    return undefined;
  }
  ctx.count++;
  const row = blankRow(name, path, role);
  row.required = required;
  const d: Deref = deref(ctx.root, input, trail);
  if ("cycle" in d) {
    row.cycleRef = d.cycle;
    row.refName = refLeaf(d.cycle);
    row.type = row.refName;
    copyAnnotations(row, input);
    return row;
  }
  if ("external" in d) {
    row.externalRef = d.external;
    row.type = "external $ref";
    copyAnnotations(row, input);
    return row;
  }
  if ("missing" in d) {
    row.missingRef = d.missing;
    row.type = "unresolved $ref";
    copyAnnotations(row, input);
    return row;
  }
  const schema = d.schema;
  if (d.refName) row.refName = d.refName;
  row.type = typeString(ctx, schema, d.trail, 0);
  if (schema === false) row.constraints.push("must be absent");
  if (!isObject(schema)) return row;
  copyAnnotations(row, schema);
  row.constraints.push(...constraintsOf(schema));
  if (Array.isArray(schema.type) && schema.type.includes("null")) row.nullable = true;
  if (depth + 1 > ctx.maxDepth) {
    if (hasStructure(schema)) {
      row.truncated = true;
      ctx.truncated = true;
    }
    return row;
  }
  expandObject(ctx, row, schema, path, depth, d.trail);
  expandArray(ctx, row, schema, path, depth, d.trail);
  expandAlternatives(ctx, row, schema, path, depth, d.trail);
  return row;
}

function hasStructure(s: Record<string, unknown>): boolean {
  return ["properties", "items", "prefixItems", "additionalProperties", "patternProperties", ...COMPOSITIONS, "if"].some(
    (k) => s[k] !== undefined && s[k] !== false && s[k] !== true,
  );
}

function copyAnnotations(row: ParamRow, input: unknown): void {
  if (!isObject(input)) return;
  if (typeof input.title === "string") row.title = input.title;
  if (typeof input.description === "string") row.description = input.description;
  if (Array.isArray(input.enum)) {
    row.enum = input.enum.slice(0, MAX_ENUM);
    if (input.enum.length > MAX_ENUM) row.enumTruncated = true;
  }
  if ("const" in input) row.const = input.const;
  if ("default" in input) {
    row.default = input.default;
    row.hasDefault = true;
  }
  if (typeof input.format === "string") row.format = input.format;
  if (Array.isArray(input.examples)) row.examples = input.examples.slice(0, 20);
  else if ("example" in input) row.examples = [input.example];
  if (input.deprecated === true) row.deprecated = true;
  if (input.readOnly === true) row.readOnly = true;
  if (input.writeOnly === true) row.writeOnly = true;
  const header = input["x-mcp-header"];
  if (header !== undefined) row.xMcpHeader = typeof header === "string" ? header : JSON.stringify(header);
}

function expandObject(ctx: Ctx, row: ParamRow, schema: Record<string, unknown>, path: string, depth: number, trail: RefTrail): void {
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [];
  const isObj = schema.type === "object" || (Array.isArray(schema.type) && schema.type.includes("object")) || looksLikeObject(schema);
  if (isObject(schema.properties)) {
    for (const [key, sub] of Object.entries(schema.properties)) {
      const child = makeRow(ctx, key, appendPointer(path, key), sub, required.includes(key), depth + 1, trail, "property");
      if (!child) return;
      row.children.push(child);
    }
  }
  if (isObject(schema.patternProperties)) {
    for (const [pattern, sub] of Object.entries(schema.patternProperties)) {
      const child = makeRow(ctx, `/${pattern}/`, appendPointer(path, ANY_KEY_TOKEN), sub, false, depth + 1, trail, "pattern");
      if (!child) return;
      child.constraints.unshift(`key matches ${pattern}`);
      row.children.push(child);
    }
  }
  if (!isObj) return;
  const ap = schema.additionalProperties ?? schema.unevaluatedProperties;
  if (ap === false) {
    row.additionalProperties = "forbidden";
    if (row.role !== "root") row.constraints.push("no other properties");
  } else if (isObject(ap) && Object.keys(ap).length > 0) {
    row.additionalProperties = "schema";
    const child = makeRow(ctx, ANY_KEY_TOKEN, appendPointer(path, ANY_KEY_TOKEN), ap, false, depth + 1, trail, "additional");
    if (child) {
      child.description ??= "Any other property.";
      row.children.push(child);
    }
  } else {
    row.additionalProperties = "allowed";
  }
}

function expandArray(ctx: Ctx, row: ParamRow, schema: Record<string, unknown>, path: string, depth: number, trail: RefTrail): void {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) {
    for (let i = 0; i < tuple.length; i++) {
      const child = makeRow(ctx, `[${i}]`, appendPointer(path, i), tuple[i], true, depth + 1, trail, "tuple-item");
      if (!child) return;
      row.children.push(child);
    }
  }
  const items = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  if (items === undefined || items === true) return;
  if (items === false) {
    if (tuple) row.constraints.push("no extra items");
    return;
  }
  const itemPath = appendPointer(path, ITEM_TOKEN);
  const d = deref(ctx.root, items, trail);
  // An array of plain objects reads best with the element's properties directly under the array.
  if ("schema" in d && isObject(d.schema) && isObject(d.schema.properties) && !hasAlternatives(d.schema) && !d.schema.description) {
    if (d.refName) row.refName ??= d.refName;
    const holder = blankRow(row.name, itemPath, "items");
    expandObject(ctx, holder, d.schema, itemPath, depth, d.trail);
    row.children.push(...holder.children);
    if (holder.additionalProperties === "forbidden") row.constraints.push("items: no other properties");
    return;
  }
  if ("schema" in d && isObject(d.schema) && Object.keys(d.schema).every((k) => k === "type" || k === "title") && !("schema" in d && d.ref))
    return;
  const child = makeRow(ctx, "items", itemPath, items, false, depth + 1, trail, "items");
  if (child) row.children.push(child);
}

function hasAlternatives(s: Record<string, unknown>): boolean {
  return COMPOSITIONS.some((k) => Array.isArray(s[k])) || s.if !== undefined;
}

/** A oneOf/anyOf branch that says nothing beyond its type: summarised in the type string instead. */
function isTrivialBranch(ctx: Ctx, branch: unknown, trail: RefTrail): boolean {
  const d = deref(ctx.root, branch, trail);
  return (
    "schema" in d &&
    !d.ref &&
    isObject(d.schema) &&
    Object.keys(d.schema).length > 0 &&
    Object.keys(d.schema).every((k) => k === "type" || k === "const") &&
    (typeof d.schema.type === "string" || "const" in d.schema)
  );
}

function expandAlternatives(ctx: Ctx, row: ParamRow, schema: Record<string, unknown>, path: string, depth: number, trail: RefTrail): void {
  const groups: Alternative[] = [];
  for (const kind of COMPOSITIONS) {
    const branches = schema[kind];
    if (!Array.isArray(branches)) continue;
    if (kind !== "allOf" && branches.every((b) => isTrivialBranch(ctx, b, trail))) continue;
    for (let i = 0; i < branches.length; i++) {
      if (ctx.count >= ctx.maxRows) {
        ctx.truncated = true;
        break;
      }
      const prefix = kind === "allOf" ? `Part ${i + 1}` : `Option ${i + 1}`;
      groups.push({
        kind,
        label: `${prefix}: ${branchName(ctx, branches[i], trail)}`,
        rows: branchRows(ctx, branches[i], path, depth, trail),
      });
    }
  }
  if (schema.if !== undefined) {
    groups.push({ kind: "if", label: `If: ${branchName(ctx, schema.if, trail)}`, rows: branchRows(ctx, schema.if, path, depth, trail) });
    if (schema.then !== undefined) groups.push({ kind: "then", label: "Then", rows: branchRows(ctx, schema.then, path, depth, trail) });
    if (schema.else !== undefined) groups.push({ kind: "else", label: "Else", rows: branchRows(ctx, schema.else, path, depth, trail) });
  }
  if (groups.length > 0) row.alternatives = groups;
}

function branchName(ctx: Ctx, branch: unknown, trail: RefTrail): string {
  const d = deref(ctx.root, branch, trail);
  if ("cycle" in d) return refLeaf(d.cycle);
  if ("external" in d) return d.external;
  if ("missing" in d) return refLeaf(d.missing);
  if (isObject(d.schema) && typeof d.schema.title === "string" && d.schema.title.trim()) return d.schema.title.trim();
  if (d.refName) return d.refName;
  // A discriminated union names itself by its const property, e.g. kind = "circle".
  if (isObject(d.schema) && isObject(d.schema.properties)) {
    for (const [key, sub] of Object.entries(d.schema.properties)) {
      if (isObject(sub) && "const" in sub) return `${key} = ${previewJson(sub.const, CONST_PREVIEW_CHARS)}`;
    }
  }
  return typeString(ctx, d.schema, d.trail, 0);
}

function branchRows(ctx: Ctx, branch: unknown, path: string, depth: number, trail: RefTrail): ParamRow[] {
  if (depth + 1 > ctx.maxDepth) {
    ctx.truncated = true;
    return [];
  }
  const d = deref(ctx.root, branch, trail);
  if ("schema" in d && isObject(d.schema) && (isObject(d.schema.properties) || Array.isArray(d.schema.required)) && !d.schema.items) {
    const holder = blankRow("", path, "branch");
    expandObject(ctx, holder, d.schema, path, depth, d.trail);
    // Branches often only add `required: [...]` for keys declared above: show them as required names.
    if (holder.children.length === 0 && Array.isArray(d.schema.required)) {
      for (const key of d.schema.required) {
        if (typeof key !== "string") continue;
        const child = makeRow(ctx, key, appendPointer(path, key), true, true, depth + 1, d.trail, "property");
        if (!child) break;
        child.type = "(see above)";
        holder.children.push(child);
      }
    }
    expandAlternatives(ctx, holder, d.schema, path, depth, d.trail);
    const rows = holder.children;
    if (holder.alternatives) {
      // Nested alternatives hang off one synthetic row so groups stay groups.
      const nested = blankRow("(alternatives)", path, "branch");
      nested.type = "alternatives";
      nested.alternatives = holder.alternatives;
      ctx.count++;
      rows.push(nested);
    }
    return rows;
  }
  const row = makeRow(ctx, "value", path, branch, false, depth + 1, trail, "branch");
  return row ? [row] : [];
}

function typeOfValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/** A compact type label for a schema. Bounded: nested array item labels stop at 3 levels. */
function typeString(ctx: Ctx, schema: JsonSchema, trail: RefTrail, level: number): string {
  if (schema === true) return "any";
  if (schema === false) return "never";
  if ("const" in schema) return `const ${previewJson(schema.const, CONST_PREVIEW_CHARS)}`;
  let types: string[] = [];
  if (typeof schema.type === "string") types = [schema.type];
  else if (Array.isArray(schema.type)) types = schema.type.filter((t): t is string => typeof t === "string");
  if (types.length === 0) {
    if (Array.isArray(schema.enum) && schema.enum.length > 0) types = [...new Set(schema.enum.slice(0, MAX_ENUM).map(typeOfValue))];
    else if (isObject(schema.properties) || isObject(schema.additionalProperties) || isObject(schema.patternProperties)) types = ["object"];
    else if (schema.items !== undefined || Array.isArray(schema.prefixItems)) types = ["array"];
    else {
      for (const kind of ["oneOf", "anyOf"] as const) {
        const branches = schema[kind];
        if (!Array.isArray(branches)) continue;
        if (branches.length > 0 && branches.every((b) => isTrivialBranch(ctx, b, trail))) {
          return [...new Set(branches.map((b) => typeString(ctx, b as JsonSchema, trail, level + 1)))].join(" | ");
        }
        return kind;
      }
      if (Array.isArray(schema.allOf)) return "allOf";
      if (schema.if !== undefined) return "if/then/else";
      return "any";
    }
  }
  return types.map((t) => (t === "array" ? arrayLabel(ctx, schema, trail, level) : t)).join(" | ");
}

function arrayLabel(ctx: Ctx, schema: Record<string, unknown>, trail: RefTrail, level: number): string {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple)
    return level >= 3
      ? "tuple"
      : `tuple [${tuple
          .slice(0, 8)
          .map((s) => itemLabel(ctx, s, trail, level))
          .join(", ")}${tuple.length > 8 ? ", …" : ""}]`;
  if (schema.items === undefined || schema.items === true) return "array";
  return level >= 3 ? "array" : `array<${itemLabel(ctx, schema.items, trail, level)}>`;
}

function itemLabel(ctx: Ctx, item: unknown, trail: RefTrail, level: number): string {
  const d = deref(ctx.root, item, trail);
  if ("cycle" in d) return refLeaf(d.cycle);
  if ("external" in d) return "external";
  if ("missing" in d) return "unresolved";
  if (d.refName) return d.refName;
  return typeString(ctx, d.schema, d.trail, level + 1);
}

function num(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

function range(min: unknown, max: unknown, unit: (n: number) => string, bare = false): string | undefined {
  const lo = num(min) ? min : undefined;
  const hi = num(max) ? max : undefined;
  if (lo === undefined && hi === undefined) return undefined;
  if (lo !== undefined && hi !== undefined) return lo === hi ? `${bare ? "" : "exactly "}${unit(lo)}` : `${lo}–${unit(hi)}`;
  if (lo !== undefined) return `at least ${unit(lo)}`;
  return `at most ${unit(hi!)}`;
}

/** Human-readable constraints of one schema node (not recursing). */
export function constraintsOf(s: Record<string, unknown>): string[] {
  const out: string[] = [];
  // Draft-04 booleans: exclusiveMinimum: true makes `minimum` exclusive. A generator's ±(2^53−1) is not shown.
  if (num(s.minimum) && !isGeneratorBound(s.minimum)) out.push(s.exclusiveMinimum === true ? `> ${s.minimum}` : `≥ ${s.minimum}`);
  if (num(s.exclusiveMinimum)) out.push(`> ${s.exclusiveMinimum}`);
  if (num(s.maximum) && !isGeneratorBound(s.maximum)) out.push(s.exclusiveMaximum === true ? `< ${s.maximum}` : `≤ ${s.maximum}`);
  if (num(s.exclusiveMaximum)) out.push(`< ${s.exclusiveMaximum}`);
  if (num(s.multipleOf)) out.push(`multiple of ${s.multipleOf}`);
  if (num(s.minLength) || num(s.maxLength)) {
    const lo = num(s.minLength) ? s.minLength : undefined;
    const hi = num(s.maxLength) ? s.maxLength : undefined;
    if (lo !== undefined && hi !== undefined) out.push(lo === hi ? `length ${lo}` : `length ${lo}–${hi}`);
    else if (lo !== undefined) out.push(`length ≥ ${lo}`);
    else out.push(`length ≤ ${hi}`);
  }
  if (typeof s.pattern === "string") out.push(`pattern ${s.pattern}`);
  const items = range(s.minItems, s.maxItems, (n) => `${n} item${n === 1 ? "" : "s"}`);
  if (items) out.push(items);
  if (s.uniqueItems === true) out.push("unique items");
  if (s.contains !== undefined) {
    const c = range(s.minContains, s.maxContains, (n) => `${n}`);
    out.push(c ? `contains a matching item (${c})` : "contains a matching item");
  }
  const props = range(s.minProperties, s.maxProperties, (n) => `${n} propert${n === 1 ? "y" : "ies"}`);
  if (props) out.push(props);
  if (isObject(s.propertyNames) && typeof s.propertyNames.pattern === "string") out.push(`keys match ${s.propertyNames.pattern}`);
  if (isObject(s.dependentRequired)) {
    for (const [key, deps] of Object.entries(s.dependentRequired)) {
      if (Array.isArray(deps) && deps.length > 0) out.push(`with ${key}: requires ${deps.join(", ")}`);
    }
  }
  if (typeof s.contentMediaType === "string") out.push(`media type ${s.contentMediaType}`);
  if (typeof s.contentEncoding === "string") out.push(`encoding ${s.contentEncoding}`);
  if (s.not !== undefined) out.push("must not match a sub-schema");
  return out;
}

/** Visit every row (depth first, alternatives included). */
export function walkRows(rows: ParamRow[], visit: (row: ParamRow, depth: number) => void, depth = 0): void {
  for (const row of rows) {
    visit(row, depth);
    walkRows(row.children, visit, depth + 1);
    for (const alt of row.alternatives ?? []) walkRows(alt.rows, visit, depth + 1);
  }
}
