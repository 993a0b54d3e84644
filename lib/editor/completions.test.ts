import { test } from "node:test";
import assert from "node:assert/strict";
import { completionsAt, escapeSnippet, propertyDetail, type CompletionContext, type CompletionItem } from "./completions.ts";
import type { Tool } from "../mcp/contract.ts";

const issues: Tool = {
  name: "list_issues",
  title: "List issues",
  description: "Lists the issues of a repository.",
  inputSchema: {
    type: "object",
    $defs: { Repo: { type: "object", properties: { owner: { type: "string", description: "Who owns it" } }, required: ["owner"] } },
    properties: {
      status: { type: "string", enum: ["open", "in_progress", "closed"], description: "Filter by status" },
      limit: { type: "integer", default: 10 },
      repo: { $ref: "#/$defs/Repo" },
      mode: { const: "fast" },
    },
    required: ["status"],
  },
};
const ctx: CompletionContext = { tools: [issues, { name: "get_issue", inputSchema: { type: "object" } }], era: "modern" };

/** Completions at the `|` in `text`, plus the text each one replaces. */
function at(marked: string, c = ctx): { items: CompletionItem[]; replaced: (i: CompletionItem) => string } {
  const offset = marked.indexOf("|");
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { items: completionsAt(text, offset, c), replaced: (i) => text.slice(i.range.offset, i.range.offset + i.range.length) };
}

test("method names for the era, replacing the whole string", () => {
  const { items, replaced } = at('{"method": "tools/c|"}');
  const labels = items.map((i) => i.label);
  assert.ok(labels.includes("tools/call") && labels.includes("server/discover"));
  assert.ok(!labels.includes("ping"));
  const callItem = items.find((i) => i.label === "tools/call")!;
  assert.equal(callItem.insertText, '"tools/call"');
  assert.equal(replaced(callItem), '"tools/c"');
  assert.match(callItem.documentation ?? "", /invoke a tool/);
  assert.ok(at('{"method": |}', { ...ctx, era: "legacy" }).items.some((i) => i.label === "ping"));
});

test("tool names inside params.name of tools/call", () => {
  const { items } = at('{"method": "tools/call", "params": {"name": "|"}}');
  assert.deepEqual(
    items.map((i) => [i.label, i.insertText, i.detail]),
    [
      ["list_issues", '"list_issues"', "List issues"],
      ["get_issue", '"get_issue"', undefined],
    ],
  );
  assert.deepEqual(at('{"method": "prompts/get", "params": {"name": "|"}}').items, []);
});

test("argument keys: documented, typed, required first, present keys excluded", () => {
  const { items } = at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"limit": 3, |}}}');
  assert.deepEqual(
    items.map((i) => i.label),
    ["status", "repo", "mode"],
  );
  const status = items[0];
  assert.equal(status.insertText, '"status": "${1:open}"');
  assert.equal(status.snippet, true);
  assert.equal(status.detail, 'string: "open" | "in_progress" | "closed" (required)');
  assert.match(status.documentation ?? "", /Filter by status/);
  assert.match(status.documentation ?? "", /Allowed: `"open"`, `"in_progress"`, `"closed"`/);
  assert.equal(items.find((i) => i.label === "repo")?.insertText, '"repo": {$1}');
});

test("a key being typed is replaced and no second colon is added", () => {
  const { items, replaced } = at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"sta|": "open"}}}');
  const status = items.find((i) => i.label === "status")!;
  assert.equal(replaced(status), '"sta"');
  assert.equal(status.insertText, '"status"');
});

test("nested argument keys follow $ref", () => {
  const { items } = at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"repo": {|}}}}');
  assert.deepEqual(
    items.map((i) => [i.label, i.detail]),
    [["owner", "string (required)"]],
  );
});

test("values: enum, const, default", () => {
  const enumItems = at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"status": "o|"}}}');
  assert.deepEqual(
    enumItems.items.map((i) => i.insertText),
    ['"open"', '"in_progress"', '"closed"'],
  );
  assert.equal(enumItems.replaced(enumItems.items[0]), '"o"');
  assert.deepEqual(
    at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"mode": |}}}').items.map((i) => i.insertText),
    ['"fast"'],
  );
  assert.deepEqual(
    at('{"method": "tools/call", "params": {"name": "list_issues", "arguments": {"limit": |}}}').items.map((i) => [i.insertText, i.detail]),
    [["10", "default"]],
  );
});

test("_meta keys: the protocol's and OpenTelemetry's", () => {
  const labels = at('{"method": "tools/call", "params": {"_meta": {|}}}').items.map((i) => i.label);
  for (const k of [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientInfo",
    "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/logLevel",
    "progressToken",
    "traceparent",
  ]) {
    assert.ok(labels.includes(k), k);
  }
  const legacy = at('{"method": "tools/call", "params": {"_meta": {|}}}', { ...ctx, era: "legacy" }).items.map((i) => i.label);
  assert.ok(legacy.includes("progressToken") && legacy.includes("traceparent"));
  assert.ok(!legacy.includes("io.modelcontextprotocol/logLevel"));
  const levels = at('{"method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/logLevel": |}}}').items.map((i) => i.label);
  assert.ok(levels.includes('"debug"') && levels.includes('"error"'));
});

test("stamped fields are not presented as required on the modern era", () => {
  const meta = at('{"method": "tools/list", "params": {|}}').items.find((i) => i.label === "_meta");
  assert.equal(meta?.detail, "object (Toolscope adds it)");
});

test("top-level members and params keys of the method", () => {
  assert.deepEqual(
    at('{"jsonrpc": "2.0", |}').items.map((i) => i.label),
    ["id", "method", "params"],
  );
  assert.deepEqual(
    at('{"method": "resources/read", "params": {|}}')
      .items.map((i) => i.label)
      .sort(),
    ["_meta", "inputResponses", "requestState", "uri"],
  );
});

test("unknown tool or method: nothing to offer", () => {
  assert.deepEqual(at('{"method": "tools/call", "params": {"name": "nope", "arguments": {|}}}').items, []);
  assert.deepEqual(at('{"method": "acme/x", "params": {|}}').items, []);
});

test("snippet escaping", () => {
  assert.equal(escapeSnippet("a$b}c\\"), "a\\$b\\}c\\\\");
});

test("every argument key gets a type: enum with its values, $ref resolved, oneOf/anyOf as the branch types", () => {
  const tool: Tool = {
    name: "t",
    inputSchema: {
      type: "object",
      $defs: { Status: { enum: ["open", "closed"] }, Size: { type: "integer" } },
      properties: {
        status: { $ref: "#/$defs/Status" },
        level: { enum: [1, 2, 3, 4, 5, 6, 7] },
        size: { $ref: "#/$defs/Size" },
        either: { oneOf: [{ type: "string" }, { $ref: "#/$defs/Size" }] },
        any: { anyOf: [{ type: "boolean" }, { type: "null" }] },
        mode: { const: "fast" },
        free: {},
      },
    },
  };
  const { items } = at('{"method": "tools/call", "params": {"name": "t", "arguments": {|}}}', { tools: [tool], era: "modern" });
  assert.deepEqual(Object.fromEntries(items.map((i) => [i.label, i.detail])), {
    status: 'string: "open" | "closed"',
    level: "integer: 1 | 2 | 3 | 4 | 5 | …",
    size: "integer",
    either: "string | integer",
    any: "boolean | null",
    mode: 'string: "fast"',
    free: "any",
  });
  assert.equal(propertyDetail({}, { type: ["string", "null"], enum: ["a", null] }), 'string | null: "a" | null');
});
