import { test } from "node:test";
import assert from "node:assert/strict";
import { parseConnectRequest, parseRpcAnswerRequest, parseRpcRequest, parseServerUrl, parseUserHeaders } from "./contract-guards.ts";

const limits = { maxCount: 3, maxBytes: 100 };

test("urls: http(s) or builtin, never credentials or other schemes", () => {
  assert.equal(parseServerUrl(" https://x.test/mcp#frag "), "https://x.test/mcp");
  assert.equal(parseServerUrl("builtin:demo"), "builtin:demo");
  assert.throws(() => parseServerUrl("file:///etc/passwd"), /Only http/);
  assert.throws(() => parseServerUrl("https://u:p@x.test/"), /credentials in a header/);
  assert.throws(() => parseServerUrl("not a url"), /not a valid URL/);
  assert.throws(() => parseServerUrl(undefined), /"url" is required/);
});

test("headers: tokens only, no line breaks, within limits, proxy-owned ones refused", () => {
  assert.deepEqual(parseUserHeaders({ Authorization: "Bearer x" }, limits), { Authorization: "Bearer x" });
  assert.throws(() => parseUserHeaders({ "Bad Name": "x" }, limits), /not a valid HTTP header name/);
  assert.throws(() => parseUserHeaders({ A: "x\r\nInjected: 1" }, limits), /line break/);
  assert.throws(() => parseUserHeaders({ "Mcp-Session-Id": "x" }, limits), /set by the proxy/);
  assert.throws(() => parseUserHeaders({ A: "1", B: "2", C: "3", D: "4" }, limits), /at most 3/);
  assert.throws(() => parseUserHeaders({ A: "x".repeat(200) }, limits), /at most 100/);
});

test("era defaults to auto and rejects unknown values", () => {
  assert.equal(parseConnectRequest({ url: "https://x.test" }, limits).era, "auto");
  assert.throws(() => parseConnectRequest({ url: "https://x.test", era: "future" }, limits), /must be one of auto, modern, legacy/);
});

test("connect roots: file:// URIs with optional names, bounded, each problem named", () => {
  const roots = [{ uri: "file:///home/me/project", name: "project" }, { uri: "file:///tmp" }];
  assert.deepEqual(parseConnectRequest({ url: "https://x.test", roots }, limits).roots, roots);
  assert.equal(parseConnectRequest({ url: "https://x.test" }, limits).roots, undefined);
  assert.throws(() => parseConnectRequest({ url: "https://x.test", roots: "file:///a" }, limits), /"roots" must be a list/);
  assert.throws(
    () => parseConnectRequest({ url: "https://x.test", roots: [{ uri: "https://a" }] }, limits),
    /"roots\[0\]\.uri" must be a file:\/\/ URI/,
  );
  assert.throws(() => parseConnectRequest({ url: "https://x.test", roots: [{ uri: "file:///a", name: 3 }] }, limits), /"roots\[0\]\.name"/);
  const many = Array.from({ length: 65 }, (_, i) => ({ uri: `file:///r${i}` }));
  assert.throws(() => parseConnectRequest({ url: "https://x.test", roots: many }, limits), /65 entries; at most 64/);
});

test("rpc: one message object with a method", () => {
  const connection = { v: 1, url: "builtin:demo", era: "modern", protocolVersion: "2026-07-28" };
  assert.equal(parseRpcRequest({ connection, message: { method: "tools/list" } }, limits).message.method, "tools/list");
  assert.throws(() => parseRpcRequest({ connection, message: [] }, limits), /batches/);
  assert.equal(parseRpcRequest({ connection, message: { method: "ping" }, exchanges: false }, limits).exchanges, false);
  assert.equal(parseRpcRequest({ connection, message: { method: "ping" } }, limits).exchanges, undefined);
  assert.throws(
    () => parseRpcRequest({ connection, message: { method: "ping" }, exchanges: "no" }, limits),
    /"exchanges" must be true or false/,
  );
  assert.throws(() => parseRpcRequest({ connection, message: { result: {} } }, limits), /must be a string/);
  assert.throws(
    () => parseRpcRequest({ connection: { ...connection, sessionId: "a\nb" }, message: { method: "x" } }, limits),
    /visible ASCII/,
  );
});

test('descriptor: the HTTP+SSE marker is kept, only as "sse" on a legacy connection', () => {
  const connection = { v: 1, url: "https://x.test/sse", era: "legacy", protocolVersion: "2025-11-25", transport: "sse" };
  assert.equal(parseRpcRequest({ connection, message: { method: "tools/list" } }, limits).connection.transport, "sse");
  assert.equal(
    "transport" in parseRpcRequest({ connection: { ...connection, transport: undefined }, message: { method: "x" } }, limits).connection,
    false,
  );
  assert.throws(
    () => parseRpcRequest({ connection: { ...connection, transport: "websocket" }, message: { method: "x" } }, limits),
    /can only be "sse"/,
  );
  assert.throws(
    () =>
      parseRpcRequest({ connection: { ...connection, era: "modern", protocolVersion: "2026-07-28" }, message: { method: "x" } }, limits),
    /on a legacy connection/,
  );
});

test("the MCP Apps switch: a connect may say apps true or false; a descriptor keeps only apps: false", () => {
  assert.equal(parseConnectRequest({ url: "https://x.test", apps: false }, limits).apps, false);
  assert.equal("apps" in parseConnectRequest({ url: "https://x.test", apps: true }, limits), false, "true is the default: not carried");
  assert.throws(() => parseConnectRequest({ url: "https://x.test", apps: "no" }, limits), /"apps" must be true or false/);
  const connection = { v: 1, url: "https://x.test/mcp", era: "modern", protocolVersion: "2026-07-28" };
  assert.equal(parseRpcRequest({ connection: { ...connection, apps: false }, message: { method: "x" } }, limits).connection.apps, false);
  assert.equal("apps" in parseRpcRequest({ connection, message: { method: "x" } }, limits).connection, false);
  assert.throws(
    () => parseRpcRequest({ connection: { ...connection, apps: true }, message: { method: "x" } }, limits),
    /"connection.apps" can only be false/,
  );
});

test("rpc answer: `prepared` is true or absent; it travels with the answer", () => {
  const ids = { streamId: "00000000-0000-4000-8000-000000000001", pendingId: "00000000-0000-4000-8000-000000000002" };
  const response = { result: { action: "accept", content: {} } };
  assert.deepEqual(parseRpcAnswerRequest({ ...ids, response, prepared: true }), { ...ids, response, prepared: true });
  assert.deepEqual(parseRpcAnswerRequest({ ...ids, response }), { ...ids, response });
  assert.throws(() => parseRpcAnswerRequest({ ...ids, response, prepared: "yes" }), /"prepared" is true .* or left out/);
});
