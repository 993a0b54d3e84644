import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { codeFor, curlCommand, envName, fetchSnippet, shellQuote, typescriptSnippet, wireRequest, type CodeInput } from "./copy-as-code.ts";

const TOOL = {
  inputSchema: { type: "object", properties: { query: { type: "string" }, region: { type: "string", "x-mcp-header": "Region" } } },
};
const MODERN: CodeInput = {
  endpoint: "https://mcp.example.com/mcp",
  era: "modern",
  protocolVersion: "2026-07-28",
  message: {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "execute_sql", arguments: { query: "SELECT 'it''s'", region: "eu-west1" } },
  },
  tool: TOOL,
  userHeaderNames: ["Authorization", "X-Api-Key"],
};
const LEGACY: CodeInput = {
  endpoint: "http://localhost:8080/mcp",
  era: "legacy",
  protocolVersion: "2025-11-25",
  sessionId: "sess-123",
  message: { jsonrpc: "2.0", id: 4, method: "tools/list", params: {} },
  userHeaderNames: ["Authorization"],
};

test("modern wire request: _meta envelope and the Mcp-* headers in order", () => {
  const { body, headers } = wireRequest(MODERN);
  const meta = (body.params as { _meta: Record<string, unknown> })._meta;
  assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  assert.ok(meta["io.modelcontextprotocol/clientInfo"]);
  assert.deepEqual(
    headers.map(([n]) => n),
    ["Content-Type", "Accept", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name", "Mcp-Param-Region", "Authorization", "X-Api-Key"],
  );
  assert.deepEqual(headers.slice(3, 6), [
    ["Mcp-Method", "tools/call"],
    ["Mcp-Name", "execute_sql"],
    ["Mcp-Param-Region", "eu-west1"],
  ]);
  assert.deepEqual(headers[6], ["Authorization", { env: "AUTHORIZATION" }]);
});

test("legacy wire request: session id and protocol version, no _meta, no Mcp-Method", () => {
  const { body, headers } = wireRequest(LEGACY);
  assert.equal("_meta" in (body.params as object), false);
  assert.deepEqual(
    headers.map(([n]) => n),
    ["Content-Type", "Accept", "MCP-Protocol-Version", "Mcp-Session-Id", "Authorization"],
  );
  assert.match(curlCommand(LEGACY), /-H 'Mcp-Session-Id: sess-123'/);
  assert.match(curlCommand(LEGACY), /-H 'MCP-Protocol-Version: 2025-11-25'/);
});

test("curl: values shell-quoted (a quote in the body survives a real shell), secrets as placeholders", () => {
  const cmd = curlCommand(MODERN);
  assert.match(cmd, /^curl -sS -X POST 'https:\/\/mcp\.example\.com\/mcp'/);
  assert.match(cmd, /-H "Authorization: \$AUTHORIZATION"/);
  assert.match(cmd, /-H "X-Api-Key: \$X_API_KEY"/);
  assert.match(cmd, /-H 'Mcp-Param-Region: eu-west1'/);
  // Run the argument list through sh (printf, not curl) and get the exact JSON back.
  const data = cmd.slice(cmd.indexOf("--data-raw ") + "--data-raw ".length);
  const echoed = execFileSync("sh", ["-c", `printf %s ${data}`]).toString();
  assert.equal(JSON.parse(echoed).params.arguments.query, "SELECT 'it''s'");
  assert.equal(shellQuote("a'b"), `'a'\\''b'`);
});

test("non-ASCII names use the base64 sentinel", () => {
  const { headers } = wireRequest({
    ...MODERN,
    tool: undefined,
    message: { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "file:///café.txt" } },
  });
  const name = headers.find(([n]) => n === "Mcp-Name")![1] as string;
  assert.match(name, /^=\?base64\?.+\?=$/);
});

test("fetch and TypeScript snippets: runnable shapes, never a header value", () => {
  const f = fetchSnippet(MODERN);
  assert.match(f, /"Authorization": process\.env\.AUTHORIZATION \?\? ""/);
  assert.match(f, /"Mcp-Name": "execute_sql"/);
  assert.match(f, /body: JSON\.stringify\(\{/);
  const ts = typescriptSnippet(MODERN);
  assert.match(ts, /from "@modelcontextprotocol\/client"/);
  assert.match(ts, /client\.callTool\(\{\n  "name": "execute_sql",/);
  assert.match(ts, /mode: \{ pin: "2026-07-28" \}/);
  assert.match(ts, /"Authorization": process\.env\.AUTHORIZATION/);
  assert.doesNotMatch(ts, /"_meta"/);
  assert.match(typescriptSnippet(LEGACY), /client\.listTools\(\)/);
  assert.match(typescriptSnippet({ ...LEGACY, message: { method: "vendor/x", params: { a: 1 } } }), /client\.request\(\{/);
  assert.equal(codeFor("curl", LEGACY), curlCommand(LEGACY));
  assert.equal(envName("x-api-key"), "X_API_KEY");
  assert.equal(envName("1-x"), "H_1_X");
});

test("headers come from the transport rules (wire-headers.ts): tasks/* names, none on a notification, no session on initialize", () => {
  const task = wireRequest({
    ...MODERN,
    tool: undefined,
    message: { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: "t-1" } },
  });
  assert.deepEqual(
    task.headers.find(([n]) => n === "Mcp-Name"),
    ["Mcp-Name", "t-1"],
  );
  const note = wireRequest({ ...MODERN, message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } } });
  assert.deepEqual(
    note.headers.map(([n]) => n),
    ["Content-Type", "Accept", "Authorization", "X-Api-Key"],
  );
  const init = wireRequest({ ...LEGACY, message: { jsonrpc: "2.0", id: 1, method: "initialize", params: {} } });
  assert.equal(
    init.headers.some(([n]) => n === "Mcp-Session-Id"),
    false,
  );
});
