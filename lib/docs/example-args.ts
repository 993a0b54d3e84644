/**
 * Example arguments from an inputSchema: deterministic, and built to validate against the schema
 * (each candidate is checked with a small structural matcher before it is returned).
 */
import { isObject } from "../json/guards.ts";
import { deref, type JsonSchema, type RefTrail } from "../schema/ref.ts";

export interface ExampleOptions {
  /** Also fill optional properties whose value is cheap (scalars, short arrays). Default false. */
  includeOptional?: boolean;
  /** Deepest nesting generated; deeper optional values are left out. Default {@link MAX_EXAMPLE_DEPTH}. */
  maxDepth?: number;
}

export const MAX_EXAMPLE_DEPTH = 8;
/** Longest array generated (minItems above this are honoured only up to it). */
export const MAX_EXAMPLE_ITEMS = 50;

const FORMAT_EXAMPLES: Record<string, string> = {
  email: "user@example.com",
  "idn-email": "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  iri: "https://example.com",
  "uri-reference": "https://example.com/path",
  "iri-reference": "https://example.com/path",
  "uri-template": "https://example.com/{id}",
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "12:00:00Z",
  duration: "P1D",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  hostname: "example.com",
  "idn-hostname": "example.com",
  "json-pointer": "/path",
  "relative-json-pointer": "0",
  regex: "^.*$",
  byte: "ZXhhbXBsZQ==",
  int32: "1",
  int64: "1",
};

interface Ctx {
  root: unknown;
  includeOptional: boolean;
  maxDepth: number;
}

/** Build example arguments for a tool's inputSchema. Returns `{}` when nothing better fits. */
export function exampleArgs(inputSchema: unknown, options: ExampleOptions = {}): Record<string, unknown> {
  const ctx: Ctx = {
    root: inputSchema,
    includeOptional: options.includeOptional ?? false,
    maxDepth: options.maxDepth ?? MAX_EXAMPLE_DEPTH,
  };
  const value = generate(ctx, inputSchema, [], 0, 0);
  // Tool arguments are always an object; anything else means the schema gave us nothing to go on.
  return isObject(value) ? value : {};
}

type Resolved = { schema: JsonSchema; trail: RefTrail } | undefined;

function resolve(ctx: Ctx, schema: unknown, trail: RefTrail): Resolved {
  const d = deref(ctx.root, schema, trail);
  return "schema" in d ? { schema: d.schema, trail: d.trail } : undefined;
}

const MIN_KEYS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"];
const MAX_KEYS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"];

/** Fold `allOf` branches (and nested ones) into one schema: an approximation good for generating values. */
function flattenAllOf(ctx: Ctx, schema: Record<string, unknown>, trail: RefTrail, depth = 0): { schema: JsonSchema; trail: RefTrail } {
  if (!Array.isArray(schema.allOf) || depth > 8) return { schema, trail };
  const { allOf, ...base } = schema;
  let merged: JsonSchema = base;
  let t = trail;
  for (const branch of allOf as unknown[]) {
    const r = resolve(ctx, branch, t);
    if (!r) continue;
    if (r.schema === false) return { schema: false, trail: t };
    if (r.schema === true) continue;
    const flat = flattenAllOf(ctx, r.schema, r.trail, depth + 1);
    t = flat.trail;
    merged = mergeSchemas(merged, flat.schema);
  }
  return { schema: merged, trail: t };
}

function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const mine = out[key];
    if (key === "type") out.type = intersectTypes(mine, value);
    else if (key === "required" && Array.isArray(mine) && Array.isArray(value)) out.required = [...new Set([...mine, ...value])];
    else if (key === "properties" && isObject(mine) && isObject(value)) {
      const props: Record<string, unknown> = { ...mine };
      for (const [p, s] of Object.entries(value)) props[p] = p in props ? { allOf: [props[p], s] } : s;
      out.properties = props;
    } else if (key === "enum" && Array.isArray(mine) && Array.isArray(value)) {
      out.enum = mine.filter((v) => value.some((w) => sameJson(v, w)));
    } else if (MIN_KEYS.includes(key) && typeof mine === "number" && typeof value === "number") out[key] = Math.max(mine, value);
    else if (MAX_KEYS.includes(key) && typeof mine === "number" && typeof value === "number") out[key] = Math.min(mine, value);
    else if ((key === "items" || key === "additionalProperties") && isObject(mine) && isObject(value)) out[key] = { allOf: [mine, value] };
    else if (key === "additionalProperties" && (mine === false || value === false)) out[key] = false;
    else if (key === "uniqueItems") out[key] = mine === true || value === true;
  }
  return out;
}

function intersectTypes(a: unknown, b: unknown): unknown {
  const list = (t: unknown) => (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === "string");
  const la = list(a);
  const lb = list(b);
  const both = la.filter((t) => lb.includes(t) || (t === "integer" && lb.includes("number")));
  for (const t of lb) if (t === "integer" && la.includes("number") && !both.includes("integer")) both.push("integer");
  return both.length === 1 ? both[0] : both;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function typesOf(s: Record<string, unknown>): string[] {
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === "string");
  if (isObject(s.properties) || Array.isArray(s.required) || s.additionalProperties !== undefined) return ["object"];
  if (s.items !== undefined || Array.isArray(s.prefixItems) || s.minItems !== undefined) return ["array"];
  if (typeof s.minLength === "number" || typeof s.maxLength === "number" || typeof s.pattern === "string" || typeof s.format === "string")
    return ["string"];
  if (typeof s.minimum === "number" || typeof s.maximum === "number" || typeof s.multipleOf === "number") return ["number"];
  return [];
}

/**
 * Generate a value for `schema`. `variant` shifts choices (enum index, string suffix, number) so
 * unique array items can differ. Returns undefined when no value could be built.
 */
function generate(ctx: Ctx, input: unknown, trail: RefTrail, depth: number, variant: number): unknown {
  if (depth > ctx.maxDepth) return undefined;
  const r = resolve(ctx, input, trail);
  if (!r) return undefined;
  if (r.schema === true) return variant === 0 ? "example" : `example${variant}`;
  if (r.schema === false) return undefined;
  const flat = flattenAllOf(ctx, r.schema, r.trail);
  if (flat.schema === false) return undefined;
  if (flat.schema === true) return "example";
  const schema = flat.schema;
  const t = flat.trail;

  // Branching keywords: try each branch merged with the rest of the schema; keep the first that fits.
  for (const kind of ["oneOf", "anyOf"] as const) {
    const branches = schema[kind];
    if (!Array.isArray(branches) || branches.length === 0) continue;
    const { [kind]: _drop, ...rest } = schema;
    void _drop;
    for (let i = 0; i < branches.length; i++) {
      const br = resolve(ctx, branches[i], t);
      if (!br || br.schema === false) continue;
      const merged = mergeSchemas(rest, br.schema);
      const candidate = generate(ctx, merged, br.trail, depth, variant);
      if (candidate === undefined || !matches(ctx, schema, candidate, t, 0)) continue;
      return candidate;
    }
    return undefined;
  }
  if (schema.if !== undefined) {
    const { if: cond, then: yes, else: no, ...rest } = schema;
    const base = generate(ctx, rest, t, depth, variant);
    if (base === undefined) return undefined;
    const branch = matches(ctx, cond, base, t, 0) ? yes : no;
    if (branch === undefined) return base;
    const merged = generate(ctx, { allOf: [rest, branch] }, t, depth, variant);
    return merged !== undefined && matches(ctx, schema, merged, t, 0) ? merged : base;
  }

  for (const candidate of seeds(schema, variant)) if (matches(ctx, schema, candidate, t, 0)) return candidate;

  const types = typesOf(schema);
  const order = types.length === 0 ? ["string"] : types.filter((x) => x !== "null").concat(types.includes("null") ? ["null"] : []);
  for (const type of order) {
    const value = byType(ctx, schema, type, t, depth, variant);
    if (value !== undefined && matches(ctx, schema, value, t, 0)) return value;
  }
  // Best effort: the first typed value even if our matcher had doubts.
  return order.length > 0 ? byType(ctx, schema, order[0], t, depth, variant) : undefined;
}

/** Values the schema itself offers, in order of preference. */
function seeds(s: Record<string, unknown>, variant: number): unknown[] {
  const out: unknown[] = [];
  if ("const" in s) out.push(s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) {
    if (variant === 0 && "default" in s) out.push(s.default);
    out.push(s.enum[variant % s.enum.length]);
    return out;
  }
  if (variant === 0) {
    if ("default" in s) out.push(s.default);
    if (Array.isArray(s.examples)) out.push(...s.examples.slice(0, 5));
  }
  return out;
}

function byType(ctx: Ctx, s: Record<string, unknown>, type: string, trail: RefTrail, depth: number, variant: number): unknown {
  switch (type) {
    case "string":
      return exampleString(s, variant);
    case "integer":
      return exampleNumber(s, true, variant);
    case "number":
      return exampleNumber(s, false, variant);
    case "boolean":
      return variant % 2 === 0;
    case "null":
      return null;
    case "array":
      return exampleArray(ctx, s, trail, depth, variant);
    case "object":
      return exampleObject(ctx, s, trail, depth, variant);
    default:
      return undefined;
  }
}

function exampleNumber(s: Record<string, unknown>, integer: boolean, variant: number): number | undefined {
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  let lo = num(s.minimum);
  let loExclusive = false;
  if (num(s.exclusiveMinimum) !== undefined && (lo === undefined || (s.exclusiveMinimum as number) >= lo)) {
    lo = s.exclusiveMinimum as number;
    loExclusive = true;
  } else if (s.exclusiveMinimum === true) loExclusive = true;
  let hi = num(s.maximum);
  let hiExclusive = false;
  if (num(s.exclusiveMaximum) !== undefined && (hi === undefined || (s.exclusiveMaximum as number) <= hi)) {
    hi = s.exclusiveMaximum as number;
    hiExclusive = true;
  } else if (s.exclusiveMaximum === true) hiExclusive = true;
  const step = num(s.multipleOf) && (s.multipleOf as number) > 0 ? (s.multipleOf as number) : integer ? 1 : undefined;

  let start: number;
  if (lo !== undefined) start = loExclusive ? (step ? lo + Number.EPSILON : lo + 1) : lo;
  else if (hi !== undefined) start = Math.min(1, hiExclusive ? hi - 1 : hi);
  else start = 1;
  if (lo !== undefined && loExclusive && !step && hi !== undefined && start >= hi) start = (lo + hi) / 2;
  let value = start;
  if (step) {
    value = Math.ceil(start / step) * step;
    if (loExclusive && lo !== undefined && value <= lo) value += step;
    value += variant * step;
    if (integer && !Number.isInteger(value)) {
      // multipleOf non-integer on an integer: walk to the next integer multiple.
      for (let k = Math.ceil(start / step); k < Math.ceil(start / step) + 1000; k++) {
        if (Number.isInteger(k * step)) {
          value = k * step;
          break;
        }
      }
    }
    value = Number(value.toPrecision(12));
  } else value += variant;
  if (hi !== undefined && (value > hi || (hiExclusive && value >= hi))) {
    value = step
      ? Math.floor((hiExclusive ? hi - Number.EPSILON : hi) / step) * step
      : hiExclusive
        ? integer
          ? Math.ceil(hi) - 1
          : hi - (hi - (lo ?? hi - 1)) / 2
        : hi;
  }
  return integer ? Math.round(value) : value;
}

function exampleString(s: Record<string, unknown>, variant: number): string {
  const suffix = variant === 0 ? "" : String(variant);
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
  const fit = (text: string): string => {
    let t = text;
    if (t.length < min) t = t + "x".repeat(min - t.length);
    if (t.length > max) t = t.slice(0, Math.max(0, max));
    return t;
  };
  const candidates: string[] = [];
  if (typeof s.format === "string" && FORMAT_EXAMPLES[s.format]) {
    const f = FORMAT_EXAMPLES[s.format];
    candidates.push(
      variant === 0
        ? f
        : s.format === "email"
          ? `user${variant}@example.com`
          : s.format.startsWith("ur") || s.format.startsWith("ir")
            ? `${f}/${variant}`
            : f,
    );
  }
  if (typeof s.pattern === "string") {
    const re = safeRegExp(s.pattern);
    if (re) {
      const fromPattern = sampleFromPattern(s.pattern, variant);
      const options = [
        fromPattern,
        `example${suffix}`,
        `a${suffix}`,
        `A${suffix}`,
        `${variant + 1}`,
        "abc",
        "ABC",
        "a1",
        "2026-01-01",
        "user@example.com",
        "https://example.com",
        "x",
        "_",
        "-",
        "en",
        "en-US",
        "v1.0.0",
        "1.0.0",
        "#000000",
      ];
      for (const o of options) {
        if (o === undefined) continue;
        for (const fitted of [o, fit(o), fit(o.repeat(Math.max(1, Math.ceil(min / Math.max(o.length, 1)))))]) {
          if (re.test(fitted) && fitted.length >= min && fitted.length <= max) return fitted;
        }
      }
    }
  }
  candidates.push(`example${suffix}`);
  return fit(candidates[0]);
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, "u");
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/**
 * A tiny sampler for common simple patterns (anchors, literals, classes, \d \w, quantifiers, groups with
 * alternation). Returns undefined for anything it does not understand; the caller checks the result anyway.
 */
export function sampleFromPattern(pattern: string, variant = 0): string | undefined {
  let i = 0;
  const src = pattern;
  const parseSeq = (): string | undefined => {
    let out = "";
    while (i < src.length && src[i] !== "|" && src[i] !== ")") {
      let atom: string | undefined;
      const c = src[i];
      if (c === "^" || c === "$") {
        i++;
        continue;
      } else if (c === "(") {
        i++;
        if (src.startsWith("?:", i)) i += 2;
        const alts: (string | undefined)[] = [parseSeq()];
        while (src[i] === "|") {
          i++;
          alts.push(parseSeq());
        }
        if (src[i] !== ")") return undefined;
        i++;
        atom = alts[variant % alts.length] ?? alts[0];
      } else if (c === "[") {
        const end = src.indexOf("]", i + 2);
        if (end < 0) return undefined;
        const body = src.slice(i + 1, end);
        i = end + 1;
        if (body.startsWith("^")) atom = "x";
        else if (body.startsWith("\\d")) atom = "1";
        else if (body.startsWith("\\w")) atom = "a";
        else atom = body[0] === "\\" ? body[1] : body[0];
      } else if (c === "\\") {
        const e = src[i + 1];
        i += 2;
        atom = e === "d" ? "1" : e === "w" ? "a" : e === "s" ? " " : e === "D" ? "a" : e === "W" ? "-" : e === "S" ? "a" : e;
      } else if (c === ".") {
        i++;
        atom = "a";
      } else if ("*+?{".includes(c)) {
        return undefined;
      } else {
        i++;
        atom = c;
      }
      if (atom === undefined) return undefined;
      // Quantifier
      let count = 1;
      if (src[i] === "*" || src[i] === "?") {
        count = src[i] === "*" ? 1 : 1;
        i++;
      } else if (src[i] === "+") {
        i++;
      } else if (src[i] === "{") {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
        if (!m) return undefined;
        count = Math.max(Number(m[1]), m[1] === "0" && m[3] ? 1 : 0);
        if (Number(m[1]) === 0 && !m[2]) count = 0;
        i += m[0].length;
      }
      if (src[i] === "?") i++; // lazy modifier
      out += atom.repeat(Math.min(count, 256));
    }
    return out;
  };
  try {
    const alts = [parseSeq()];
    while (src[i] === "|") {
      i++;
      alts.push(parseSeq());
    }
    if (i < src.length) return undefined;
    return alts[0];
  } catch {
    return undefined;
  }
}

function exampleArray(ctx: Ctx, s: Record<string, unknown>, trail: RefTrail, depth: number, variant: number): unknown[] | undefined {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  const minItems = typeof s.minItems === "number" ? Math.min(s.minItems, MAX_EXAMPLE_ITEMS) : 0;
  const maxItems = typeof s.maxItems === "number" ? s.maxItems : Infinity;
  const out: unknown[] = [];
  for (let i = 0; i < prefix.length && out.length < Math.max(minItems, prefix.length) && out.length < maxItems; i++) {
    const v = generate(ctx, prefix[i], trail, depth + 1, variant);
    if (v === undefined) break;
    out.push(v);
  }
  const wanted = Math.min(maxItems, Math.max(minItems, prefix.length === 0 && rest !== false && depth < ctx.maxDepth - 1 ? 1 : 0));
  const containsSchema = s.contains;
  for (let k = 0; out.length < wanted; k++) {
    if (rest === false) break;
    const itemSchema = containsSchema !== undefined && k === 0 ? { allOf: [rest ?? true, containsSchema] } : (rest ?? true);
    const v = generate(ctx, itemSchema, trail, depth + 1, variant + k);
    if (v === undefined) break;
    if (s.uniqueItems === true && out.some((o) => sameJson(o, v))) {
      // try a few more variants before giving up on uniqueness
      let found: unknown;
      for (let extra = 1; extra < 20 && found === undefined; extra++) {
        const w = generate(ctx, itemSchema, trail, depth + 1, variant + k + extra * 7);
        if (w !== undefined && !out.some((o) => sameJson(o, w))) found = w;
      }
      if (found === undefined) break;
      out.push(found);
    } else out.push(v);
  }
  return out;
}

function isCheap(ctx: Ctx, schema: unknown, trail: RefTrail): boolean {
  const r = resolve(ctx, schema, trail);
  if (!r || !isObject(r.schema)) return false;
  const types = typesOf(r.schema);
  return types.length > 0 && types.every((t) => t !== "object") && !Array.isArray(r.schema.oneOf) && !Array.isArray(r.schema.anyOf);
}

function exampleObject(
  ctx: Ctx,
  s: Record<string, unknown>,
  trail: RefTrail,
  depth: number,
  variant: number,
): Record<string, unknown> | undefined {
  const props = isObject(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === "string") : [];
  const out: Record<string, unknown> = {};
  const set = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  const additional = s.additionalProperties ?? s.unevaluatedProperties;
  const keySchema = (key: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(props, key)) return props[key];
    if (isObject(s.patternProperties)) {
      for (const [pattern, sub] of Object.entries(s.patternProperties)) if (safeRegExp(pattern)?.test(key)) return sub;
    }
    return additional === undefined ? true : additional;
  };
  const add = (key: string): boolean => {
    if (Object.prototype.hasOwnProperty.call(out, key)) return true;
    const sub = keySchema(key);
    if (sub === false) return false;
    const v = generate(ctx, sub, trail, depth + 1, variant);
    if (v === undefined) return false;
    set(key, v);
    return true;
  };
  for (const key of required) if (!add(key)) return undefined;
  const optional = Object.keys(props).filter((k) => !required.includes(k));
  const minProps = typeof s.minProperties === "number" ? s.minProperties : 0;
  for (const key of optional) {
    const count = Object.keys(out).length;
    if (count < minProps || (ctx.includeOptional && isCheap(ctx, props[key], trail))) add(key);
  }
  // Keys that become required when another key is present.
  if (isObject(s.dependentRequired)) {
    for (const [key, deps] of Object.entries(s.dependentRequired)) {
      if (Object.prototype.hasOwnProperty.call(out, key) && Array.isArray(deps))
        for (const dep of deps) if (typeof dep === "string") add(dep);
    }
  }
  for (let k = 0; Object.keys(out).length < minProps && k < 50; k++) {
    if (additional === false) break;
    if (!add(`key${k + 1}`)) break;
  }
  return out;
}

/**
 * A small structural matcher: type, const, enum, bounds, lengths, pattern, required, properties,
 * additionalProperties, items, allOf/anyOf/oneOf, not, if/then/else. Formats are trusted. Used to pick
 * branches and check seeds, not to replace the real validator.
 */
export function matches(ctx: Pick<Ctx, "root">, schema: unknown, value: unknown, trail: RefTrail = [], depth = 0): boolean {
  if (depth > 24) return true;
  const d = deref(ctx.root, schema, trail);
  if (!("schema" in d)) return "cycle" in d;
  const s = d.schema;
  const t = d.trail;
  if (s === true) return true;
  if (s === false) return false;
  if ("const" in s && !sameJson(s.const, value)) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => sameJson(e, value))) return false;
  const types = typeof s.type === "string" ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (types && !types.some((ty) => hasType(value, ty))) return false;
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)) return false;
    if (typeof s.maximum === "number" && (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)) return false;
    if (typeof s.exclusiveMinimum === "number" && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === "number" && value >= s.exclusiveMaximum) return false;
    if (typeof s.multipleOf === "number" && s.multipleOf > 0) {
      const q = value / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9) return false;
    }
  }
  if (typeof value === "string") {
    const len = [...value].length;
    if (typeof s.minLength === "number" && len < s.minLength) return false;
    if (typeof s.maxLength === "number" && len > s.maxLength) return false;
    if (typeof s.pattern === "string") {
      const re = safeRegExp(s.pattern);
      if (re && !re.test(value)) return false;
    }
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) return false;
    if (typeof s.maxItems === "number" && value.length > s.maxItems) return false;
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) return false;
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
    for (let i = 0; i < value.length; i++) {
      const sub = i < prefix.length ? prefix[i] : rest;
      if (sub !== undefined && !matches(ctx, sub, value[i], t, depth + 1)) return false;
    }
    if (s.contains !== undefined && !value.some((v) => matches(ctx, s.contains, v, t, depth + 1))) return false;
  }
  if (isObject(value)) {
    const props = isObject(s.properties) ? s.properties : {};
    if (Array.isArray(s.required) && s.required.some((k) => typeof k === "string" && !Object.prototype.hasOwnProperty.call(value, k)))
      return false;
    const keys = Object.keys(value);
    if (typeof s.minProperties === "number" && keys.length < s.minProperties) return false;
    if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) return false;
    for (const key of keys) {
      if (Object.prototype.hasOwnProperty.call(props, key)) {
        if (!matches(ctx, props[key], value[key], t, depth + 1)) return false;
        continue;
      }
      let matchedPattern = false;
      if (isObject(s.patternProperties)) {
        for (const [pattern, sub] of Object.entries(s.patternProperties)) {
          if (safeRegExp(pattern)?.test(key)) {
            matchedPattern = true;
            if (!matches(ctx, sub, value[key], t, depth + 1)) return false;
          }
        }
      }
      if (!matchedPattern && s.additionalProperties !== undefined && !matches(ctx, s.additionalProperties, value[key], t, depth + 1))
        return false;
    }
  }
  if (Array.isArray(s.allOf) && !s.allOf.every((b) => matches(ctx, b, value, t, depth + 1))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((b) => matches(ctx, b, value, t, depth + 1))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((b) => matches(ctx, b, value, t, depth + 1)).length !== 1) return false;
  if (s.not !== undefined && matches(ctx, s.not, value, t, depth + 1)) return false;
  if (s.if !== undefined) {
    const branch = matches(ctx, s.if, value, t, depth + 1) ? s.then : s.else;
    if (branch !== undefined && !matches(ctx, branch, value, t, depth + 1)) return false;
  }
  return true;
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return true;
  }
}
