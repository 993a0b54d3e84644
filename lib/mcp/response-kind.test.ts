import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyResponse } from "./response-kind.ts";

test("results, tool errors and input_required", () => {
  assert.deepEqual(classifyResponse({ result: { content: [] } }), { kind: "result", resultType: "complete" });
  assert.equal(classifyResponse({ result: { isError: true, content: [] } }).kind, "tool-error");
  const ir = classifyResponse({ result: { resultType: "input_required", inputRequests: { a: {} }, requestState: "s" } });
  assert.deepEqual(ir, { kind: "input-required", inputRequests: { a: {} }, requestState: "s" });
  assert.equal(classifyResponse({ result: { resultType: "later" } }).kind, "invalid");
});

test("the error taxonomy keeps unknown tool apart from invalid params", () => {
  const k = (code: number, message = "", method?: string) => {
    const r = classifyResponse({ error: { code, message } }, method);
    return r.kind === "rpc-error" ? r.errorKind : r.kind;
  };
  assert.equal(k(-32602, "Unknown tool: nope", "tools/call"), "unknown-tool");
  assert.equal(k(-32602, "Tool beta_summarize_issue disabled", "tools/call"), "unknown-tool", "the SDK server's answer for a tool it no longer lists");
  assert.equal(k(-32602, "Invalid arguments", "tools/call"), "invalid-params");
  assert.equal(k(-32601), "method-not-found");
  assert.equal(k(-32020), "header-mismatch");
  assert.equal(k(-32021), "missing-capability");
  assert.equal(k(-32022), "unsupported-version");
  assert.equal(k(-32603), "internal-error");
  assert.equal(k(-32050), "server-defined");
});
