import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor } from "@/lib/mcp/contract";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type FetchHandler, type ServedHandler } from "@/lib/demo/node-http-adapter";
import type { ApiContext } from "./api-route.ts";
import { config } from "./config.ts";
import { connect, disconnect, rpc, tools } from "./proxy-service.ts";
import { sessionExpired } from "./session-recovery.ts";

const ctx: ApiContext = { config: config(), origin: "http://localhost:3000", signal: new AbortController().signal };
const served: ServedHandler[] = [];
const handlers: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(served.map((s) => s.close()));
  await Promise.all(handlers.map((h) => h.close()));
});

/** A real demo server over HTTP, optionally behind a wrapper that changes how it answers some requests. */
async function serveDemo(wrap?: (inner: FetchHandler) => FetchHandler): Promise<{ url: string; log: { method: string; rpc?: string; session: string | null; status: number }[] }> {
  const demo = createDemoServerHandler();
  handlers.push(demo);
  const log: { method: string; rpc?: string; session: string | null; status: number }[] = [];
  const outer = wrap ? wrap(demo) : demo;
  const s = await serveFetchHandler({
    async fetch(req) {
      const rpcMethod = req.method === "POST" ? ((await req.clone().json().catch(() => ({}))) as { method?: string }).method : undefined;
      const res = await outer.fetch(req);
      log.push({ method: req.method, rpc: rpcMethod, session: req.headers.get("mcp-session-id"), status: res.status });
      return res;
    },
  });
  served.push(s);
  return { url: s.url.toString(), log };
}

async function legacyConnect(url: string): Promise<ConnectionDescriptor> {
  const { connection } = await connect({ url, era: "legacy", headers: {} }, ctx);
  assert.equal(connection.era, "legacy");
  assert.ok(connection.sessionId, "the demo mints a session at initialize");
  return connection;
}

const searchCall = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "search_issues", arguments: { query: "" } } };

describe("legacy session expiry (real demo sessions)", () => {
  test("after the session is ended (DELETE), /api/rpc starts a new session, retries once and returns the new descriptor", async () => {
    const { url, log } = await serveDemo();
    const old = await legacyConnect(url);
    const ended = await disconnect({ connection: old, headers: {} }, ctx);
    assert.equal(ended.ended, true);
    assert.equal(ended.exchanges[0]?.request.method, "DELETE");

    const before = log.length;
    const res = await rpc({ connection: old, message: searchCall, headers: {} }, ctx);
    assert.ok(res.response && "result" in res.response, `the retried call answered: ${JSON.stringify(res.response)}`);
    assert.equal(res.response?.id, 7);
    assert.ok(res.connection, "a replacement descriptor");
    assert.equal(res.connection.era, "legacy");
    assert.ok(res.connection.sessionId && res.connection.sessionId !== old.sessionId);
    assert.match(res.notes?.[0] ?? "", /legacy session had expired; Toolscope started a new one \(Mcp-Session-Id /);
    const wire = log.slice(before);
    // A legacy call goes straight out (no tool lookup): its 404 on the old session triggers the recovery.
    assert.deepEqual([wire[0]?.status, wire[0]?.session, wire[1]?.rpc], [404, old.sessionId, "initialize"]);
    assert.equal(wire.filter((e) => e.rpc === "initialize").length, 1, "exactly one new session");
    assert.deepEqual(
      wire.filter((e) => e.rpc === "tools/call").map((e) => [e.status, e.session]),
      [[404, old.sessionId], [200, res.connection.sessionId]],
      "refused on the old session, sent once more on the new one",
    );
    assert.ok(res.exchanges.some((e) => e.response?.status === 404), "the 404 is in the reported exchanges");

    // The new descriptor works as is: no further recovery.
    const next = await rpc({ connection: res.connection, message: searchCall, headers: {} }, ctx);
    assert.ok(next.response && "result" in next.response);
    assert.equal(next.connection, undefined);
    assert.equal(next.notes, undefined);
  });

  test("a message without tool lookup: the 404 to the message itself triggers one re-initialize and one resend", async () => {
    const { url, log } = await serveDemo();
    const old = await legacyConnect(url);
    await disconnect({ connection: old, headers: {} }, ctx);
    const before = log.length;
    const res = await rpc({ connection: old, message: { jsonrpc: "2.0", id: 3, method: "tools/list" }, headers: {} }, ctx);
    assert.ok(res.response && "result" in res.response);
    assert.deepEqual(
      log.slice(before).filter((e) => e.method === "POST").map((e) => `${e.rpc}:${e.status}`),
      ["tools/list:404", "initialize:200", "notifications/initialized:202", "tools/list:200"],
    );
    assert.equal(res.connection?.era, "legacy");
  });

  test("/api/tools recovers the same way", async () => {
    const { url } = await serveDemo();
    const old = await legacyConnect(url);
    await disconnect({ connection: old, headers: {} }, ctx);
    const list = await tools({ connection: old, headers: {} }, ctx);
    assert.ok(list.tools.some((t) => t.name === "search_issues"));
    assert.ok(list.connection?.sessionId && list.connection.sessionId !== old.sessionId);
    assert.equal(list.notes?.length, 1);
  });

  test("a live session is used as is", async () => {
    const { url } = await serveDemo();
    const live = await legacyConnect(url);
    const res = await rpc({ connection: live, message: searchCall, headers: {} }, ctx);
    assert.ok(res.response && "result" in res.response);
    assert.equal(res.connection, undefined);
  });

  test("a server that keeps answering 404 to calls gets one new session and one retry, no loop", async () => {
    const { url, log } = await serveDemo((inner) => ({
      fetch: async (req) =>
        req.headers.get("mcp-session-id") && req.method === "POST" && ((await req.clone().json()) as { method?: string }).method === "tools/call"
          ? new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }), { status: 404, headers: { "content-type": "application/json" } })
          : inner.fetch(req),
    }));
    const old = await legacyConnect(url);
    const before = log.length;
    const outcome = await rpc({ connection: old, message: searchCall, headers: {} }, ctx).then(
      (r) => ({ ok: true as const, r }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    const initializes = log.slice(before).filter((e) => e.rpc === "initialize").length;
    const calls = log.slice(before).filter((e) => e.rpc === "tools/call").length;
    assert.equal(initializes, 1);
    assert.equal(calls, 2);
    // The second 404 (with its JSON-RPC body) is the server's answer; the new session is still handed back.
    assert.ok(outcome.ok, String(!outcome.ok && outcome.e));
    assert.equal((outcome.r.response?.error as { code?: number } | undefined)?.code, -32001);
    assert.ok(outcome.r.connection?.sessionId && outcome.r.connection.sessionId !== old.sessionId);
  });
});

describe("POST /api/disconnect", () => {
  test("ending a session twice: the second DELETE finds it already gone", async () => {
    const { url } = await serveDemo();
    const live = await legacyConnect(url);
    const first = await disconnect({ connection: live, headers: {} }, ctx);
    assert.deepEqual([first.ok, first.ended], [true, true]);
    assert.match(first.note, /ended session/);
    const exchange = first.exchanges[0]!;
    assert.ok(exchange.request.headers.some(([n, v]) => n.toLowerCase() === "mcp-session-id" && v === live.sessionId));
    const second = await disconnect({ connection: live, headers: {} }, ctx);
    assert.equal(second.ended, true);
    assert.match(second.note, /already ended.*404/);
  });

  test("405 from the server is reported as 'not allowed', and the session keeps working", async () => {
    const { url } = await serveDemo((inner) => ({ fetch: async (req) => (req.method === "DELETE" ? new Response(null, { status: 405 }) : inner.fetch(req)) }));
    const live = await legacyConnect(url);
    const res = await disconnect({ connection: live, headers: {} }, ctx);
    assert.deepEqual([res.ok, res.ended], [true, false]);
    assert.match(res.note, /does not allow clients to end sessions \(HTTP 405\)/);
    const call = await rpc({ connection: live, message: searchCall, headers: {} }, ctx);
    assert.ok(call.response && "result" in call.response);
  });

  test("a modern connection has nothing to end: no request is made", async () => {
    const { connection } = await connect({ url: "builtin:demo", era: "modern", headers: {} }, ctx);
    const res = await disconnect({ connection, headers: {} }, ctx);
    assert.deepEqual([res.ok, res.exchanges.length], [true, 0]);
    assert.match(res.note, /stateless/);
  });

  test("expiry detection needs a legacy session id and a 404 on a request that carried it", () => {
    const ex = (status: number, headers: [string, string][]) => ({ request: { method: "POST", url: "u", headers }, response: { status, statusText: "", headers: [], sseEvents: [] }, startedAt: "", durationMs: 0 });
    const legacy = { era: "legacy" as const, sessionId: "s1" };
    assert.equal(sessionExpired(legacy, [ex(404, [["mcp-session-id", "s1"]])]), true);
    assert.equal(sessionExpired(legacy, [ex(400, [["mcp-session-id", "s1"]])]), false);
    assert.equal(sessionExpired(legacy, [ex(404, [])]), false);
    assert.equal(sessionExpired({ era: "modern" }, [ex(404, [["mcp-session-id", "s1"]])]), false);
  });
});
