import { test } from "node:test";
import assert from "node:assert/strict";
import { classifyResponse, resultTypeWarning } from "./response-kind.ts";

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
  assert.equal(
    k(-32602, "Tool beta_summarize_issue disabled", "tools/call"),
    "unknown-tool",
    "the SDK server's answer for a tool it no longer lists",
  );
  assert.equal(k(-32602, "Invalid arguments", "tools/call"), "invalid-params");
  assert.equal(k(-32601), "method-not-found");
  assert.equal(k(-32020), "header-mismatch");
  assert.equal(k(-32021), "missing-capability");
  assert.equal(k(-32022), "unsupported-version");
  assert.equal(k(-32603), "internal-error");
  assert.equal(k(-32050), "server-defined");
});

test("resultTypeWarning: an unknown or wrongly typed resultType on a modern result is named, with what the spec requires", () => {
  assert.equal(
    resultTypeWarning({ jsonrpc: "2.0", id: 1, result: { resultType: "later", content: [] } }, "modern"),
    'Unknown resultType "later": MCP 2026-07-28 defines "complete" and "input_required" (extensions may add others only when the client advertises them: Toolscope advertises "task" on the playground\'s calls), and a client MUST treat the result as invalid, so Toolscope does not take it as the server\'s answer.',
  );
  assert.match(resultTypeWarning({ result: { resultType: "" } }, "modern") ?? "", /^Unknown resultType "": /);
  assert.match(
    resultTypeWarning({ result: { resultType: "Complete" } }, "modern") ?? "",
    /^Unknown resultType "Complete" \(values are exact: did the server mean "complete"\?\)/,
  );
  assert.match(resultTypeWarning({ result: { resultType: "input-required" } }, "modern") ?? "", /did the server mean "input_required"\?/);
  assert.equal(
    resultTypeWarning({ result: { resultType: 1 } }, "modern"),
    'The result\'s resultType is a number (1), not a string: MCP 2026-07-28 defines "complete" and "input_required", and a client MUST treat the result as invalid, so Toolscope does not take it as the server\'s answer.',
  );
  assert.match(
    resultTypeWarning({ result: { resultType: null } }, "modern") ?? "",
    /^The result's resultType is null \(null\), not a string/,
  );
  assert.match(resultTypeWarning({ result: { resultType: ["complete"] } }, "modern") ?? "", /is an array \(\["complete"\]\)/);
  assert.match(resultTypeWarning({ result: { resultType: { kind: "complete" } } }, "modern") ?? "", /is an object/);
  // The warning agrees with classifyResponse, which shows such a result as invalid.
  assert.equal(classifyResponse({ result: { resultType: "later" } }).kind, "invalid");
});

test("resultTypeWarning: nothing for known values, an absent resultType, errors, no response, or a legacy result", () => {
  assert.equal(resultTypeWarning({ result: { resultType: "complete", content: [] } }, "modern"), undefined);
  assert.equal(resultTypeWarning({ result: { resultType: "input_required", inputRequests: {} } }, "modern"), undefined);
  assert.equal(resultTypeWarning({ result: { content: [] } }, "modern"), undefined, "absent means complete (servers of earlier versions)");
  assert.equal(resultTypeWarning({ error: { code: -32601, message: "nope" } }, "modern"), undefined);
  assert.equal(resultTypeWarning(null, "modern"), undefined);
  assert.equal(resultTypeWarning({ result: "complete" }, "modern"), undefined, "not a result object: classifyResponse reports that");
  assert.equal(resultTypeWarning({ result: { resultType: "task" } }, "legacy"), undefined, "earlier versions have no resultType");
});

test("a task handle: a tools/call may become one where the request declared the tasks extension; nothing else may", () => {
  const handle = { result: { resultType: "task", taskId: "t1", status: "working" } };
  assert.deepEqual(classifyResponse(handle, "tools/call"), { kind: "task" });
  const other = classifyResponse(handle, "prompts/get");
  assert.equal(other.kind, "invalid");
  assert.match(other.kind === "invalid" ? other.reason : "", /only a tools\/call may become a task/);
  assert.equal(resultTypeWarning(handle, "modern", { method: "tools/call", tasksDeclared: true }), undefined);
  assert.match(
    resultTypeWarning(handle, "modern", { method: "tools/call", tasksDeclared: false }) ?? "",
    /did not declare the tasks extension in its _meta/,
  );
  assert.match(
    resultTypeWarning(handle, "modern", { method: "resources/read", tasksDeclared: true }) ?? "",
    /answered resources\/read with a task handle/,
  );
});
