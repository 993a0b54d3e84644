/**
 * Diagnostics for the request editor, as data: JSON syntax → integers JSON.parse would round → JSON-RPC envelope →
 * the MCP schema of the connection's era → the called tool's `inputSchema`. Each diagnostic carries the exact text range of the
 * offending value so an adapter (Monaco, a problems list, a test) can place it without re-parsing.
 */
import { getNodeValue, parseTree, printParseErrorCode, type ParseError, type Node as JsonNode } from "jsonc-parser";
import type { ValidateFunction } from "ajv";
import type { Tool } from "../mcp/contract.ts";
import { stampMessage } from "../mcp/meta.ts";
import { findUnsafeIntegers, unsafeIntegerMessage } from "../mcp/safe-integers.ts";
import { compileSchema, toDiagnostics, type SchemaDiagnostic } from "../schema/validate.ts";
import { ERA_VERSION, mcpSchema, methodCatalogue, methodInfo, otherEra, type EditorEra } from "./mcp-catalogue.ts";
import { nodeRange, parsePointer, pointerRange, propertyNode, type RangeMode, type TextRange } from "./pointer-range.ts";

export type DiagnosticSeverity = "error" | "warning" | "info";
/**
 * `json`: syntax (Monaco's own JSON service marks these too); `precision`: a number JSON.parse would change (an
 * integer beyond ±2^53 − 1); `jsonrpc`: the envelope; `mcp`: the era's schema; `arguments`: the tool's inputSchema.
 */
export type DiagnosticSource = "json" | "precision" | "jsonrpc" | "mcp" | "arguments";

export interface EditorDiagnostic {
  offset: number;
  length: number;
  severity: DiagnosticSeverity;
  message: string;
  source: DiagnosticSource;
  /** Stable machine-readable kind, e.g. `syntax`, `unknown-method`, `unknown-tool`, or an ajv keyword. */
  code?: string;
}

export interface DiagnosticContext {
  tools: Tool[];
  era: EditorEra;
}

const PARSE_OPTIONS = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false } as const;

export const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: "Unexpected character",
  InvalidNumberFormat: "Invalid number",
  PropertyNameExpected: "A property name in double quotes is expected",
  ValueExpected: "A value is expected",
  ColonExpected: "A colon (:) is expected after the property name",
  CommaExpected: "A comma is expected",
  CloseBraceExpected: "A closing brace (}) is expected",
  CloseBracketExpected: "A closing bracket (]) is expected",
  EndOfFileExpected: "Only one JSON value is allowed; unexpected text after it",
  InvalidCommentToken: "Comments are not allowed in JSON",
  UnexpectedEndOfComment: "Comments are not allowed in JSON",
  UnexpectedEndOfString: "Unterminated string",
  UnexpectedEndOfNumber: "Unterminated number",
  InvalidUnicode: "Invalid unicode escape",
  InvalidEscapeCharacter: "Invalid escape character in string",
  InvalidCharacter: "Invalid character in string (control characters must be escaped)",
};

/** Top-level members a JSON-RPC request or notification may have. */
const ENVELOPE_KEYS = new Set(["jsonrpc", "id", "method", "params"]);

/** Diagnose the editor text. Never throws; returns [] for a message with nothing to say. */
export function diagnoseRequest(text: string, ctx: DiagnosticContext): EditorDiagnostic[] {
  // (a) JSON syntax: strict JSON, so comments and trailing commas are errors. Stop at the first stage with errors.
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (text.trim() === "") {
    return [
      {
        offset: 0,
        length: 0,
        severity: "error",
        source: "json",
        code: "empty",
        message: "The request is empty: write a JSON-RPC message, or pick a template",
      },
    ];
  }
  if (errors.length > 0 || !root) return syntaxDiagnostics(text, errors);

  // Integers beyond ±2^53 − 1 anywhere in the message: JSON.parse (ours, and any JavaScript server's) would round
  // them without a word, so each is an error on its literal and Send waits until it is a string or a safe number.
  const out: EditorDiagnostic[] = findUnsafeIntegers(text).map((f) => ({
    offset: f.offset,
    length: f.literal.length,
    severity: "error",
    source: "precision",
    code: "unsafe-integer",
    message: unsafeIntegerMessage([f]),
  }));

  // (b) The JSON-RPC envelope.
  const envelope = checkEnvelope(root, ctx.era, out);
  if (!envelope) return sortByOffset(out);

  // (c) The method's params against the era's MCP schema.
  const message = getNodeValue(root) as Record<string, unknown>;
  const info = methodInfo(ctx.era, envelope.method);
  if (!info) {
    out.push(unknownMethod(envelope.methodNode, envelope.method, ctx.era));
    return sortByOffset(out);
  }
  const stamped = stampMessage(message, ctx.era, () => 1).message;
  for (const d of validateWith(mcpValidator(ctx.era, info.definition), stamped, "")) {
    if (isEnvelopeDiagnostic(d)) continue; // reported by the envelope check, in plainer words
    out.push(place(root, d, "mcp", "error"));
  }

  // (d) tools/call: the tool name and its arguments.
  if (envelope.method === "tools/call") checkToolCall(root, ctx.tools, out);
  return sortByOffset(out);
}

function sortByOffset(diags: EditorDiagnostic[]): EditorDiagnostic[] {
  return diags
    .map((d, i) => [d, i] as const)
    .sort((a, b) => a[0].offset - b[0].offset || a[1] - b[1])
    .map(([d]) => d);
}

function syntaxDiagnostics(text: string, errors: ParseError[]): EditorDiagnostic[] {
  if (errors.length === 0) {
    return [
      { offset: 0, length: Math.min(text.length, 1), severity: "error", source: "json", code: "syntax", message: "Not a JSON value" },
    ];
  }
  const seen = new Set<string>();
  return errors
    .map((e): EditorDiagnostic => {
      const name = printParseErrorCode(e.error);
      let message = SYNTAX_MESSAGES[name] ?? name;
      // jsonc-parser reports a trailing comma as "PropertyNameExpected"/"ValueExpected" right before } or ].
      if ((name === "PropertyNameExpected" || name === "ValueExpected") && /^\s*[}\]]/.test(text.slice(e.offset))) {
        const comma = text.lastIndexOf(",", e.offset);
        if (comma >= 0 && text.slice(comma + 1, e.offset).trim() === "") {
          return {
            offset: comma,
            length: 1,
            severity: "error" as const,
            source: "json" as const,
            code: "syntax",
            message: "Trailing commas are not allowed in JSON",
          };
        }
      }
      if (name === "InvalidSymbol" && text.startsWith("//", e.offset)) message = SYNTAX_MESSAGES.InvalidCommentToken;
      return {
        offset: e.offset,
        length: Math.max(e.length, 1),
        severity: "error" as const,
        source: "json" as const,
        code: "syntax",
        message,
      };
    })
    .filter((d) => {
      // One mistake often yields two parse errors at the same spot (a trailing comma does): report it once.
      const key = `${d.offset}|${d.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

interface Envelope {
  method: string;
  methodNode: JsonNode;
}

function member(obj: JsonNode, key: string): { key: JsonNode; value: JsonNode } | undefined {
  const prop = propertyNode(obj, key);
  const [k, v] = prop?.children ?? [];
  return k && v ? { key: k, value: v } : undefined;
}

function at(
  node: JsonNode,
  mode: RangeMode,
  severity: DiagnosticSeverity,
  source: DiagnosticSource,
  message: string,
  code?: string,
): EditorDiagnostic {
  const r = nodeRange(node, mode);
  return { offset: r.offset, length: r.length, severity, source, message, code };
}

/** Checks jsonrpc/id/method/params; returns undefined when later stages cannot run. */
function checkEnvelope(root: JsonNode, era: EditorEra, out: EditorDiagnostic[]): Envelope | undefined {
  if (root.type === "array") {
    out.push(
      at(
        root,
        "container",
        "error",
        "jsonrpc",
        "JSON-RPC batches (arrays of messages) are not supported since MCP 2025-06-18: send one message at a time",
        "batch",
      ),
    );
    return undefined;
  }
  if (root.type !== "object") {
    out.push(
      at(
        root,
        "value",
        "error",
        "jsonrpc",
        'A JSON-RPC message must be an object with "jsonrpc", "method" and usually "id" and "params"',
        "not-object",
      ),
    );
    return undefined;
  }
  const jsonrpc = member(root, "jsonrpc");
  if (!jsonrpc)
    out.push(
      at(root, "container", "info", "jsonrpc", '"jsonrpc" is missing: Toolscope will add "jsonrpc": "2.0" when sending', "jsonrpc-missing"),
    );
  else if (jsonrpc.value.value !== "2.0" || jsonrpc.value.type !== "string")
    out.push(at(jsonrpc.value, "value", "error", "jsonrpc", 'jsonrpc must be "2.0"', "jsonrpc-version"));

  for (const prop of root.children ?? []) {
    const key = prop.children?.[0];
    if (key && typeof key.value === "string" && !ENVELOPE_KEYS.has(key.value)) {
      const hint =
        key.value === "result" || key.value === "error"
          ? " (that belongs in a response; the editor sends requests)"
          : "; a request has only jsonrpc, id, method and params";
      out.push(at(key, "value", "warning", "jsonrpc", `unexpected member "${key.value}"${hint}`, "unexpected-member"));
    }
  }

  const method = member(root, "method");
  if (!method) {
    out.push(
      at(root, "container", "error", "jsonrpc", '"method" is missing: name the MCP method to call, e.g. "tools/call"', "method-missing"),
    );
    return undefined;
  }
  if (method.value.type !== "string") {
    out.push(at(method.value, "value", "error", "jsonrpc", "method must be a string", "method-type"));
    return undefined;
  }
  const name = String(method.value.value);
  const isNotification = name.startsWith("notifications/");

  const id = member(root, "id");
  if (id) {
    const v = id.value;
    if (isNotification)
      out.push(
        at(
          id.key,
          "value",
          "warning",
          "jsonrpc",
          "notifications have no id: remove it, or the server will treat this as a request",
          "notification-id",
        ),
      );
    else if (v.type === "null")
      out.push(at(v, "value", "error", "jsonrpc", "id must not be null in MCP: use a string or an integer", "id-type"));
    else if (!(v.type === "string" || (v.type === "number" && Number.isInteger(v.value))))
      out.push(at(v, "value", "error", "jsonrpc", "id must be a string or an integer", "id-type"));
  } else if (!isNotification) {
    out.push(at(method.key, "value", "info", "jsonrpc", 'no "id": Toolscope will add one when sending', "id-missing"));
  }

  const params = member(root, "params");
  if (params && params.value.type !== "object") {
    out.push(at(params.value, "value", "error", "jsonrpc", "params must be an object (MCP does not use positional params)", "params-type"));
    return undefined;
  }
  void era;
  return { method: name, methodNode: method.value };
}

function unknownMethod(node: JsonNode, method: string, era: EditorEra): EditorDiagnostic {
  const other = otherEra(era);
  if (methodInfo(other, method)) {
    return at(
      node,
      "value",
      "warning",
      "mcp",
      `"${method}" is a method of MCP ${ERA_VERSION[other]}, not of ${ERA_VERSION[era]} (this connection); it will be sent as a custom method`,
      "other-era-method",
    );
  }
  const near = nearestNames(
    method,
    methodCatalogue(era).map((m) => m.method),
  );
  const hint = near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(" or ")}?)` : "";
  return at(
    node,
    "value",
    "info",
    "mcp",
    `"${method}" is not a method of MCP ${ERA_VERSION[era]}; it will be sent as a custom method${hint}`,
    "unknown-method",
  );
}

function isEnvelopeDiagnostic(d: SchemaDiagnostic): boolean {
  if (d.pointer === "/jsonrpc" || d.pointer === "/id" || d.pointer === "/method") return true;
  return d.pointer === "" && d.keyword === "required" && ["jsonrpc", "id", "method"].includes(String(d.params?.missingProperty));
}

// ---- validation with cached validators ----

const mcpValidators = new Map<string, ValidateFunction | { error: string }>();

/** Compiled once per era and definition; the whole message is validated against `{ $ref: "#/$defs/<def>" }`. */
function mcpValidator(era: EditorEra, definition: string): ValidateFunction | { error: string } {
  const key = `${era}:${definition}`;
  let v = mcpValidators.get(key);
  if (!v) {
    const doc = mcpSchema(era);
    v = compileSchema({ $schema: doc.$schema, $ref: `#/$defs/${definition}`, $defs: doc.$defs });
    mcpValidators.set(key, v);
  }
  return v;
}

/**
 * Run a compiled validator (lib/schema/validate.ts, same messages), prefixing pointers with `base`.
 * A schema that failed to compile yields one `schema-error` diagnostic.
 */
function validateWith(v: ValidateFunction | { error: string }, instance: unknown, base: string): SchemaDiagnostic[] {
  if ("error" in v) return [{ pointer: base, keyword: "schema-error", message: v.error }];
  if (v(instance)) return [];
  return collapseBranches(toDiagnostics(v.errors ?? []), base);
}

/**
 * anyOf/oneOf report every failing branch and then a summary. Keep the summary and drop the branch
 * noise at or below its pointer: "matches none of the allowed shapes" beats five contradicting hints.
 */
function collapseBranches(diags: SchemaDiagnostic[], base: string): SchemaDiagnostic[] {
  const unions = diags.filter((d) => d.keyword === "anyOf" || d.keyword === "oneOf").map((d) => d.pointer);
  const under = (p: string, u: string) => p === u || p.startsWith(u + "/");
  const kept: SchemaDiagnostic[] = [];
  for (const d of diags) {
    if (d.keyword === "anyOf" || d.keyword === "oneOf") {
      if (unions.some((u) => u !== d.pointer && under(d.pointer, u))) continue;
      // Branches told apart by a constant (`"type": "ref/prompt"` | `"ref/resource"`): name the allowed tags.
      const tags = discriminator(diags, d.pointer);
      kept.push(tags ?? d);
      continue;
    }
    if (!unions.some((u) => under(d.pointer, u))) kept.push(d);
  }
  return kept.map((d) => ({ ...d, pointer: base + d.pointer }));
}

/** When ≥2 branches of a union failed on a `const` at the same child pointer, one "must be one of" message there. */
function discriminator(diags: SchemaDiagnostic[], union: string): SchemaDiagnostic | undefined {
  const byPointer = new Map<string, unknown[]>();
  for (const d of diags) {
    if (d.keyword !== "const" || !d.pointer.startsWith(union + "/")) continue;
    const list = byPointer.get(d.pointer) ?? [];
    list.push(d.params?.allowedValue);
    byPointer.set(d.pointer, list);
  }
  for (const [pointer, values] of byPointer) {
    if (values.length < 2) continue;
    const who = parsePointer(pointer).at(-1) ?? "the value";
    const list = values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join(", ");
    return { pointer, keyword: "const", message: `${who} must be one of ${list}`, params: { allowedValues: values } };
  }
  return undefined;
}

/** The last pointer token, for "arguments is missing …". */
function subjectOf(pointer: string): string {
  const tokens = parsePointer(pointer);
  return tokens.length ? tokens[tokens.length - 1] : "the message";
}

/** Place a schema diagnostic on the text: key for unexpected properties, container for missing ones. */
function place(root: JsonNode, d: SchemaDiagnostic, source: DiagnosticSource, severity: DiagnosticSeverity): EditorDiagnostic {
  const mode: RangeMode = d.keyword === "required" ? "container" : d.onKey ? "key" : "value";
  // The root is a parsed value, so there is always a range (the nearest ancestor when the path is missing).
  const r = pointerRange(root, d.pointer, mode) as TextRange;
  let message = d.message;
  if (d.keyword === "required") message = `${subjectOf(d.pointer)} is ${message}`;
  return { offset: r.offset, length: r.length, severity, source, message, code: d.keyword };
}

function checkToolCall(root: JsonNode, tools: Tool[], out: EditorDiagnostic[]): void {
  const params = member(root, "params")?.value;
  if (!params) return;
  const nameNode = member(params, "name")?.value;
  if (!nameNode || nameNode.type !== "string") return; // the MCP schema already said so
  const name = String(nameNode.value);
  if (tools.length === 0) return; // no tool list yet: nothing to compare against
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const near = nearestNames(
      name,
      tools.map((t) => t.name),
    );
    const hint = near.length
      ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
      : `; this server has ${tools.length === 1 ? "one tool" : `${tools.length} tools`}: ${tools
          .slice(0, 5)
          .map((t) => t.name)
          .join(", ")}${tools.length > 5 ? ", …" : ""}`;
    out.push(at(nameNode, "value", "error", "mcp", `unknown tool "${name}"${hint}`, "unknown-tool"));
    return;
  }
  const args = member(params, "arguments");
  if (args && args.value.type !== "object") return; // the MCP schema reported "arguments must be object"
  const instance = args ? getNodeValue(args.value) : {};
  for (const d of validateWith(compileSchema(tool.inputSchema), instance, "/params/arguments")) {
    if (d.keyword === "schema-error") {
      const anchor = args?.key ?? nameNode;
      out.push(
        at(
          anchor,
          "value",
          "warning",
          "arguments",
          `The tool's inputSchema cannot be used to check arguments: ${d.message.replace(/^The schema cannot be compiled: /, "")}`,
          "schema-error",
        ),
      );
      continue;
    }
    out.push(place(root, d, "arguments", "error"));
  }
}

// ---- "did you mean" ----

/** Levenshtein distance, with an early exit once every cell in a row exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** Up to `limit` candidates close to `name`: same name ignoring case/separators first, then by edit distance. */
export function nearestNames(name: string, candidates: readonly string[], limit = 3): string[] {
  const norm = (s: string) => s.toLowerCase().replace(/[-_.\s/]/g, "");
  const n = norm(name);
  const max = Math.max(2, Math.floor(name.length / 3));
  const scored: { c: string; score: number }[] = [];
  for (const c of candidates) {
    if (c === name) continue;
    let score: number;
    if (norm(c) === n) score = 0;
    else {
      const d = editDistance(name.toLowerCase(), c.toLowerCase(), max);
      if (d <= max) score = d;
      else if (n.length >= 3 && (norm(c).includes(n) || n.includes(norm(c)))) score = max + 0.5;
      else continue;
    }
    scored.push({ c, score });
  }
  scored.sort((x, y) => x.score - y.score || x.c.localeCompare(y.c));
  return scored.slice(0, limit).map((s) => s.c);
}
