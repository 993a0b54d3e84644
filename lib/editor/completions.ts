/**
 * Completion items for the request editor at a cursor offset, as data. Knows MCP (method catalogue,
 * params and `_meta` keys of the era's schema) and the connected server's tools (names, argument keys,
 * enum/const/default values). The Monaco adapter turns these into `languages.CompletionItem`s.
 */
import { findNodeAtLocation, getLocation, parseTree, type Node as JsonNode } from "jsonc-parser";
import type { Tool } from "../mcp/contract.ts";
import { mcpSchema, methodCatalogue, paramsSchema, type EditorEra } from "./mcp-catalogue.ts";
import type { TextRange } from "./pointer-range.ts";
import { isObject } from "../json/guards.ts";
import { deref, literalValues, propertiesOf, schemaAtPath, typeLabel, type SchemaObject } from "./schema-walk.ts";

export type CompletionKind = "method" | "tool" | "property" | "value" | "meta";

export interface CompletionItem {
  label: string;
  kind: CompletionKind;
  /** What the typed text is matched against (the quoted form, since the range includes the quote). */
  filterText?: string;
  /** Text replacing `range`. In snippet syntax (`$1`, `${1:x}`) when `snippet` is true. */
  insertText: string;
  snippet?: boolean;
  /** The text to replace (the partial word or string under the cursor); may be empty. */
  range: TextRange;
  /** One line shown beside the label (a type, a title). */
  detail?: string;
  /** Markdown. */
  documentation?: string;
  sortText?: string;
}

export interface CompletionContext {
  tools: Tool[];
  era: EditorEra;
}

/** `_meta` keys that are not in the era's schema but that a client may set (OpenTelemetry, SEP-414). */
const EXTRA_META_KEYS: Record<string, string> = {
  traceparent: "W3C Trace Context `traceparent` for OpenTelemetry propagation, e.g. `00-<trace-id>-<span-id>-01`.",
  tracestate: "W3C Trace Context `tracestate` (vendor-specific trace data).",
  baggage: "W3C Baggage for OpenTelemetry propagation.",
};

const STAMPED_META = new Set([
  "io.modelcontextprotocol/protocolVersion",
  "io.modelcontextprotocol/clientInfo",
  "io.modelcontextprotocol/clientCapabilities",
]);

/** Top-level members of a request, in the order people write them. */
const ENVELOPE: { key: string; doc: string; value: string }[] = [
  { key: "jsonrpc", doc: 'Always `"2.0"`.', value: '"2.0"' },
  { key: "id", doc: "The request id (string or integer); Toolscope adds one if missing.", value: "${1:1}" },
  { key: "method", doc: "The MCP method, e.g. `tools/call`.", value: '"$1"' },
  { key: "params", doc: "The method's parameters (an object).", value: "{$1}" },
];

/** Completions at `offset` in `text`. Returns [] where nothing sensible can be offered. */
export function completionsAt(text: string, offset: number, ctx: CompletionContext): CompletionItem[] {
  const loc = getLocation(text, offset);
  const root = parseTree(text);
  const path = loc.path;
  const range = replaceRange(text, offset, loc.previousNode);
  const method = stringAt(root, ["method"]);

  if (loc.isAtPropertyKey) {
    const container = path.slice(0, -1);
    const present = presentKeys(root, container, offset);
    if (container.length === 0) {
      return ENVELOPE.filter((e) => !present.has(e.key)).map((e, i) =>
        keyItem(text, range, e.key, { kind: "property", documentation: e.doc, sortText: String(i), valueSnippet: e.value }),
      );
    }
    const target = schemaFor(container, method, root, ctx);
    if (!target) return [];
    const props = propertiesOf(target.root, target.schema);
    const items: CompletionItem[] = [];
    const isMeta = container.length === 2 && container[0] === "params" && container[1] === "_meta";
    const isMcp = !(method === "tools/call" && container[1] === "arguments");
    for (const p of props.values()) {
      if (present.has(p.name)) continue;
      // The proxy stamps these on the modern era, so the user never has to write them.
      const stamped = isMcp && ctx.era === "modern" && (container.length === 1 ? p.name === "_meta" : isMeta && STAMPED_META.has(p.name));
      const required = p.required && !stamped;
      items.push(
        keyItem(text, range, p.name, {
          kind: isMeta ? "meta" : "property",
          detail: `${propertyDetail(target.root, p.schema)}${required ? " (required)" : stamped ? " (Toolscope adds it)" : ""}`,
          documentation:
            propertyDoc(target.root, p.name, p.schema, required) +
            (stamped ? "\n\nToolscope adds this when sending if you leave it out." : ""),
          sortText: `${required ? 0 : 1}${p.name}`,
          valueSnippet: placeholder(target.root, p.schema),
        }),
      );
    }
    if (isMeta) {
      for (const [key, doc] of Object.entries(EXTRA_META_KEYS)) {
        if (present.has(key) || props.has(key)) continue;
        items.push(
          keyItem(text, range, key, { kind: "meta", detail: "string", documentation: doc, sortText: `2${key}`, valueSnippet: '"$1"' }),
        );
      }
    }
    return items;
  }

  // Value positions.
  if (path.length === 1 && path[0] === "method") {
    return methodCatalogue(ctx.era).map((m, i) => ({
      label: m.method,
      kind: "method" as const,
      insertText: JSON.stringify(m.method),
      filterText: JSON.stringify(m.method),
      range,
      detail: m.kind,
      documentation: m.summary,
      sortText: String(i).padStart(3, "0"),
    }));
  }
  if (path.length === 1 && path[0] === "jsonrpc") {
    return [{ label: '"2.0"', kind: "value", insertText: '"2.0"', filterText: '"2.0"', range }];
  }
  if (method === "tools/call" && path.length === 2 && path[0] === "params" && path[1] === "name") {
    return ctx.tools.map((t) => ({
      label: t.name,
      kind: "tool" as const,
      insertText: JSON.stringify(t.name),
      filterText: JSON.stringify(t.name),
      range,
      detail: typeof t.title === "string" ? t.title : undefined,
      documentation: typeof t.description === "string" ? t.description : undefined,
    }));
  }
  if (path.length >= 2 && path[0] === "params") {
    const target = schemaFor(path, method, root, ctx);
    if (!target) return [];
    return valueItems(target.root, target.schema, range);
  }
  return [];
}

/** The schema (and the root its `$ref`s resolve against) for the value at `path` (a params path). */
function schemaFor(
  path: readonly (string | number)[],
  method: string | undefined,
  root: JsonNode | undefined,
  ctx: CompletionContext,
): { root: unknown; schema: SchemaObject } | undefined {
  if (path[0] !== "params" || !method) return undefined;
  if (method === "tools/call" && path[1] === "arguments") {
    const tool = ctx.tools.find((t) => t.name === stringAt(root, ["params", "name"]));
    if (!tool || !isObject(tool.inputSchema)) return undefined;
    const schema = schemaAtPath(tool.inputSchema, tool.inputSchema, path.slice(2));
    return schema ? { root: tool.inputSchema, schema } : undefined;
  }
  const params = paramsSchema(ctx.era, method);
  if (!params) return undefined;
  const doc = mcpSchema(ctx.era);
  const schema = schemaAtPath(doc, params, path.slice(1));
  return schema ? { root: doc, schema } : undefined;
}

function valueItems(root: unknown, schema: SchemaObject, range: TextRange): CompletionItem[] {
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (value: unknown, detail: string, sort: string) => {
    const json = JSON.stringify(value);
    if (json === undefined || seen.has(json)) return;
    seen.add(json);
    items.push({
      label: json,
      kind: "value",
      insertText: json,
      filterText: json,
      range,
      detail,
      sortText: sort + String(items.length).padStart(4, "0"),
    });
  };
  if ("default" in schema) add(schema.default, "default", "0");
  for (const v of literalValues(root, schema)) add(v, "const" in schema ? "const" : "allowed value", "1");
  if (Array.isArray(schema.examples)) for (const v of schema.examples) add(v, "example", "2");
  return items;
}

/** The text a completion replaces: the string/key under the cursor, else the partial word before it. */
function replaceRange(text: string, offset: number, previous: JsonNode | undefined): TextRange {
  if (
    previous &&
    (previous.type === "string" ||
      previous.type === "property" ||
      previous.type === "number" ||
      previous.type === "boolean" ||
      previous.type === "null") &&
    previous.offset <= offset &&
    offset <= previous.offset + previous.length
  ) {
    return { offset: previous.offset, length: previous.length };
  }
  let start = offset;
  while (start > 0 && /[^\s{}[\],:]/.test(text[start - 1])) start--;
  return { offset: start, length: offset - start };
}

function keyItem(
  text: string,
  range: TextRange,
  key: string,
  o: {
    kind: CompletionKind;
    detail?: string;
    documentation?: string;
    sortText?: string;
    valueSnippet: string;
  },
): CompletionItem {
  // Only add `: value` when the key is not already followed by a colon.
  const after = text.slice(range.offset + range.length).trimStart();
  const quoted = escapeSnippet(JSON.stringify(key));
  const insertText = after.startsWith(":") ? quoted : `${quoted}: ${o.valueSnippet}`;
  return {
    label: key,
    kind: o.kind,
    insertText,
    filterText: JSON.stringify(key),
    snippet: true,
    range,
    detail: o.detail,
    documentation: o.documentation,
    sortText: o.sortText,
  };
}

/** Escape literal text for Monaco snippet syntax. */
/** Enum values shown in a property's detail before "…". */
const MAX_DETAIL_VALUES = 5;

/**
 * The type a property's completion shows, for every property: `$ref` resolved (propertiesOf does), an enum or const as
 * its type and values (`string: "open" | "closed"`), anyOf/oneOf as the branch types (typeLabel).
 */
export function propertyDetail(root: unknown, schema: SchemaObject): string {
  const s = deref(root, schema) ?? schema;
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  if (!values) return typeLabel(root, s);
  const type = typeof s.type === "string" || Array.isArray(s.type) ? typeLabel(root, s) : [...new Set(values.map(jsonType))].join(" | ");
  const shown = values.slice(0, MAX_DETAIL_VALUES).map((v) => JSON.stringify(v));
  return `${type}: ${shown.join(" | ")}${values.length > MAX_DETAIL_VALUES ? " | …" : ""}`;
}

function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : Number.isInteger(v) ? "integer" : typeof v;
}

export function escapeSnippet(s: string): string {
  return s.replace(/[\\$}]/g, "\\$&");
}

/** A snippet value for a property: its default, first enum value, or a type-shaped placeholder. */
function placeholder(root: unknown, schema: SchemaObject): string {
  const s = deref(root, schema) ?? {};
  const literal = "default" in s ? s.default : "const" in s ? s.const : Array.isArray(s.enum) && s.enum.length ? s.enum[0] : undefined;
  if (literal !== undefined) {
    const json = JSON.stringify(literal);
    return typeof literal === "string" ? `"\${1:${escapeSnippet(json.slice(1, -1))}}"` : `\${1:${escapeSnippet(json)}}`;
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return '"$1"';
    case "integer":
    case "number":
      return "${1:0}";
    case "boolean":
      return "${1:false}";
    case "object":
      return "{$1}";
    case "array":
      return "[$1]";
    case "null":
      return "null";
    default:
      return "$1";
  }
}

/** Markdown documentation for a property: description, type, required, enum, default. */
export function propertyDoc(root: unknown, name: string, schema: SchemaObject, required: boolean): string {
  const lines: string[] = [];
  lines.push(`**${name}**: \`${typeLabel(root, schema)}\`${required ? " — required" : " — optional"}`);
  if (typeof schema.description === "string" && schema.description.trim()) lines.push("", schema.description.trim());
  else if (typeof schema.title === "string") lines.push("", schema.title);
  const values = literalValues(root, schema).filter((v) => typeof v !== "boolean" && v !== null);
  if (values.length)
    lines.push(
      "",
      `Allowed: ${values
        .slice(0, 30)
        .map((v) => `\`${JSON.stringify(v)}\``)
        .join(", ")}${values.length > 30 ? ", …" : ""}`,
    );
  if ("default" in schema) lines.push("", `Default: \`${JSON.stringify(schema.default)}\``);
  return lines.join("\n");
}

function stringAt(root: JsonNode | undefined, path: (string | number)[]): string | undefined {
  if (!root) return undefined;
  const node = findNodeAtLocation(root, path);
  return node?.type === "string" ? String(node.value) : undefined;
}

function presentKeys(root: JsonNode | undefined, path: (string | number)[], offset: number): Set<string> {
  const keys = new Set<string>();
  if (!root) return keys;
  const node = path.length ? findNodeAtLocation(root, path) : root;
  if (node?.type !== "object") return keys;
  for (const prop of node.children ?? []) {
    const k = prop.children?.[0];
    // The key under the cursor is the one being typed or replaced, not "present".
    if (k && typeof k.value === "string" && !(k.offset <= offset && offset <= k.offset + k.length)) keys.add(k.value);
  }
  return keys;
}
