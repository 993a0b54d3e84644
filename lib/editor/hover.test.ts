import { test } from "node:test";
import assert from "node:assert/strict";
import { hoverAt } from "./hover.ts";
import type { Tool } from "../mcp/contract.ts";

const issues: Tool = {
  name: "list_issues",
  title: "List issues",
  description: "Lists the issues of a repository.",
  inputSchema: {
    type: "object",
    properties: { status: { type: "string", enum: ["open", "closed"], default: "open", description: "Filter by status" } },
    required: ["status"],
  },
};
const text =
  '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_issues", "arguments": {"status": "open"}, "_meta": {"progressToken": 3}}}';
const hover = (needle: string, era: "modern" | "legacy" = "modern", t = text) =>
  hoverAt(t, t.indexOf(needle) + 1, { tools: [issues], era });

test("an argument key: name, type, required, description, enum, default", () => {
  const h = hover('"status"');
  assert.equal(h?.markdown, '**status**: `string` — required\n\nFilter by status\n\nAllowed: `"open"`, `"closed"`\n\nDefault: `"open"`');
  assert.equal(text.slice(h!.range.offset, h!.range.offset + h!.range.length), '"status"');
});

test("params.name: the tool's title and description", () => {
  assert.equal(hover('"list_issues"')?.markdown, "**List issues** (`list_issues`)\n\nLists the issues of a repository.");
});

test("method: a one-line description, era-aware", () => {
  assert.equal(
    hover('"tools/call"')?.markdown,
    "**tools/call** — MCP 2026-07-28 request\n\nUsed by the client to invoke a tool provided by the server.",
  );
  const ping = '{"method": "ping"}';
  assert.match(hover('"ping"', "modern", ping)?.markdown ?? "", /a request of MCP 2025-11-25, not of 2026-07-28/);
  assert.match(hover('"ping"', "legacy", ping)?.markdown ?? "", /^\*\*ping\*\* — MCP 2025-11-25 request/);
  assert.match(hover('"x/y"', "modern", '{"method": "x/y"}')?.markdown ?? "", /custom method/);
});

test("MCP params and _meta keys are documented from the spec schema", () => {
  assert.match(hover('"progressToken"')?.markdown ?? "", /^\*\*progressToken\*\*: `string \| integer`/);
  assert.match(hover('"arguments"')?.markdown ?? "", /Arguments to use for the tool call/);
  assert.match(hover('"jsonrpc"')?.markdown ?? "", /JSON-RPC 2.0/);
});

test("nothing to say → null", () => {
  assert.equal(hoverAt("", 0, { tools: [], era: "modern" }), null);
  assert.equal(hoverAt(text, 0, { tools: [issues], era: "modern" }), null);
});
