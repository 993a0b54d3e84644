/**
 * Compare two tool lists (e.g. two snapshots, or a snapshot and the live server) and classify each change.
 * Pure and bounded. Variance decides the class: arguments flow client → server, so a schema that now accepts
 * less (narrower type or enum, new required parameter, fewer keys) breaks callers; results flow server → client,
 * so an output that now promises less (a field removed, a wider type or enum) breaks readers.
 */
import type { Tool } from "../mcp/contract.ts";
import { effectiveHints } from "./annotations.ts";
import { isObject } from "../json/guards.ts";
import { deref, type RefTrail } from "../schema/ref.ts";
import { canonicalJson } from "../json/canonical.ts";

/** What a change means for callers (a lint finding's severity is `Severity` in lints.ts). */
export type ChangeSeverity = "breaking" | "compatible" | "info";
/** What a change is about: the input schema, the output schema, the behaviour hints, or the human text. */
export type ChangeArea = "input" | "output" | "annotations" | "text";

export interface Change {
  severity: ChangeSeverity;
  area: ChangeArea;
  /** The parameter or field, dotted (`filters.status`, `labels[]`); "" for the tool or the schema root. */
  path: string;
  message: string;
  /** For text changes: the old and new text (shortened). */
  before?: string;
  after?: string;
}

export interface ToolChange {
  name: string;
  /** The worst severity among the changes. */
  severity: ChangeSeverity;
  /** Breaking first, then compatible, then informational. */
  changes: Change[];
}

export interface ToolListDiff {
  added: Tool[];
  removed: Tool[];
  /** Changed tools, those with breaking changes first. */
  changed: ToolChange[];
  unchanged: string[];
  /** Changes by severity; an added tool counts as compatible, a removed one as breaking. */
  counts: Record<ChangeSeverity, number>;
  /** True when nothing at all differs. */
  identical: boolean;
}

/** Deepest schema nesting compared; deeper differences are reported once, unclassified. */
export const MAX_DIFF_DEPTH = 12;
/** Text kept per side of a text change. */
export const MAX_TEXT_CHARS = 300;

const RANK: Record<ChangeSeverity, number> = { breaking: 0, compatible: 1, info: 2 };
type Dir = "input" | "output";

/** Canonical JSON for comparing and quoting values; an absent value reads "undefined" (so it differs from null). */
function json(value: unknown): string {
  return value === undefined ? "undefined" : canonicalJson(value);
}

function short(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS - 1)}…` : text;
}

function label(path: string): string {
  return path === "" ? "the arguments object" : `\`${path}\``;
}

function fieldLabel(path: string, dir: Dir): string {
  return path === "" ? (dir === "input" ? "the arguments object" : "the structured result") : `\`${path}\``;
}

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

/** The JSON types a schema allows, by `type` (or inferred from const/enum); all types when unconstrained. */
function typesOf(s: Record<string, unknown>): Set<string> {
  if (typeof s.type === "string") return new Set([s.type]);
  if (Array.isArray(s.type)) return new Set(s.type.filter((t): t is string => typeof t === "string"));
  return new Set(ALL_TYPES);
}

function accepts(types: Set<string>, t: string): boolean {
  return types.has(t) || (t === "integer" && types.has("number"));
}

/** "wider" when b accepts every type of a and more; "narrower" the other way; "other" when neither; "same". */
function compareTypes(a: Set<string>, b: Set<string>): "same" | "wider" | "narrower" | "other" {
  const aInB = [...a].every((t) => accepts(b, t));
  const bInA = [...b].every((t) => accepts(a, t));
  if (aInB && bInA) return "same";
  if (aInB) return "wider";
  if (bInA) return "narrower";
  return "other";
}

function typeText(s: Record<string, unknown>): string {
  const t = typesOf(s);
  return t.size === ALL_TYPES.length ? "any" : [...t].join(" | ");
}

/** Allowed values (enum, or const as a one-value enum) as canonical JSON, or undefined when unrestricted. */
function valuesOf(s: Record<string, unknown>): string[] | undefined {
  if ("const" in s) return [json(s.const)];
  if (Array.isArray(s.enum)) return s.enum.map(json);
  return undefined;
}

function listValues(values: string[]): string {
  const shown = values.slice(0, 5).join(", ");
  return values.length > 5 ? `${shown} and ${values.length - 5} more` : shown;
}

function requiredOf(s: Record<string, unknown>): Set<string> {
  return new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);
}

function extraKeys(s: Record<string, unknown>): "forbidden" | "allowed" {
  return s.additionalProperties === false || s.unevaluatedProperties === false ? "forbidden" : "allowed";
}

function isObjectSchema(s: Record<string, unknown>): boolean {
  return typesOf(s).has("object") || isObject(s.properties);
}

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;

interface Side {
  root: unknown;
  schema: unknown;
  trail: RefTrail;
}

class SchemaDiff {
  readonly changes: Change[] = [];
  constructor(
    readonly dir: Dir,
    readonly area: ChangeArea,
  ) {}

  add(severity: ChangeSeverity, path: string, message: string): void {
    this.changes.push({ severity, area: this.area, path, message });
  }

  /** Severity for a change that makes the schema accept more values. */
  get widened(): ChangeSeverity {
    return this.dir === "input" ? "compatible" : "breaking";
  }

  /** Severity for a change that makes the schema accept fewer values. */
  get narrowed(): ChangeSeverity {
    return this.dir === "input" ? "breaking" : "compatible";
  }

  compare(a: Side, b: Side, path: string, depth: number): void {
    const da = deref(a.root, a.schema, a.trail);
    const db = deref(b.root, b.schema, b.trail);
    if (!("schema" in da) || !("schema" in db)) {
      if (json(da) !== json(db))
        this.add("breaking", path, `The reference at ${label(path)} changed in a way that cannot be compared; review it.`);
      return;
    }
    if (json(da.schema) === json(db.schema)) return;
    if (depth > MAX_DIFF_DEPTH) {
      this.add("info", path, `Nested deeper than ${MAX_DIFF_DEPTH} levels: changes here were not classified.`);
      return;
    }
    const sa: Record<string, unknown> = da.schema === true ? {} : da.schema === false ? { not: {} } : da.schema;
    const sb: Record<string, unknown> = db.schema === true ? {} : db.schema === false ? { not: {} } : db.schema;
    const before = this.changes.length;

    const types = compareTypes(typesOf(sa), typesOf(sb));
    if (types === "wider") this.add(this.widened, path, `Type of ${label(path)} widened: ${typeText(sa)} → ${typeText(sb)}.`);
    else if (types === "narrower") this.add(this.narrowed, path, `Type of ${label(path)} narrowed: ${typeText(sa)} → ${typeText(sb)}.`);
    else if (types === "other") this.add("breaking", path, `Type of ${label(path)} changed: ${typeText(sa)} → ${typeText(sb)}.`);

    this.compareValues(sa, sb, path);
    this.compareBounds(sa, sb, path);
    this.compareText(sa, sb, path);
    if (isObjectSchema(sa) || isObjectSchema(sb))
      this.compareObject({ ...a, schema: sa, trail: da.trail }, { ...b, schema: sb, trail: db.trail }, path, depth);
    if (sa.items !== undefined || sb.items !== undefined) {
      if (isObject(sa.items) && isObject(sb.items))
        this.compare(
          { root: a.root, schema: sa.items, trail: da.trail },
          { root: b.root, schema: sb.items, trail: db.trail },
          `${path}[]`,
          depth + 1,
        );
      else if (json(sa.items) !== json(sb.items))
        this.add("breaking", `${path}[]`, `The items of ${label(path)} changed in a way that cannot be classified; review it.`);
    }
    for (const key of [
      "oneOf",
      "anyOf",
      "allOf",
      "if",
      "then",
      "else",
      "not",
      "prefixItems",
      "patternProperties",
      "dependentRequired",
      "dependentSchemas",
    ]) {
      if (json(sa[key]) !== json(sb[key]))
        this.add(
          "breaking",
          path,
          `\`${key}\` of ${label(path)} changed; Toolscope does not classify it, so treat it as breaking until reviewed.`,
        );
    }
    if (this.changes.length === before) this.add("info", path, `Other keywords of ${label(path)} changed.`);
  }

  compareValues(sa: Record<string, unknown>, sb: Record<string, unknown>, path: string): void {
    const va = valuesOf(sa);
    const vb = valuesOf(sb);
    if (va === undefined && vb === undefined) return;
    if (va === undefined) return this.add(this.narrowed, path, `${label(path)} is now restricted to ${listValues(vb!)}.`);
    if (vb === undefined) return this.add(this.widened, path, `${label(path)} is no longer restricted to a list of values.`);
    const removed = va.filter((v) => !vb.includes(v));
    const added = vb.filter((v) => !va.includes(v));
    if (removed.length > 0 && added.length > 0)
      this.add("breaking", path, `Allowed values of ${label(path)} changed: removed ${listValues(removed)}; added ${listValues(added)}.`);
    else if (removed.length > 0) this.add(this.narrowed, path, `Enum of ${label(path)} narrowed: removed ${listValues(removed)}.`);
    else if (added.length > 0) this.add(this.widened, path, `Enum of ${label(path)} widened: added ${listValues(added)}.`);
  }

  compareBounds(sa: Record<string, unknown>, sb: Record<string, unknown>, path: string): void {
    const check = (key: string, tighter: (x: number, y: number) => boolean) => {
      const x = typeof sa[key] === "number" ? (sa[key] as number) : undefined;
      const y = typeof sb[key] === "number" ? (sb[key] as number) : undefined;
      if (x === y) return;
      // For results, bounds are promises about values the client reads: only report them.
      if (this.dir === "output") return this.add("info", path, `\`${key}\` of ${label(path)}: ${x ?? "none"} → ${y ?? "none"}.`);
      if (y !== undefined && (x === undefined || tighter(x, y)))
        this.add("breaking", path, `\`${key}\` of ${label(path)} tightened: ${x ?? "none"} → ${y}.`);
      else this.add("compatible", path, `\`${key}\` of ${label(path)} relaxed: ${x} → ${y ?? "none"}.`);
    };
    for (const key of LOWER_BOUNDS) check(key, (x, y) => y > x);
    for (const key of UPPER_BOUNDS) check(key, (x, y) => y < x);
    for (const key of ["pattern", "format"]) {
      if (json(sa[key]) === json(sb[key])) continue;
      const sev: ChangeSeverity = this.dir === "output" ? "info" : sb[key] === undefined ? "compatible" : "breaking";
      this.add(
        sev,
        path,
        `\`${key}\` of ${label(path)}: ${sa[key] === undefined ? "none" : json(sa[key])} → ${sb[key] === undefined ? "none" : json(sb[key])}.`,
      );
    }
  }

  compareText(sa: Record<string, unknown>, sb: Record<string, unknown>, path: string): void {
    if (path === "") return; // the root's text is the tool's business, reported with the tool
    for (const key of ["description", "title"]) {
      if (json(sa[key]) !== json(sb[key])) this.add("info", path, `The ${key} of ${label(path)} changed.`);
    }
    if (json(sa.default) !== json(sb.default))
      this.add(
        "info",
        path,
        `Default of ${label(path)}: ${"default" in sa ? json(sa.default) : "none"} → ${"default" in sb ? json(sb.default) : "none"}.`,
      );
    if (sa.deprecated !== true && sb.deprecated === true) this.add("info", path, `${label(path)} is now deprecated.`);
  }

  compareObject(
    a: Side & { schema: Record<string, unknown> },
    b: Side & { schema: Record<string, unknown> },
    path: string,
    depth: number,
  ): void {
    const pa = isObject(a.schema.properties) ? a.schema.properties : {};
    const pb = isObject(b.schema.properties) ? b.schema.properties : {};
    const ra = requiredOf(a.schema);
    const rb = requiredOf(b.schema);
    const child = (key: string) => (path === "" ? key : `${path}.${key}`);
    const input = this.dir === "input";
    for (const key of Object.keys(pa)) {
      if (key in pb) continue;
      this.add("breaking", child(key), input ? `Parameter ${label(child(key))} removed.` : `Output field ${label(child(key))} removed.`);
    }
    for (const key of Object.keys(pb)) {
      if (key in pa) continue;
      if (!input) this.add("compatible", child(key), `New output field ${label(child(key))}${rb.has(key) ? " (always present)" : ""}.`);
      else if (rb.has(key)) this.add("breaking", child(key), `New required parameter ${label(child(key))}.`);
      else this.add("compatible", child(key), `New optional parameter ${label(child(key))}.`);
    }
    for (const key of Object.keys(pa)) {
      if (!(key in pb)) continue;
      const was = ra.has(key);
      const now = rb.has(key);
      if (!was && now)
        this.add(
          input ? "breaking" : "compatible",
          child(key),
          input ? `Parameter ${label(child(key))} became required.` : `Output field ${label(child(key))} is now always present.`,
        );
      if (was && !now)
        this.add(
          input ? "compatible" : "breaking",
          child(key),
          input ? `Parameter ${label(child(key))} became optional.` : `Output field ${label(child(key))} is no longer always present.`,
        );
      this.compare(
        { root: a.root, schema: pa[key], trail: a.trail },
        { root: b.root, schema: pb[key], trail: b.trail },
        child(key),
        depth + 1,
      );
    }
    // Required names without a declared property (allowed by JSON Schema) still constrain the arguments.
    for (const key of rb)
      if (!ra.has(key) && !(key in pb)) this.add(input ? "breaking" : "compatible", child(key), `${label(child(key))} is now required.`);
    const ea = extraKeys(a.schema);
    const eb = extraKeys(b.schema);
    if (ea === eb) {
      if (
        json(a.schema.additionalProperties) !== json(b.schema.additionalProperties) &&
        isObject(a.schema.additionalProperties) &&
        isObject(b.schema.additionalProperties)
      ) {
        this.compare(
          { root: a.root, schema: a.schema.additionalProperties, trail: a.trail },
          { root: b.root, schema: b.schema.additionalProperties, trail: b.trail },
          child("*"),
          depth + 1,
        );
      }
      return;
    }
    if (eb === "forbidden")
      this.add(
        input ? "breaking" : "compatible",
        path,
        `additionalProperties tightened: ${fieldLabel(path, this.dir)} no longer accepts keys beyond those declared.`,
      );
    else
      this.add(input ? "compatible" : "info", path, `additionalProperties relaxed: ${fieldLabel(path, this.dir)} now accepts other keys.`);
  }
}

function inputChanges(a: Tool, b: Tool): Change[] {
  const d = new SchemaDiff("input", "input");
  d.compare({ root: a.inputSchema, schema: a.inputSchema, trail: [] }, { root: b.inputSchema, schema: b.inputSchema, trail: [] }, "", 0);
  return d.changes;
}

function outputChanges(a: Tool, b: Tool): Change[] {
  const had = a.outputSchema !== undefined;
  const has = b.outputSchema !== undefined;
  if (!had && !has) return [];
  if (!had)
    return [
      {
        severity: "compatible",
        area: "output",
        path: "",
        message: "Now declares an output schema: results carry matching structuredContent.",
      },
    ];
  if (!has)
    return [
      {
        severity: "breaking",
        area: "output",
        path: "",
        message: "No longer declares an output schema: structuredContent is no longer promised.",
      },
    ];
  const d = new SchemaDiff("output", "output");
  d.compare(
    { root: a.outputSchema, schema: a.outputSchema, trail: [] },
    { root: b.outputSchema, schema: b.outputSchema, trail: [] },
    "",
    0,
  );
  return d.changes;
}

function annotationChanges(a: Tool, b: Tool): Change[] {
  const ha = effectiveHints(a);
  const hb = effectiveHints(b);
  const out: Change[] = [];
  for (let i = 0; i < ha.length; i++) {
    const x = ha[i];
    const y = hb[i];
    if (x.value !== y.value) {
      out.push({
        severity: "info",
        area: "annotations",
        path: "",
        message: `${x.key}: ${x.value} → ${y.value} (${x.label} → ${y.label}${y.source === "default" ? ", by the spec default" : ""}).`,
      });
    } else if (x.source !== y.source) {
      out.push({
        severity: "info",
        area: "annotations",
        path: "",
        message: `${x.key} is ${y.source === "set" ? "now set explicitly" : "no longer set; the spec default applies"} (still ${y.value}).`,
      });
    }
  }
  return out;
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Both texts from a little before their first difference, so a change at the end of a long text is visible. */
function excerpts(x: string, y: string): [string, string] {
  let p = 0;
  while (p < x.length && p < y.length && x[p] === y[p]) p++;
  const start = p > 80 ? p - 60 : 0;
  const cut = (t: string) => short(start > 0 ? `…${t.slice(start)}` : t);
  return [cut(x), cut(y)];
}

function textChanges(a: Tool, b: Tool): Change[] {
  const out: Change[] = [];
  const pairs: [string, string | undefined, string | undefined][] = [
    ["title", textOf(a.title), textOf(b.title)],
    ["annotations.title", textOf(a.annotations?.title), textOf(b.annotations?.title)],
    ["description", textOf(a.description), textOf(b.description)],
  ];
  for (const [key, x, y] of pairs) {
    if (x === y) continue;
    const message = x === undefined ? `The ${key} was added.` : y === undefined ? `The ${key} was removed.` : `The ${key} changed.`;
    const [before, after] = x !== undefined && y !== undefined ? excerpts(x, y) : [x && short(x), y && short(y)];
    out.push({
      severity: "info",
      area: "text",
      path: "",
      message,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    });
  }
  return out;
}

function sortChanges(changes: Change[]): Change[] {
  return changes
    .map((c, i) => ({ c, i }))
    .sort((x, y) => RANK[x.c.severity] - RANK[y.c.severity] || x.i - y.i)
    .map((x) => x.c);
}

/** Every change between two versions of one tool, breaking first. */
export function diffTool(before: Tool, after: Tool): Change[] {
  return sortChanges([
    ...inputChanges(before, after),
    ...outputChanges(before, after),
    ...annotationChanges(before, after),
    ...textChanges(before, after),
  ]);
}

function byName(tools: readonly Tool[]): Map<string, Tool> {
  const map = new Map<string, Tool>();
  for (const t of tools) if (typeof t?.name === "string" && !map.has(t.name)) map.set(t.name, t);
  return map;
}

/** Compare two tool lists by tool name. Duplicate names keep their first definition. */
export function diffToolLists(before: readonly Tool[], after: readonly Tool[]): ToolListDiff {
  const a = byName(before);
  const b = byName(after);
  const added = [...b.values()].filter((t) => !a.has(t.name));
  const removed = [...a.values()].filter((t) => !b.has(t.name));
  const changed: ToolChange[] = [];
  const unchanged: string[] = [];
  const counts: Record<ChangeSeverity, number> = { breaking: removed.length, compatible: added.length, info: 0 };
  for (const [name, ta] of a) {
    const tb = b.get(name);
    if (!tb) continue;
    if (json(ta) === json(tb)) {
      unchanged.push(name);
      continue;
    }
    const changes = diffTool(ta, tb);
    // Equal after canonicalisation of what we compare, but not byte-equal (e.g. icons, _meta): still say so.
    if (changes.length === 0)
      changes.push({
        severity: "info",
        area: "text",
        path: "",
        message: "Other fields of the definition changed (icons, _meta or extensions).",
      });
    for (const c of changes) counts[c.severity]++;
    changed.push({ name, severity: changes[0].severity, changes });
  }
  changed.sort((x, y) => RANK[x.severity] - RANK[y.severity] || x.name.localeCompare(y.name));
  return { added, removed, changed, unchanged, counts, identical: added.length === 0 && removed.length === 0 && changed.length === 0 };
}
