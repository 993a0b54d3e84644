/**
 * Header overrides and the send preview's header prediction, against the real SDK transport and the real demo
 * server (in process, SDK createMcpHandler): what the preview says is what crosses the wire.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor, Tool } from "@/lib/mcp/contract";
import { CONTENT_HEADERS, contentHeaders, transportMcpHeaders } from "@/lib/mcp/wire-headers";
import { mirroredParamHeaders } from "@/lib/mcp/x-mcp-header";
import { createDemoServerHandler, type DemoServerHandler } from "@/lib/demo/server";
import { sendRpc } from "./send-rpc.ts";
import type { Target } from "../egress/targets.ts";
import type { UpstreamConfig } from "../upstream.ts";
import { streamableUpstream } from "../transports/upstream-http.ts";
import { sseUpstream } from "../transports/upstream-sse.ts";

/** Only connect and disconnect read the settings; a call reads its own from the options. */
const CFG = { requestTimeoutMs: 5000, maxResponseBytes: 1_000_000 } as UpstreamConfig;

const MODERN: ConnectionDescriptor = { v: 1, url: "builtin:demo", era: "modern", protocolVersion: "2026-07-28" };

let demo: DemoServerHandler;
let tools: Tool[] = [];
/** Headers of every POST that reached the demo server, after the proxy's last touch. */
const wire: Headers[] = [];

const target: Target = {
  url: new URL("http://demo.test/api/demo/mcp"),
  displayUrl: "http://demo.test/api/demo/mcp",
  fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (req.method === "POST") wire.push(req.headers);
    return demo.fetch(req);
  }) as typeof fetch,
};

function send(
  message: Record<string, unknown>,
  extra: { headerOverrides?: Record<string, string>; descriptor?: ConnectionDescriptor; userHeaders?: Record<string, string> } = {},
) {
  return sendRpc({
    upstream: streamableUpstream(target, CFG),
    descriptor: extra.descriptor ?? MODERN,
    message,
    userHeaders: extra.userHeaders ?? {},
    headerOverrides: extra.headerOverrides,
    findTool: async (name) => tools.find((t) => t.name === name),
    timeoutMs: 5000,
    maxBodyBytes: 1_000_000,
  });
}

const sql = (region: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "execute_sql", arguments: { query: "SELECT id FROM issues LIMIT 1", region } },
});

before(async () => {
  demo = createDemoServerHandler({ pageSize: 100 });
  const listed = await send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  tools = (listed.response?.result as { tools: Tool[] }).tools;
  assert.ok(tools.some((t) => t.name === "execute_sql"));
});
after(() => demo.close());

test("without overrides execute_sql is answered, with Mcp-Param-Region mirrored from the arguments", async () => {
  wire.length = 0;
  const res = await send(sql("eu-west1"));
  assert.equal(res.response?.error, undefined, JSON.stringify(res.response));
  assert.equal(wire[0].get("mcp-param-region"), "eu-west1");
  assert.ok(res.added.some((a) => a.name === "Mcp-Param-Region" && a.value === "eu-west1" && !a.overridden));
});

test("an overridden Mcp-Param-Region reaches the demo server, which answers -32020 HeaderMismatch; added and the recording say so", async () => {
  wire.length = 0;
  const res = await send(sql("eu-west1"), { headerOverrides: { "mcp-param-region": "us-east1" } });
  assert.equal(wire[0].get("mcp-param-region"), "us-east1");
  assert.equal((res.response?.error as { code: number }).code, -32020);
  const entry = res.added.find((a) => a.name.toLowerCase() === "mcp-param-region");
  assert.deepEqual(
    { value: entry?.value, overridden: entry?.overridden, replaced: entry?.replaced },
    { value: "us-east1", overridden: true, replaced: "eu-west1" },
  );
  assert.equal(res.added.filter((a) => a.name.toLowerCase() === "mcp-param-region").length, 1, "one entry per header");
  assert.deepEqual(
    res.exchanges[0].request.headers.find(([n]) => n === "mcp-param-region"),
    ["mcp-param-region", "us-east1"],
  );
});

test("an overridden Mcp-Name (which the SDK transport derives and refuses per request) is sent too, and rejected", async () => {
  wire.length = 0;
  const res = await send(sql("eu-west1"), { headerOverrides: { "Mcp-Name": "search_issues" } });
  assert.equal(wire[0].get("mcp-name"), "search_issues");
  assert.equal((res.response?.error as { code: number }).code, -32020);
  const entry = res.added.find((a) => a.name.toLowerCase() === "mcp-name");
  assert.equal(entry?.overridden, true);
  assert.equal(entry?.replaced, "execute_sql");
});

test("an override of a header the request would not carry is added, with nothing replaced", async () => {
  wire.length = 0;
  const res = await send({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { headerOverrides: { "Mcp-Param-Extra": "x" } });
  assert.equal(wire[0].get("mcp-param-extra"), "x");
  const entry = res.added.find((a) => a.name === "Mcp-Param-Extra");
  assert.equal(entry?.overridden, true);
  assert.equal("replaced" in (entry ?? {}), false);
});

/** The preview's prediction for a message: content headers, transport MCP headers, mirrored Mcp-Param-*. */
function predicted(sent: Record<string, unknown>, descriptor: ConnectionDescriptor): Record<string, string> {
  const tool = tools.find((t) => t.name === (sent.params as { name?: unknown } | undefined)?.name);
  const pairs = [
    ...CONTENT_HEADERS,
    ...transportMcpHeaders(sent, descriptor),
    ...Object.entries(mirroredParamHeaders(sent, descriptor.era, tool)),
  ];
  return Object.fromEntries(pairs.map(([n, v]) => [n.toLowerCase(), v]));
}

test("parity: the headers the preview predicts are exactly the ones on the wire (modern call with non-ASCII, list, notification)", async () => {
  const messages: Record<string, unknown>[] = [
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "execute_sql", arguments: { query: "SELECT 1", region: "eu-west1 ü" } },
    },
    { jsonrpc: "2.0", id: 4, method: "tools/list" },
    { method: "tools/call", params: { name: "get_issue", arguments: { id: 1 } } },
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } },
  ];
  for (const message of messages) {
    wire.length = 0;
    const res = await send(message);
    const onWire = Object.fromEntries([...wire[0].entries()].filter(([n]) => n !== "content-length"));
    assert.deepEqual(onWire, predicted(res.sent as Record<string, unknown>, MODERN), JSON.stringify(message));
  }
});

test("parity on a legacy session: version and session headers, no Mcp-Method/Mcp-Param", async () => {
  const init = await demo.fetch(
    new Request(target.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "parity-test", version: "0" } },
      }),
    }),
  );
  const sessionId = init.headers.get("mcp-session-id");
  await init.body?.cancel();
  assert.ok(sessionId, "the demo's legacy endpoint gives a session");
  const legacy: ConnectionDescriptor = { v: 1, url: "builtin:demo", era: "legacy", protocolVersion: "2025-11-25", sessionId };
  wire.length = 0;
  const res = await send(sql("eu-west1"), { descriptor: legacy });
  const onWire = Object.fromEntries([...wire[0].entries()].filter(([n]) => n !== "content-length"));
  assert.deepEqual(onWire, predicted(res.sent as Record<string, unknown>, legacy));
  assert.equal(onWire["mcp-param-region"], undefined);
});

test("parity on HTTP+SSE (2024-11-05): the message POST carries the content headers and the negotiated version, as predicted", async () => {
  const posts: { headers: http.IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
  let stream: http.ServerResponse | undefined;
  const server = http.createServer((req, res) => {
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      stream = res;
      res.write("event: endpoint\ndata: /message?session=1\n\n");
      return;
    }
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const m = JSON.parse(text) as Record<string, unknown>;
      posts.push({ headers: req.headers, body: m });
      res.writeHead(202).end();
      const answer =
        m.method === "initialize"
          ? { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: "sse-parity", version: "1" } }
          : { content: [] };
      if (m.id !== undefined) stream?.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: m.id, result: answer })}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`);
    const sseTarget: Target = { url, displayUrl: url.toString(), fetch };
    const descriptor: ConnectionDescriptor = { v: 1, url: url.toString(), era: "legacy", protocolVersion: "2024-11-05", transport: "sse" };
    const res = await sendRpc({
      upstream: sseUpstream(sseTarget, CFG),
      descriptor,
      message: sql("eu-west1"),
      userHeaders: {},
      findTool: async () => undefined,
      timeoutMs: 5000,
      maxBodyBytes: 1_000_000,
    });
    const post = posts.find((p) => p.body.method === "tools/call")!;
    const mcpish = Object.fromEntries(
      Object.entries(post.headers).filter(([n]) => n === "content-type" || n === "accept" || n.startsWith("mcp-")),
    );
    const expected = Object.fromEntries(
      [...contentHeaders("sse"), ...transportMcpHeaders(res.sent as Record<string, unknown>, { ...descriptor, sse: true })].map(
        ([n, v]) => [n.toLowerCase(), v],
      ),
    );
    assert.deepEqual(mcpish, expected);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
