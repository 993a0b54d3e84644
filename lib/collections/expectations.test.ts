import { test } from "node:test";
import assert from "node:assert/strict";
import { evaluateExpectation, type CallOutcome } from "./expectations.ts";
import type { Expectation } from "./format.ts";
import type { Tool } from "../mcp/contract.ts";

const issue = { id: 7, status: "open", created_at: "2026-01-01T00:00:00Z" };
const tools = [
  {
    name: "search",
    inputSchema: { type: "object" },
    outputSchema: { type: "object", properties: { total: { type: "integer" } }, required: ["total"] },
  },
] as unknown as Tool[];

const ok: CallOutcome = {
  request: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search", arguments: {} } },
  response: {
    jsonrpc: "2.0",
    id: 1,
    result: { content: [{ type: "text", text: JSON.stringify(issue) }], structuredContent: { total: 3 } },
  },
  durationMs: 12,
  tools,
};
const rpcError: CallOutcome = { ...ok, response: { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: limit" } } };
const toolError: CallOutcome = {
  ...ok,
  response: { jsonrpc: "2.0", id: 1, result: { isError: true, content: [{ type: "text", text: "boom" }] } },
};

/** Each kind: an outcome it passes on, one it fails on, and what the failure's message must say. */
const CASES: { e: Expectation; pass: CallOutcome; fail: CallOutcome; says: RegExp }[] = [
  { e: { kind: "no-error" }, pass: ok, fail: rpcError, says: /answered error -32602: "Invalid params: limit"/ },
  { e: { kind: "error", code: -32602 }, pass: rpcError, fail: ok, says: /answered result/ },
  {
    e: { kind: "error", code: -32601 },
    pass: { ...rpcError, response: { error: { code: -32601, message: "" } } },
    fail: rpcError,
    says: /code is -32602/,
  },
  { e: { kind: "is-error", value: false }, pass: ok, fail: toolError, says: /isError is true; text: "boom"/ },
  { e: { kind: "is-error", value: true }, pass: toolError, fail: ok, says: /isError is false/ },
  {
    e: { kind: "output-schema" },
    pass: ok,
    fail: { ...ok, response: { result: { structuredContent: { total: "3" } } } },
    says: /structuredContent is not valid: \/total: total must be integer/,
  },
  {
    e: { kind: "schema", schema: { type: "object", required: ["total"] } },
    pass: ok,
    fail: { ...ok, response: { result: { structuredContent: {} } } },
    says: /\{\} is not valid: \(root\): missing required property "total"/,
  },
  {
    e: { kind: "equals", pointer: "/result/content/0/text/status", value: "open" },
    pass: ok,
    fail: { ...ok, response: { result: { content: [{ type: "text", text: '{"status":"closed"}' }] } } },
    says: /expected "open", got "closed"/,
  },
  {
    e: { kind: "equals", pointer: "/result/nothing", value: 1 },
    pass: { ...ok, response: { result: { nothing: 1 } } },
    fail: ok,
    says: /^nothing at \/result\/nothing: \/result has content, structuredContent$/,
  },
  {
    e: { kind: "matches", pointer: "/result/content/0/text/created_at", pattern: "^2026-" },
    pass: ok,
    fail: { ...ok, response: { result: { content: [{ type: "text", text: '{"created_at":"1999"}' }] } } },
    says: /"1999" does not match/,
  },
  {
    e: { kind: "present", pointer: "/result/structuredContent/total" },
    pass: ok,
    fail: toolError,
    says: /nothing at \/result\/structuredContent\/total/,
  },
  { e: { kind: "absent", pointer: "/result/isError" }, pass: ok, fail: toolError, says: /present: true/ },
  { e: { kind: "text-contains", text: "open" }, pass: ok, fail: toolError, says: /not found in the text: "boom"/ },
  { e: { kind: "text-matches", pattern: "BOOM", flags: "i" }, pass: toolError, fail: ok, says: /not found in the text/ },
  { e: { kind: "tool-listed", tool: "search" }, pass: ok, fail: { ...ok, tools: [] }, says: /it is not listed \(tools: \[\]\)/ },
  { e: { kind: "tool-listed", tool: "search", listed: false }, pass: { ...ok, tools: [] }, fail: ok, says: /it is listed/ },
  {
    e: { kind: "tool-listed", tool: "search" },
    pass: ok,
    fail: { ...ok, tools: { error: "refused" } },
    says: /tools\/list failed: refused/,
  },
  { e: { kind: "latency", maxMs: 50 }, pass: ok, fail: { ...ok, durationMs: 80.4 }, says: /took 80 ms, over the 50 ms budget/ },
  {
    e: { kind: "unchanged", recorded: ok.response!.result, volatile: ["/content/0/text/created_at"] },
    pass: {
      ...ok,
      response: {
        result: { content: [{ type: "text", text: JSON.stringify({ ...issue, created_at: "later" }) }], structuredContent: { total: 3 } },
      },
    },
    fail: {
      ...ok,
      response: {
        result: { content: [{ type: "text", text: JSON.stringify({ ...issue, status: "closed" }) }], structuredContent: { total: 3 } },
      },
    },
    says: /changed at \/content\/0\/text\/status: recorded "open", now "closed"/,
  },
];

for (const { e, pass, fail, says } of CASES) {
  test(`${e.kind}: passes and fails with a message naming it and the actual value`, () => {
    const good = evaluateExpectation(e, pass);
    assert.equal(good.pass, true, good.message);
    const bad = evaluateExpectation(e, fail);
    assert.equal(bad.pass, false);
    assert.match(bad.message, says);
    assert.equal(bad.kind, e.kind);
    assert.ok(bad.label.length > 3, "a label names the expectation");
  });
}

test("a long actual value is cut short in the message", () => {
  const long = "x".repeat(5000);
  const r = evaluateExpectation({ kind: "equals", pointer: "/result/v", value: "y" }, { ...ok, response: { result: { v: long } } });
  assert.ok(r.message.length < 200, r.message);
  assert.match(r.message, /…$/);
});
