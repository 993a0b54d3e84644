import { test } from "node:test";
import assert from "node:assert/strict";
import type { HttpExchange } from "@/lib/mcp/contract";
import { resolveSseEndpoint, wantsSseFallback } from "./sse-rules.ts";

function post(method: string, status: number, body = "<!DOCTYPE html><pre>Cannot POST /sse</pre>"): HttpExchange {
  return {
    request: { method: "POST", url: "http://x.test/sse", headers: [], body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }) },
    response: { status, statusText: "", headers: [], body, sseEvents: [] },
    startedAt: "",
    durationMs: 1,
  };
}
const jsonRpcError = JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } });

test("fallback: discover and initialize both refused with 400/404/405 and a non-JSON-RPC body", () => {
  for (const status of [400, 404, 405])
    assert.equal(wantsSseFallback("auto", [post("server/discover", status), post("initialize", status)]), true, `status ${status}`);
  assert.equal(wantsSseFallback("legacy", [post("initialize", 405, "")]), true, "an empty body is not a JSON-RPC error");
  assert.equal(wantsSseFallback("auto", [post("server/discover", 400, ""), post("initialize", 404)]), true);
});

test("fallback: never for a modern pin, nor when the server answered or failed otherwise", () => {
  assert.equal(wantsSseFallback("modern", [post("server/discover", 404)]), false, "modern pin");
  assert.equal(wantsSseFallback("auto", [post("server/discover", 404)]), false, "initialize was not tried");
  assert.equal(
    wantsSseFallback("auto", [post("server/discover", 404, jsonRpcError), post("initialize", 404)]),
    false,
    "HTTP-18: 404 + -32601 is a modern server answering",
  );
  assert.equal(wantsSseFallback("legacy", [post("initialize", 400, jsonRpcError)]), false, "a JSON-RPC error to initialize is an answer");
  for (const status of [401, 403, 429, 500, 502])
    assert.equal(wantsSseFallback("auto", [post("server/discover", 404), post("initialize", status)]), false, `status ${status}`);
  const noResponse = { ...post("initialize", 404), response: undefined, error: "connect ECONNREFUSED" };
  assert.equal(wantsSseFallback("legacy", [noResponse]), false, "no response at all");
  assert.equal(wantsSseFallback("legacy", []), false);
});

test("endpoint: resolved against the stream's URL, same origin only", () => {
  const stream = new URL("http://127.0.0.1:3001/sse");
  assert.equal(resolveSseEndpoint("/message?sessionId=abc", stream).href, "http://127.0.0.1:3001/message?sessionId=abc");
  assert.equal(
    resolveSseEndpoint("message?sessionId=abc", new URL("https://x.test/mcp/sse")).href,
    "https://x.test/mcp/message?sessionId=abc",
  );
  assert.equal(resolveSseEndpoint(" http://127.0.0.1:3001/m \n", stream).href, "http://127.0.0.1:3001/m");
  assert.throws(
    () => resolveSseEndpoint("http://evil.test/message", stream),
    /another origin than the server's \(http:\/\/127\.0\.0\.1:3001\)/,
  );
  assert.throws(() => resolveSseEndpoint("//evil.test/message", stream), /points to http:\/\/evil\.test/);
  assert.throws(() => resolveSseEndpoint("https://127.0.0.1:3001/message", stream), /another origin/, "another scheme is another origin");
  assert.throws(() => resolveSseEndpoint("http://127.0.0.1:3002/message", stream), /another origin/, "another port is another origin");
  assert.throws(() => resolveSseEndpoint("http://[::1", stream), /not a URL/);
});
