import { test } from "node:test";
import assert from "node:assert/strict";
import { checkOutput } from "./output-validation.ts";

const tool = {
  name: "t",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { total: { type: "integer" } }, required: ["total"] },
};
const ok = (structuredContent: unknown) => ({ jsonrpc: "2.0", id: 1, result: { content: [], structuredContent } });

test("structuredContent is checked against the outputSchema, every mismatch reported", () => {
  assert.deepEqual(checkOutput(tool, ok({ total: 3 })), { ok: true, mismatches: [] });
  const bad = checkOutput(tool, ok({ total: "3" }));
  assert.equal(bad?.ok, false);
  assert.deepEqual(bad?.mismatches, [{ pointer: "/total", message: "total must be integer" }]);
  assert.match(checkOutput(tool, { jsonrpc: "2.0", id: 1, result: { content: [] } })?.problem ?? "", /no structuredContent/);
});

test("nothing to check: tool errors, JSON-RPC errors, no outputSchema", () => {
  assert.equal(checkOutput(tool, { jsonrpc: "2.0", id: 1, result: { isError: true, content: [] } }), undefined);
  assert.equal(checkOutput(tool, { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "x" } }), undefined);
  assert.equal(checkOutput({ name: "t", inputSchema: {} }, ok({})), undefined);
});

test("an outputSchema left out for the schema limits is skipped with the reason, never compiled", () => {
  const guarded = {
    name: "t",
    inputSchema: { type: "object" },
    outputSchema: { "x-toolscope-omitted": "outputSchema is nested 9,999 levels deep (the limit is 64, TOOLSCOPE_MAX_SCHEMA_DEPTH)" },
  };
  assert.deepEqual(checkOutput(guarded, ok({ anything: true })), {
    ok: false,
    mismatches: [],
    skipped: "structuredContent was not checked: outputSchema is nested 9,999 levels deep (the limit is 64, TOOLSCOPE_MAX_SCHEMA_DEPTH).",
  });
});
