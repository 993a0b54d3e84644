/**
 * What a modern tools/call costs upstream and in its answer when the server's tools/list carries no `ttlMs` (absent means immediately
 * stale): no list walk right after this process listed the server, one walk shared by a burst of calls no one listed
 * for, and a new walk once the floor (TOOLSCOPE_TOOL_DEFINITION_FLOOR_MS) has passed. A real SDK server over HTTP,
 * through the proxy service; the server counts the requests by their Mcp-Method header.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import * as z from "zod";

// Long enough that a loaded CI machine finishes the burst inside it, short enough to wait out once.
const FLOOR_MS = 2_000;
process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_TOOL_DEFINITION_FLOOR_MS = String(FLOOR_MS);
delete process.env.REDIS_URL;

const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { config } = await import("../platform/config.ts");
const { connect, rpc, tools } = await import("./proxy-service.ts");

let served: Awaited<ReturnType<typeof serveFetchHandler>>;
const counts = new Map<string, number>();
const listWalks = () => counts.get("tools/list") ?? 0;

before(async () => {
  const handler = createMcpHandler(() => {
    // No cacheHints: the list carries no ttlMs.
    const server = new McpServer({ name: "no-ttl", version: "1.0.0" }, { capabilities: { tools: { listChanged: false } } });
    server.registerTool("echo", { description: "Echo.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    return server;
  });
  served = await serveFetchHandler({
    fetch(req) {
      const method = req.headers.get("mcp-method") ?? req.method;
      counts.set(method, (counts.get(method) ?? 0) + 1);
      return handler.fetch(req);
    },
  });
});
after(() => served.close());

const ctx = () => ({ config: config(), origin: "http://127.0.0.1:3000", signal: new AbortController().signal });
const call = (i: number) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { text: `t${i}` } } });
/** The same server under another path: a server no cache of this process has seen. */
const serverAt = (path: string) => new URL(path, served.url).toString();

test("no list walk for calls right after the server was listed", async () => {
  const { connection } = await connect({ url: serverAt("/listed"), era: "modern", headers: {} }, ctx());
  await tools({ connection, headers: {} }, ctx());
  counts.clear();
  for (let i = 0; i < 5; i++) {
    const answer = await rpc({ connection, message: call(i), headers: {} }, ctx());
    assert.equal((answer.response?.result as { content: { text: string }[] }).content[0].text, `t${i}`);
  }
  assert.equal(listWalks(), 0);
  assert.equal(counts.get("tools/call"), 5);
});

test("a burst of calls no one listed for shares one walk; after the floor the next call walks again", async () => {
  const { connection } = await connect({ url: serverAt("/cold"), era: "modern", headers: {} }, ctx());
  counts.clear();
  await Promise.all(Array.from({ length: 8 }, (_, i) => rpc({ connection, message: call(i), headers: {} }, ctx())));
  assert.equal(listWalks(), 1, "one walk for eight concurrent calls");
  await rpc({ connection, message: call(9), headers: {} }, ctx());
  assert.equal(listWalks(), 1, "within the floor the walked list is reused");
  await new Promise((r) => setTimeout(r, FLOOR_MS + 50));
  await rpc({ connection, message: call(10), headers: {} }, ctx());
  assert.equal(listWalks(), 2, "past the floor the definitions are stale again");
});

test("other header sets do not share definitions", async () => {
  const { connection } = await connect({ url: serverAt("/headers"), era: "modern", headers: {} }, ctx());
  await tools({ connection, headers: {} }, ctx());
  counts.clear();
  await rpc({ connection, message: call(1), headers: { "x-team": "a" } }, ctx());
  assert.equal(listWalks(), 1, "a call with other headers walks its own list");
});

test("exchanges: false answers without the HTTP exchanges and keeps everything else", async () => {
  const { connection } = await connect({ url: serverAt("/quiet"), era: "modern", headers: {} }, ctx());
  const full = await rpc({ connection, message: call(1), headers: {} }, ctx());
  const quiet = await rpc({ connection, message: call(1), headers: {}, exchanges: false }, ctx());
  assert.ok(full.exchanges.length > 0);
  assert.deepEqual(quiet.exchanges, []);
  assert.deepEqual(quiet.response, full.response);
  assert.deepEqual(quiet.added, full.added, "the additions are still reported (they are read from the recorded POST)");
});
