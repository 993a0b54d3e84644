/**
 * Warnings for a call's expectations and captures, found when the call is written rather than when it fails in CI:
 * "an expectation on a field the tool's output schema cannot have is a warning when written". Each pointer into
 * `/result/structuredContent` is walked through the called tool's `outputSchema`, and a pointer the schema rules out
 * (a property `additionalProperties: false` forbids, an item past `items: false`, a child of a string) is named with
 * what the schema does allow. Besides: pointers that are not JSON pointers, patterns that do not compile, an
 * `output-schema` expectation on a tool that declares none, `absent` on a property the schema always requires.
 *
 * Warnings, not errors: a tool's schema can be stale, and the runner judges what the server actually sends. So the
 * walk is conservative: whatever it cannot read with certainty (a `$ref` it cannot follow, `if`/`not`, a
 * `{{placeholder}}` segment, a walk past its bounds) counts as allowed, and only positive evidence gives a warning.
 * Pure: no React, no Node.
 */
import { isObject } from "../json/guards.ts";
import { buildPointer, parsePointer } from "../json/pointer.ts";
import type { Tool } from "../mcp/contract.ts";
import { isLocalRef, lookupRef } from "../schema/ref.ts";
import type { CollectionCall, Expectation } from "./format.ts";
import { placeholders } from "./substitute.ts";

export interface ExpectationWarning {
  /** Index into `call.expect`; -1 for a capture (then `capture` names it) or for the call as a whole (no `capture`). */
  index: number;
  capture?: string;
  message: string;
}

/** The tokens every pointer into structured content starts with. */
const STRUCTURED = ["result", "structuredContent"] as const;
/** Deepest recursion of the walk (pointer tokens, `$ref`s and applicators together). */
export const MAX_WALK_DEPTH = 64;
/** Most schema nodes visited for one pointer: `anyOf` inside `anyOf` multiplies, and a tool's schema is untrusted. */
const MAX_WALK_STEPS = 10_000;
/** Most names listed in "(it has: …)"; a schema with hundreds of properties would drown the message. */
const MAX_LISTED_NAMES = 12;
const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** Why a pointer cannot exist; `at` is how many tokens (after structuredContent) lead to the value at fault. */
interface Failure {
  at: number;
  reason:
    | { kind: "nothing" }
    | { kind: "property"; name: string; allowed: string[]; patterns: string[] }
    | { kind: "item"; token: string; max?: number }
    | { kind: "scalar"; token: string; types: string[] };
}

interface Walk {
  root: unknown;
  tokens: readonly string[];
  /** Schema nodes visited so far for this pointer, by the walk and the `absent` check together (MAX_WALK_STEPS). */
  steps: number;
  /**
   * The verdict already reached for a schema node at a token index. `allOf: [{$ref: X}, {$ref: X}]` on every level of
   * `$defs` doubles the paths per level; a node seen again at the same position adds nothing to a conjunction, so it
   * is walked once. PENDING marks a node still being walked: meeting it again is a loop, which adds nothing either.
   */
  verdicts: Map<object, Map<number, Failure | undefined | typeof PENDING>>;
}

const PENDING = Symbol("pending");

const hasPlaceholder = (text: string): boolean => placeholders(text).length > 0;

/** `type` as a list, or undefined when the schema does not restrict the type. */
function typesOf(schema: Record<string, unknown>): string[] | undefined {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t) && t.length > 0 && t.every((x) => typeof x === "string")) return t as string[];
  return undefined;
}

/** A `patternProperties` key as a RegExp (JSON Schema patterns are ECMA-262 with Unicode); undefined when invalid. */
function patternRegex(pattern: string): RegExp | undefined {
  for (const flags of ["u", ""]) {
    try {
      return new RegExp(pattern, flags);
    } catch {
      // try without the u flag, then give up
    }
  }
  return undefined;
}

/**
 * Does `schema` allow a value at tokens[i..]? A Failure is evidence it cannot; undefined means it may (or that the
 * walk could not tell). Keywords at one level are a conjunction: the own keywords, `$ref` and every `allOf` branch must
 * each allow the rest of the pointer; `anyOf`/`oneOf` allow it when one branch does.
 */
function walk(w: Walk, schema: unknown, i: number, refs: readonly string[], depth: number): Failure | undefined {
  if (++w.steps > MAX_WALK_STEPS || depth > MAX_WALK_DEPTH) return undefined;
  if (schema === false) return { at: i, reason: { kind: "nothing" } };
  if (!isObject(schema)) return undefined;
  let byIndex = w.verdicts.get(schema);
  if (!byIndex) w.verdicts.set(schema, (byIndex = new Map()));
  // A verdict reached on another path holds here too: a Failure is evidence wherever the node applies, and an
  // undefined reached under tighter bounds is only the conservative answer.
  if (byIndex.has(i)) {
    const known = byIndex.get(i);
    return known === PENDING ? undefined : known;
  }
  byIndex.set(i, PENDING);
  const verdict = walkNode(w, schema, i, refs, depth);
  byIndex.set(i, verdict);
  return verdict;
}

/** {@link walk}'s work on one schema object, once per position. */
function walkNode(w: Walk, schema: Record<string, unknown>, i: number, refs: readonly string[], depth: number): Failure | undefined {
  if (i < w.tokens.length) {
    const own = stepInto(w, schema, i, depth);
    if (own) return own;
  }
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    // Only refs inside the outputSchema, each at most once per position: `A → B → A` without consuming a token loops.
    if (isLocalRef(ref, w.root) && !refs.includes(ref)) {
      const target = lookupRef(w.root, ref);
      if (target !== undefined) {
        const viaRef = walk(w, target, i, [...refs, ref], depth + 1);
        if (viaRef) return viaRef;
      }
    }
  }
  if (Array.isArray(schema.allOf)) {
    for (const branch of schema.allOf) {
      const f = walk(w, branch, i, refs, depth + 1);
      if (f) return f;
    }
  }
  for (const kw of ["anyOf", "oneOf"] as const) {
    const branches = schema[kw];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const failures: Failure[] = [];
    for (const branch of branches) {
      const f = walk(w, branch, i, refs, depth + 1);
      if (!f) break;
      failures.push(f);
    }
    if (failures.length === branches.length) return mergeAlternatives(failures);
  }
  return undefined;
}

/** The own keywords' verdict on stepping into tokens[i]: an object's property, an array's item, or neither. */
function stepInto(w: Walk, schema: Record<string, unknown>, i: number, depth: number): Failure | undefined {
  const token = w.tokens[i];
  // The segment is only known at run time: anything could be there, and so anything after it.
  if (hasPlaceholder(token)) return undefined;
  const types = typesOf(schema);
  const may = (t: string) => !types || types.includes(t);
  // A string declared to hold JSON: valueAt steps into JSON text, and the schema does not describe what is inside.
  if (may("string") && typeof schema.contentMediaType === "string" && /json/i.test(schema.contentMediaType)) return undefined;
  const options: Failure[] = [];
  if (may("object")) {
    const f = objectStep(w, schema, i, depth);
    if (!f) return undefined;
    options.push(f);
  }
  if (may("array")) {
    const f = arrayStep(w, schema, i, depth);
    if (!f) return undefined;
    options.push(f);
  }
  if (options.length === 0) return { at: i, reason: { kind: "scalar", token, types: types ?? [] } };
  // Both an object and an array were possible and neither has it: say what fits the token (a name or an index).
  const wanted = ARRAY_INDEX.test(token) ? "item" : "property";
  return deepest(options).find((f) => f.reason.kind === wanted) ?? deepest(options)[0];
}

function objectStep(w: Walk, schema: Record<string, unknown>, i: number, depth: number): Failure | undefined {
  const token = w.tokens[i];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const patternProperties = isObject(schema.patternProperties) ? schema.patternProperties : {};
  const patterns = Object.keys(patternProperties);
  const next: unknown[] = [];
  let matched = Object.hasOwn(properties, token);
  if (matched) next.push(properties[token]);
  for (const p of patterns) {
    const re = patternRegex(p);
    // A pattern we cannot compile may match: allowed, and its schema unknown.
    if (!re) matched = true;
    else if (re.test(token)) {
      matched = true;
      next.push(patternProperties[p]);
    }
  }
  if (!matched) {
    const extra = schema.additionalProperties;
    if (extra === false) return { at: i, reason: { kind: "property", name: token, allowed: Object.keys(properties), patterns } };
    if (extra !== undefined) next.push(extra);
    else if (schema.unevaluatedProperties === false) {
      // unevaluatedProperties also sees the names its in-place applicators ($ref, allOf, anyOf, …) evaluate.
      const evaluated = evaluatedNames(w, schema, [], depth + 1);
      if (evaluated && !evaluated.names.has(token) && !evaluated.patterns.some((re) => re.test(token)))
        return { at: i, reason: { kind: "property", name: token, allowed: [...evaluated.names], patterns: evaluated.sources } };
    }
  }
  for (const child of next) {
    const f = walk(w, child, i + 1, [], depth + 1);
    if (f) return f;
  }
  return undefined;
}

function arrayStep(w: Walk, schema: Record<string, unknown>, i: number, depth: number): Failure | undefined {
  const token = w.tokens[i];
  if (!ARRAY_INDEX.test(token)) return { at: i, reason: { kind: "item", token } };
  const n = Number(token);
  if (typeof schema.maxItems === "number" && n >= schema.maxItems)
    return { at: i, reason: { kind: "item", token, max: Math.max(0, Math.floor(schema.maxItems)) } };
  // 2020-12 writes a tuple as prefixItems + items; draft-07 as an items array + additionalItems.
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple && n < tuple.length) return walk(w, tuple[n], i + 1, [], depth + 1);
  const rest = Array.isArray(schema.prefixItems) || !Array.isArray(schema.items) ? schema.items : schema.additionalItems;
  if (rest === false) return { at: i, reason: { kind: "item", token, max: tuple?.length ?? 0 } };
  if (rest !== undefined) return walk(w, rest, i + 1, [], depth + 1);
  if (schema.unevaluatedItems === false && !IN_PLACE.some((kw) => kw in schema))
    return { at: i, reason: { kind: "item", token, max: tuple?.length ?? 0 } };
  return undefined;
}

/** In-place applicators: keywords that evaluate the same instance (and so its properties) besides the own keywords. */
const IN_PLACE = ["$ref", "$dynamicRef", "allOf", "anyOf", "oneOf", "if", "then", "else", "dependentSchemas", "not"];

/**
 * The property names a schema and its in-place applicators evaluate, for `unevaluatedProperties: false`; undefined
 * when that cannot be known (an applicator this walk does not read, `additionalProperties` anywhere, a bound reached).
 */
function evaluatedNames(
  w: Walk,
  schema: unknown,
  refs: readonly string[],
  depth: number,
): { names: Set<string>; patterns: RegExp[]; sources: string[] } | undefined {
  const out = { names: new Set<string>(), patterns: [] as RegExp[], sources: [] as string[] };
  if (++w.steps > MAX_WALK_STEPS || depth > MAX_WALK_DEPTH) return undefined;
  if (typeof schema === "boolean") return out;
  if (!isObject(schema)) return undefined;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) return undefined;
  if (["$dynamicRef", "if", "then", "else", "dependentSchemas"].some((kw) => kw in schema)) return undefined;
  if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) out.names.add(name);
  if (isObject(schema.patternProperties)) {
    for (const p of Object.keys(schema.patternProperties)) {
      const re = patternRegex(p);
      if (!re) return undefined;
      out.patterns.push(re);
      out.sources.push(p);
    }
  }
  const branches: { schema: unknown; refs: readonly string[] }[] = [];
  if (typeof schema.$ref === "string") {
    const ref = schema.$ref;
    if (!isLocalRef(ref, w.root) || refs.includes(ref)) return undefined;
    const target = lookupRef(w.root, ref);
    if (target === undefined) return undefined;
    branches.push({ schema: target, refs: [...refs, ref] });
  }
  for (const kw of ["allOf", "anyOf", "oneOf"] as const) {
    const list = schema[kw];
    if (Array.isArray(list)) for (const b of list) branches.push({ schema: b, refs });
  }
  for (const b of branches) {
    const inner = evaluatedNames(w, b.schema, b.refs, depth + 1);
    if (!inner) return undefined;
    for (const name of inner.names) out.names.add(name);
    out.patterns.push(...inner.patterns);
    out.sources.push(...inner.sources);
  }
  return out;
}

/** The failures that reach furthest into the pointer. */
function deepest(failures: readonly Failure[]): Failure[] {
  const at = Math.max(...failures.map((f) => f.at));
  return failures.filter((f) => f.at === at);
}

/**
 * Every `anyOf` branch ruled the pointer out: one failure to report. The deepest ones say the most; when several are
 * missing properties of one object (a union of object shapes), the names any branch allows are listed together.
 */
function mergeAlternatives(failures: readonly Failure[]): Failure {
  const best = deepest(failures);
  const properties = best.filter((f) => f.reason.kind === "property");
  if (properties.length === 0) return best[0];
  const allowed = new Set<string>();
  const patterns = new Set<string>();
  for (const f of properties) {
    if (f.reason.kind !== "property") continue;
    for (const n of f.reason.allowed) allowed.add(n);
    for (const p of f.reason.patterns) patterns.add(p);
  }
  const first = properties[0].reason as { name: string };
  return { at: best[0].at, reason: { kind: "property", name: first.name, allowed: [...allowed], patterns: [...patterns] } };
}

/** "a, b, c" with at most MAX_LISTED_NAMES names, then how many more. */
function listNames(names: readonly string[]): string {
  const shown = names.slice(0, MAX_LISTED_NAMES).join(", ");
  return names.length > MAX_LISTED_NAMES ? `${shown}, … ${names.length - MAX_LISTED_NAMES} more` : shown;
}

/** What the schema says instead, for a message: "has no property "totl" (it has: issues, total)". */
function explain(f: Failure, tokens: readonly string[]): string {
  const valueAtFault = buildPointer([...STRUCTURED, ...tokens.slice(0, f.at)]);
  // The top level is implied by "outputSchema"; deeper, the message says where.
  const where = f.at === 0 ? "" : ` in ${valueAtFault}`;
  const r = f.reason;
  switch (r.kind) {
    case "nothing":
      return `allows nothing at ${valueAtFault}`;
    case "property": {
      const names = [...r.allowed, ...r.patterns.map((p) => `/${p}/`)];
      return `has no property ${JSON.stringify(r.name)}${where} (${names.length ? `it has: ${listNames(names)}` : "it allows none"})`;
    }
    case "item":
      return r.max === undefined
        ? `says ${valueAtFault} is an array: ${JSON.stringify(r.token)} is not an item index`
        : `allows at most ${r.max} item${r.max === 1 ? "" : "s"} in ${valueAtFault}, so there is no item ${r.token}`;
    case "scalar":
      return `says ${valueAtFault} is ${r.types.join(" or ")}, which has no ${JSON.stringify(r.token)} inside`;
  }
}

/**
 * True when the schema guarantees a value at the walk's tokens whenever structuredContent is there and valid: each
 * step is a property that a conjunctive part of its parent's schema (itself, `$ref`, `allOf`) requires, and each
 * parent below the top is declared an object and nothing else (`required` says nothing about a value that may be
 * null). It charges the walk's step budget: when that runs out the answer is unknown, so false (no warning).
 */
function alwaysPresent(w: Walk): boolean {
  const { root, tokens } = w;
  if (tokens.length === 0 || tokens.some(hasPlaceholder)) return false;
  let level: unknown[] = [root];
  for (let i = 0; i < tokens.length; i++) {
    const parts = conjuncts(w, level);
    if (!parts) return false;
    // MCP's structuredContent is an object, so the top level needs no `type`.
    const objectOnly =
      i === 0 || parts.some((p) => p.type === "object" || (Array.isArray(p.type) && p.type.length === 1 && p.type[0] === "object"));
    if (!objectOnly) return false;
    if (!parts.some((p) => Array.isArray(p.required) && p.required.includes(tokens[i]))) return false;
    level = parts.flatMap((p) => (isObject(p.properties) && Object.hasOwn(p.properties, tokens[i]) ? [p.properties[tokens[i]]] : []));
  }
  return true;
}

/**
 * The schemas that apply to the same value as `schemas`: each, its `$ref` target and `allOf` branches, transitively,
 * each node once (a target many branches share, or a loop back, is one node: a conjunction holds a part once).
 * Iterative, so a deep chain cannot exhaust the stack; undefined when the walk's step budget runs out.
 */
function conjuncts(w: Walk, schemas: readonly unknown[]): Record<string, unknown>[] | undefined {
  const seen = new Set<object>();
  const out: Record<string, unknown>[] = [];
  const pending = [...schemas];
  while (pending.length > 0) {
    const schema = pending.pop();
    if (!isObject(schema) || seen.has(schema)) continue;
    if (++w.steps > MAX_WALK_STEPS) return undefined;
    seen.add(schema);
    out.push(schema);
    if (typeof schema.$ref === "string" && isLocalRef(schema.$ref, w.root)) pending.push(lookupRef(w.root, schema.$ref));
    if (Array.isArray(schema.allOf)) for (const b of schema.allOf) pending.push(b);
  }
  return out;
}

/** Why `pointer` is not a JSON pointer, or undefined when it is (or may become one once its placeholders are filled). */
function pointerProblem(pointer: string): string | undefined {
  if (pointer !== "" && !pointer.startsWith("/")) {
    if (hasPlaceholder(pointer)) return undefined;
    return `${JSON.stringify(pointer)} is not a JSON pointer: it must be "" or start with "/" (e.g. /result/structuredContent/id)`;
  }
  if (/~(?![01])/.test(pointer))
    return `${JSON.stringify(pointer)} is not a JSON pointer: "~" must be followed by 0 or 1 (write "~" as ~0 and "/" inside a name as ~1)`;
  return undefined;
}

/** One pointer an expectation or capture reads, with what a warning about it should say. */
interface PointerUse {
  /** The pointer into the response. */
  pointer: string;
  /** As the file writes it (a volatile pointer is relative to its unchanged's pointer). */
  written: string;
  /** How the message names it: the pointer, or `volatile /x` for unchanged's volatile pointers. */
  label: string;
  /** Only needs the value to be possibly absent (absent, volatile): a missing structuredContent is no problem. */
  absentOk: boolean;
  absent: boolean;
}

function pointerUses(e: Expectation): PointerUse[] {
  const reads = (pointer: string, absent = false): PointerUse => ({ pointer, written: pointer, label: pointer, absentOk: absent, absent });
  switch (e.kind) {
    case "equals":
    case "matches":
    case "present":
      return [reads(e.pointer)];
    case "absent":
      return [reads(e.pointer, true)];
    case "schema":
      return [reads(e.pointer ?? buildPointer(STRUCTURED))];
    case "unchanged": {
      const base = e.pointer ?? "/result";
      return [
        reads(base),
        // Volatile pointers are left out of the comparison: one that cannot exist harms nothing, but is likely a typo.
        ...(e.volatile ?? []).map((v) => ({ pointer: `${base}${v}`, written: v, label: `volatile ${v}`, absentOk: true, absent: false })),
      ];
    }
    default:
      return [];
  }
}

/** The tokens after /result/structuredContent, or undefined when the pointer is not into structured content. */
function structuredTokens(pointer: string): string[] | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens || tokens.length < STRUCTURED.length || tokens[0] !== STRUCTURED[0] || tokens[1] !== STRUCTURED[1]) return undefined;
  return tokens.slice(STRUCTURED.length);
}

/** The literal tool name a tools/call request calls, or undefined (another method, no name, a placeholder). */
function calledTool(request: Record<string, unknown>): string | undefined {
  if (request.method !== "tools/call" || !isObject(request.params)) return undefined;
  const name = request.params.name;
  return typeof name === "string" && name !== "" && !hasPlaceholder(name) ? name : undefined;
}

/**
 * The warnings for `call`, given the definition of the tool it calls from the server's tools/list (`undefined`: the
 * server lists no such tool; call this only when the tools are known). In the order of `call.expect`, then captures.
 */
export function expectationWarnings(call: CollectionCall, tool: Tool | undefined): ExpectationWarning[] {
  const warnings: ExpectationWarning[] = [];
  const toolName = calledTool(call.request);
  if (toolName !== undefined && !tool)
    warnings.push({
      index: -1,
      message: `the server lists no tool ${JSON.stringify(toolName)}, so this call's expectations cannot be checked against it`,
    });
  // Tool-based checks only where the call is known to call `tool`.
  const target = toolName !== undefined ? tool : undefined;

  const checkPointer = (use: PointerUse, at: Omit<ExpectationWarning, "message">): void => {
    const problem = pointerProblem(use.written);
    if (problem) {
      warnings.push({ ...at, message: use.label === use.written ? problem : `volatile ${problem}` });
      return;
    }
    const tokens = structuredTokens(use.pointer);
    if (!target || !tokens) return;
    const prefix = `${use.label}: ${target.name}`;
    if (target.outputSchema === undefined) {
      if (!use.absentOk)
        warnings.push({ ...at, message: `${prefix} declares no outputSchema, so nothing says its answers have structuredContent` });
      return;
    }
    const w: Walk = { root: target.outputSchema, tokens, steps: 0, verdicts: new Map() };
    const failure = walk(w, target.outputSchema, 0, [], 0);
    if (failure) {
      const always = use.absent ? "; so this absent always passes" : "";
      warnings.push({ ...at, message: `${prefix}'s outputSchema ${explain(failure, tokens)}${always}` });
    } else if (use.absent && alwaysPresent(w)) {
      warnings.push({
        ...at,
        message: `${prefix}'s outputSchema requires ${JSON.stringify(tokens[tokens.length - 1])}, so this absent can never pass on an answer with structuredContent`,
      });
    }
  };

  call.expect.forEach((e, index) => {
    if ((e.kind === "matches" || e.kind === "text-matches") && !hasPlaceholder(`${e.pattern}${e.flags ?? ""}`)) {
      try {
        new RegExp(e.pattern, e.flags);
      } catch (err) {
        warnings.push({ index, message: `the pattern /${e.pattern}/${e.flags ?? ""} does not compile: ${(err as Error).message}` });
      }
    }
    if (e.kind === "output-schema" && target && target.outputSchema === undefined)
      warnings.push({ index, message: `output-schema: ${target.name} declares no outputSchema, so this expectation can never pass` });
    for (const use of pointerUses(e)) checkPointer(use, { index });
  });
  for (const [name, pointer] of Object.entries(call.capture ?? {}))
    checkPointer({ pointer, written: pointer, label: pointer, absentOk: false, absent: false }, { index: -1, capture: name });
  return warnings;
}
