/**
 * `x-mcp-header` (SEP-2243): which tool parameters are mirrored into `Mcp-Param-*` headers,
 * whether a tool's declarations are valid, and how values are encoded on the wire.
 */
import type { Tool } from "./contract.ts";
import { isObject } from "../json/guards.ts";

/** One valid declaration: the property path (chain of `properties` keys) and the header name part. */
export interface HeaderDeclaration {
  path: string[];
  name: string;
  /** The header as sent, e.g. `Mcp-Param-Region`. */
  header: string;
  type: "string" | "integer" | "boolean";
}

export interface HeaderScan {
  declarations: HeaderDeclaration[];
  /** Why the tool must be excluded from calling; empty when valid. */
  problems: string[];
}

const TCHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIRRORABLE = new Set(["string", "integer", "boolean"]);
/** Keywords whose subschemas are not statically reachable through `properties` alone. */
const NESTING_KEYWORDS = [
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "$defs",
  "definitions",
];

/** Validate a header name part: a non-empty RFC 9110 token (which already excludes CR, LF and controls). */
export function headerNameProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return `x-mcp-header must be a string, not ${JSON.stringify(value)}`;
  if (value === "") return "x-mcp-header must not be empty";
  if (/[\x00-\x1f\x7f]/.test(value)) return `x-mcp-header ${JSON.stringify(value)} contains control characters`;
  if (!TCHAR.test(value))
    return `x-mcp-header ${JSON.stringify(value)} is not an HTTP token (RFC 9110: letters, digits and !#$%&'*+-.^_\`|~ only)`;
  return undefined;
}

function declaredType(schema: Record<string, unknown>): string | undefined {
  const t = schema.type;
  if (typeof t === "string") return t;
  return undefined;
}

/**
 * Scans already made, by schema object. Every modern tools/call scans its tool's schema twice (the exclusion rule and
 * the Param headers), and a cached list hands out the same schema objects call after call. Schemas are never mutated
 * after listing; a new list brings new objects, so nothing stale is served, and a WeakMap lets them go with the list.
 */
const scans = new WeakMap<object, HeaderScan>();

/** Scan a tool's inputSchema for `x-mcp-header` declarations and check every rule. */
export function scanHeaderDeclarations(inputSchema: unknown): HeaderScan {
  if (typeof inputSchema !== "object" || inputSchema === null) return scanSchema(inputSchema);
  let scan = scans.get(inputSchema);
  if (!scan) scans.set(inputSchema, (scan = scanSchema(inputSchema)));
  return scan;
}

function scanSchema(inputSchema: unknown): HeaderScan {
  const declarations: HeaderDeclaration[] = [];
  const problems: string[] = [];
  const visited = new Set<unknown>();

  // Statically reachable properties: only chains of `properties`.
  const walkReachable = (schema: Record<string, unknown>, path: string[]) => {
    if (visited.has(schema)) return;
    visited.add(schema);
    if (path.length > 0 && "x-mcp-header" in schema) {
      const where = path.join(".");
      const nameProblem = headerNameProblem(schema["x-mcp-header"]);
      const type = declaredType(schema);
      if (nameProblem) problems.push(`${where}: ${nameProblem}`);
      else if (!type || !MIRRORABLE.has(type))
        problems.push(`${where}: x-mcp-header is only allowed on string, integer or boolean parameters, not ${type ?? "an untyped one"}`);
      else {
        const name = schema["x-mcp-header"] as string;
        declarations.push({ path, name, header: `Mcp-Param-${name}`, type: type as HeaderDeclaration["type"] });
      }
    }
    for (const kw of NESTING_KEYWORDS) scanUnreachable(schema[kw], [...path, kw]);
    if (isObject(schema.properties)) {
      for (const [key, sub] of Object.entries(schema.properties)) if (isObject(sub)) walkReachable(sub, [...path, key]);
    }
  };

  // Anything under a non-`properties` keyword: any x-mcp-header found there is a violation.
  const scanUnreachable = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) return node.forEach((n, i) => scanUnreachable(n, [...path, String(i)]));
    if (!isObject(node) || visited.has(node)) return;
    visited.add(node);
    if ("x-mcp-header" in node) {
      problems.push(
        `${path.join(".")}: x-mcp-header is only allowed on properties reachable from the root through "properties" alone (not through items, $ref, oneOf/anyOf/allOf, if/then/else)`,
      );
    }
    for (const [k, v] of Object.entries(node)) if (k !== "x-mcp-header") scanUnreachable(v, [...path, k]);
  };

  if (isObject(inputSchema)) walkReachable(inputSchema, []);
  if (isObject(inputSchema) && "x-mcp-header" in inputSchema)
    problems.push("the root schema itself carries x-mcp-header, which is only allowed on properties");

  const seen = new Map<string, string>();
  for (const d of declarations) {
    const key = d.name.toLowerCase();
    const prior = seen.get(key);
    if (prior) problems.push(`${d.path.join(".")}: x-mcp-header "${d.name}" repeats "${prior}" (names must be unique ignoring case)`);
    else seen.set(key, d.name);
  }
  return { declarations, problems };
}

const SENTINEL = /^=\?base64\?.*\?=$/s;

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** Encode a header value as the spec says: plain visible ASCII as is, otherwise `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x21-\x7e]([\x20-\x7e\t]*[\x21-\x7e])?$/.test(value) && !SENTINEL.test(value);
  return plain ? value : `=?base64?${toBase64(value)}?=`;
}

/** Decode a value that may carry the base64 sentinel (for display). Returns undefined when it is not encoded. */
export function decodeHeaderValue(value: string): string | undefined {
  const m = /^=\?base64\?(.*)\?=$/s.exec(value);
  if (!m) return undefined;
  try {
    const bin = atob(m[1]);
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

function valueAt(args: unknown, path: string[]): unknown {
  let cur = args;
  for (const key of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, key)) return undefined;
    cur = cur[key];
  }
  return cur;
}

/** The `Mcp-Param-*` headers for a call's arguments. Absent or null values send no header. */
export function paramHeaders(declarations: HeaderDeclaration[], args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of declarations) {
    const v = valueAt(args, d.path);
    if (v === undefined || v === null) continue;
    if (typeof v === "string") out[d.header] = encodeHeaderValue(v);
    else if (typeof v === "boolean") out[d.header] = v ? "true" : "false";
    else if (typeof v === "number" && Number.isSafeInteger(v)) out[d.header] = String(v);
    // Any other type contradicts the declaration; the server will reject the call, which is the user's experiment to see.
  }
  return out;
}

/**
 * The `Mcp-Param-*` headers a client sends with a `tools/call` to `tool` (its definition from `tools/list`), on the
 * 2026-07-28 era only: x-mcp-header is a modern rule. Used by the proxy on the wire and by the playground's preview.
 */
export function mirroredParamHeaders(
  message: Record<string, unknown>,
  era: "modern" | "legacy",
  tool: Pick<Tool, "inputSchema"> | undefined,
): Record<string, string> {
  if (era !== "modern" || !tool || message.method !== "tools/call") return {};
  return paramHeaders(
    scanHeaderDeclarations(tool.inputSchema).declarations,
    isObject(message.params) ? message.params.arguments : undefined,
  );
}
