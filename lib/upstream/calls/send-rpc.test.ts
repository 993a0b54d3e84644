import { test } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor, Tool } from "@/lib/mcp/contract";
import { ProxyError } from "../errors/proxy-error.ts";
import { refuseExcludedTool, sendRpc } from "./send-rpc.ts";
import type { Target } from "../egress/targets.ts";
import type { UpstreamConfig } from "../upstream.ts";
import { streamableUpstream } from "../transports/upstream-http.ts";

const VALID: Tool = {
  name: "valid_tool",
  inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
};
const INVALID: Tool = {
  name: "invalid_number_header",
  inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } },
};

const MODERN: ConnectionDescriptor = { v: 1, url: "http://mcp.test/mcp", era: "modern", protocolVersion: "2026-07-28" };
const LEGACY: ConnectionDescriptor = { v: 1, url: "http://mcp.test/mcp", era: "legacy", protocolVersion: "2025-11-25", sessionId: "s1" };

/** A target that answers every POST with an empty tool result and records what was sent. */
function recordingTarget(): { target: Target; sent: { headers: Headers; body: Record<string, unknown> }[] } {
  const sent: { headers: Headers; body: Record<string, unknown> }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const body = (await req.json()) as Record<string, unknown>;
    sent.push({ headers: req.headers, body });
    return Response.json({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", content: [] } });
  }) as typeof fetch;
  return { target: { url: new URL("http://mcp.test/mcp"), displayUrl: "http://mcp.test/mcp", fetch: fetchImpl }, sent };
}

function call(name: string, args: Record<string, unknown>) {
  return { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
}

/** Only connect and disconnect read the settings; a call reads its own from the options. */
const CFG = { requestTimeoutMs: 5000, maxResponseBytes: 1_000_000 } as UpstreamConfig;

function options(descriptor: ConnectionDescriptor, target: Target, message: Record<string, unknown>) {
  return {
    upstream: streamableUpstream(target, CFG),
    descriptor,
    message,
    userHeaders: {},
    findTool: async (name: string) => [VALID, INVALID].find((t) => t.name === name),
    timeoutMs: 5000,
    maxBodyBytes: 1_000_000,
  };
}

test("refuseExcludedTool: a modern call to a tool with invalid x-mcp-header is refused with the reason; valid, unknown and legacy pass", () => {
  assert.throws(
    () => refuseExcludedTool("modern", INVALID),
    (err: unknown) =>
      err instanceof ProxyError && err.kind === "bad-request" && /invalid_number_header/.test(err.message) && /score/.test(err.message),
  );
  assert.doesNotThrow(() => refuseExcludedTool("modern", VALID));
  assert.doesNotThrow(() => refuseExcludedTool("modern", undefined));
  assert.doesNotThrow(() => refuseExcludedTool("legacy", INVALID));
});

test("sendRpc: a hand-typed modern tools/call to an excluded tool never reaches the server", async () => {
  const { target, sent } = recordingTarget();
  await assert.rejects(
    sendRpc(options(MODERN, target, call("invalid_number_header", { score: 1.5 }))),
    (err: unknown) => err instanceof ProxyError && err.kind === "bad-request",
  );
  assert.equal(sent.length, 0);
});

test("sendRpc: a callable tool is sent with its Mcp-Param-* header", async () => {
  const { target, sent } = recordingTarget();
  const res = await sendRpc(options(MODERN, target, call("valid_tool", { region: "us-west1" })));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].headers.get("mcp-param-region"), "us-west1");
  assert.deepEqual((res.response?.result as { content: unknown[] }).content, []);
});

test("sendRpc: on a legacy session the same call is sent (x-mcp-header is a 2026-07-28 rule; no Mcp-Param-* there)", async () => {
  const { target, sent } = recordingTarget();
  await sendRpc(options(LEGACY, target, call("invalid_number_header", { score: 1.5 })));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].headers.get("mcp-param-score"), null);
});

test("a modern stream that breaks the rules comes back with protocolWarnings; the same stream from a legacy server does not", async () => {
  const frame = (m: unknown) => `event: message\ndata: ${JSON.stringify(m)}\n\n`;
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = (await new Request(input, init).json()) as Record<string, unknown>;
    const stream = [
      frame({ jsonrpc: "2.0", id: 77, method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } }),
      frame({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "unasked" } }),
      frame({ jsonrpc: "2.0", id: body.id, result: { content: [] } }),
    ].join("");
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  }) as typeof fetch;
  const target: Target = { url: new URL("http://mcp.test/mcp"), displayUrl: "http://mcp.test/mcp", fetch: fetchImpl };
  const modern = await sendRpc(options(MODERN, target, call("valid_tool", { region: "eu" })));
  assert.deepEqual(modern.response, { jsonrpc: "2.0", id: 1, result: { content: [] } });
  assert.equal(modern.protocolWarnings?.length, 2);
  assert.match(modern.protocolWarnings![0]!, /sampling\/createMessage/);
  assert.match(modern.protocolWarnings![1]!, /set no io\.modelcontextprotocol\/logLevel/);
  const legacy = await sendRpc(options(LEGACY, target, call("valid_tool", { region: "eu" })));
  assert.equal(legacy.protocolWarnings, undefined);
});
