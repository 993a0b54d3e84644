import { test } from "node:test";
import assert from "node:assert/strict";
import { ContractError, parseRpcRequest } from "./contract-guards.ts";
import {
  applyHeaderOverrides,
  MAX_HEADER_OVERRIDE_VALUE_CHARS,
  MAX_HEADER_OVERRIDES,
  overrideNameProblem,
  transportMcpHeaders,
} from "./wire-headers.ts";

const LIMITS = { maxCount: 20, maxBytes: 16_384 };
const CONNECTION = { v: 1, url: "https://example.com/mcp", era: "modern", protocolVersion: "2026-07-28" };
const body = (headerOverrides: unknown, connection: Record<string, unknown> = CONNECTION) => ({
  connection,
  message: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  headerOverrides,
});

test("only Mcp-Name and Mcp-Param-<token> can be overridden", () => {
  assert.equal(overrideNameProblem("Mcp-Name"), undefined);
  assert.equal(overrideNameProblem("mcp-param-Region"), undefined);
  assert.match(overrideNameProblem("Mcp-Method")!, /Only Mcp-Name and Mcp-Param-\*/);
  assert.match(overrideNameProblem("Authorization")!, /Only Mcp-Name/);
  assert.match(overrideNameProblem("Mcp-Param-")!, /must be an HTTP token/);
  assert.match(overrideNameProblem("Mcp-Param-a b")!, /must be an HTTP token/);
});

test("parseRpcRequest accepts valid overrides and refuses bad names, values, counts, duplicates and stdio", () => {
  assert.deepEqual(parseRpcRequest(body({ "Mcp-Param-Region": "us-east1", "Mcp-Name": "=?base64?eA==?=" }), LIMITS).headerOverrides, {
    "Mcp-Param-Region": "us-east1",
    "Mcp-Name": "=?base64?eA==?=",
  });
  assert.deepEqual(parseRpcRequest(body(undefined), LIMITS).headerOverrides, {});
  const refused = (overrides: unknown, re: RegExp, connection?: Record<string, unknown>) =>
    assert.throws(
      () => parseRpcRequest(body(overrides, connection), LIMITS),
      (e: unknown) => e instanceof ContractError && re.test(e.message),
    );
  refused(["x"], /must be an object/);
  refused({ "Mcp-Session-Id": "x" }, /Only Mcp-Name/);
  refused({ "Mcp-Param-Region": "a\r\nX-Evil: 1" }, /line break/);
  refused({ "Mcp-Param-Region": "Zürich" }, /=\?base64\?/);
  refused({ "Mcp-Param-Region": 5 }, /must be a string/);
  refused({ "Mcp-Param-Region": "x".repeat(MAX_HEADER_OVERRIDE_VALUE_CHARS + 1) }, /at most 1024/);
  refused(
    Object.fromEntries(Array.from({ length: MAX_HEADER_OVERRIDES + 1 }, (_, i) => [`Mcp-Param-P${i}`, "v"])),
    /Too many header overrides/,
  );
  refused({ "Mcp-Param-Region": "a", "mcp-param-region": "b" }, /given twice/);
  refused({ "Mcp-Name": "x" }, /stdio server is reached without HTTP/, { ...CONNECTION, url: "stdio:everything" });
});

test("applyHeaderOverrides replaces ignoring case and keeps the derived value; a new name is appended", () => {
  const { headers, overridden } = applyHeaderOverrides(
    [
      ["mcp-name", "a"],
      ["accept", "x"],
    ],
    { "MCP-NAME": "b", "mcp-param-New": "n" },
  );
  assert.deepEqual(headers, [
    ["mcp-name", "b"],
    ["accept", "x"],
    ["Mcp-Param-New", "n"],
  ]);
  assert.deepEqual(overridden, [
    { name: "mcp-name", value: "b", replaced: "a" },
    { name: "Mcp-Param-New", value: "n" },
  ]);
});

test("transportMcpHeaders: Mcp-Name follows the SDK's table (uri for resources/read, taskId for tasks), base64 when needed", () => {
  const meta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } };
  const ctx = { era: "modern" as const, protocolVersion: "2026-07-28" };
  assert.deepEqual(transportMcpHeaders({ id: 1, method: "resources/read", params: { uri: "file:///a b", ...meta } }, ctx).at(-1), [
    "Mcp-Name",
    "file:///a b",
  ]);
  assert.deepEqual(transportMcpHeaders({ id: 1, method: "tasks/get", params: { taskId: "t1", ...meta } }, ctx).at(-1), ["Mcp-Name", "t1"]);
  assert.deepEqual(transportMcpHeaders({ id: 1, method: "prompts/get", params: { name: " x", ...meta } }, ctx).at(-1), [
    "Mcp-Name",
    `=?base64?${btoa(" x")}?=`,
  ]);
  assert.deepEqual(transportMcpHeaders({ id: 1, method: "tools/list" }, ctx), [], "no envelope claim, no body-derived headers");
  assert.deepEqual(transportMcpHeaders({ id: 1, method: "initialize" }, { era: "legacy", protocolVersion: "2025-11-25", sessionId: "s" }), [
    ["MCP-Protocol-Version", "2025-11-25"],
  ]);
});
