/**
 * Hover text (Markdown) for the request editor: argument keys show their schema (type, required,
 * description, enum, default), `params.name` shows the tool, `method` shows what the method does.
 */
import { findNodeAtLocation, findNodeAtOffset, getNodePath, parseTree, type Node as JsonNode } from "jsonc-parser";
import type { Tool } from "../mcp/contract.ts";
import { ERA_VERSION, mcpSchema, methodInfo, otherEra, paramsSchema, type EditorEra } from "./mcp-catalogue.ts";
import type { TextRange } from "./pointer-range.ts";
import { propertyDoc } from "./completions.ts";
import { isObject } from "../json/guards.ts";
import { propertiesOf, schemaAtPath, type SchemaObject } from "./schema-walk.ts";

export interface HoverInfo {
  markdown: string;
  /** The word the hover belongs to (Monaco highlights it). */
  range: TextRange;
}

export interface HoverContext {
  tools: Tool[];
  era: EditorEra;
}

const ENVELOPE_DOCS: Record<string, string> = {
  jsonrpc: '**jsonrpc**: always `"2.0"` (JSON-RPC 2.0).',
  id: "**id**: `string | integer`, chosen by the client; the response carries the same id. Toolscope adds one if it is missing.",
  method: "**method**: the MCP method to call, e.g. `tools/call`.",
  params: "**params**: the method's parameters, an object.",
};

/** Hover at `offset`, or null when there is nothing useful to say. */
export function hoverAt(text: string, offset: number, ctx: HoverContext): HoverInfo | null {
  const root = parseTree(text);
  if (!root) return null;
  const node = findNodeAtOffset(root, offset, true);
  if (!node || (node.type !== "string" && node.type !== "number" && node.type !== "boolean" && node.type !== "null")) return null;
  const range = { offset: node.offset, length: node.length };
  const isKey = node.parent?.type === "property" && node.parent.children?.[0] === node;
  const path = getNodePath(node);
  const method = stringAt(root, ["method"]);

  if (isKey && path.length === 1) {
    const doc = ENVELOPE_DOCS[String(path[0])];
    return doc ? { markdown: doc, range } : null;
  }
  if (!isKey && path.length === 1 && path[0] === "method" && node.type === "string") {
    return { markdown: methodHover(String(node.value), ctx.era), range };
  }
  if (!isKey && method === "tools/call" && path.length === 2 && path[0] === "params" && path[1] === "name" && node.type === "string") {
    const tool = ctx.tools.find((t) => t.name === node.value);
    return tool ? { markdown: toolHover(tool), range } : null;
  }
  if (path[0] !== "params" || !method || path.length < 2) return null;
  const doc = propertyHover(path, method, root, ctx);
  return doc ? { markdown: doc, range } : null;
}

function methodHover(method: string, era: EditorEra): string {
  const info = methodInfo(era, method);
  if (info) return `**${method}** — MCP ${ERA_VERSION[era]} ${info.kind}\n\n${info.summary}`;
  const other = methodInfo(otherEra(era), method);
  if (other)
    return `**${method}** — a ${other.kind} of MCP ${ERA_VERSION[otherEra(era)]}, not of ${ERA_VERSION[era]} (this connection)\n\n${other.summary}`;
  return `**${method}** — not a method of MCP ${ERA_VERSION[era]}; it will be sent as a custom method.`;
}

/** Tool title + name + description. Descriptions are untrusted text, shown as Markdown by Monaco (no HTML). */
export function toolHover(tool: Tool): string {
  const title =
    typeof tool.title === "string" && tool.title
      ? tool.title
      : typeof tool.annotations?.title === "string"
        ? tool.annotations.title
        : undefined;
  const head = title ? `**${title}** (\`${tool.name}\`)` : `**${tool.name}**`;
  const desc = typeof tool.description === "string" && tool.description.trim() ? `\n\n${tool.description.trim()}` : "";
  return head + desc;
}

/** Property docs for a key or value under `params` (tool arguments or the MCP params schema). */
function propertyHover(path: (string | number)[], method: string, root: JsonNode, ctx: HoverContext): string | undefined {
  // The property that owns the hovered node: the last string segment.
  let end = path.length;
  while (end > 0 && typeof path[end - 1] === "number") end--;
  if (end < 2) return undefined;
  const name = String(path[end - 1]);
  const parentPath = path.slice(0, end - 1);
  let schemaRoot: unknown;
  let parent: SchemaObject | undefined;
  if (method === "tools/call" && path[1] === "arguments" && end >= 3) {
    const tool = ctx.tools.find((t) => t.name === stringAt(root, ["params", "name"]));
    if (!tool || !isObject(tool.inputSchema)) return undefined;
    schemaRoot = tool.inputSchema;
    parent = schemaAtPath(schemaRoot, tool.inputSchema, parentPath.slice(2));
  } else {
    const params = paramsSchema(ctx.era, method);
    if (!params) return undefined;
    schemaRoot = mcpSchema(ctx.era);
    parent = schemaAtPath(schemaRoot, params, parentPath.slice(1));
  }
  if (!parent) return undefined;
  const prop = propertiesOf(schemaRoot, parent).get(name);
  if (!prop) return undefined;
  return propertyDoc(schemaRoot, name, prop.schema, prop.required);
}

function stringAt(root: JsonNode, path: (string | number)[]): string | undefined {
  const node = findNodeAtLocation(root, path);
  return node?.type === "string" ? String(node.value) : undefined;
}
