import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import * as z from "zod";
import type { ConnectionDescriptor, HttpExchange } from "@/lib/mcp/contract";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type FetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import type { ApiContext } from "../../server/api/api-route.ts";
import { config } from "../../server/platform/config.ts";
import { connect, disconnect, rpc, tools } from "../../server/api/proxy-service.ts";
import { SESSION_UNKNOWN_MESSAGE, sessionExpired, sessionGoneSignal } from "./session-recovery.ts";
import { freePort } from "../../../playwright/fixtures/free-port.ts";

const ctx: ApiContext = { config: config(), origin: "http://localhost:3000", signal: new AbortController().signal };
const served: ServedHandler[] = [];
const handlers: { close(): Promise<void> }[] = [];
after(async () => {
  await Promise.all(served.map((s) => s.close()));
  await Promise.all(handlers.map((h) => h.close()));
});

/** A real demo server over HTTP, optionally behind a wrapper that changes how it answers some requests. */
async function serveDemo(
  wrap?: (inner: FetchHandler) => FetchHandler,
): Promise<{ url: string; log: { method: string; rpc?: string; session: string | null; status: number }[] }> {
  const demo = createDemoServerHandler();
  handlers.push(demo);
  const log: { method: string; rpc?: string; session: string | null; status: number }[] = [];
  const outer = wrap ? wrap(demo) : demo;
  const s = await serveFetchHandler({
    async fetch(req) {
      const rpcMethod =
        req.method === "POST"
          ? (
              (await req
                .clone()
                .json()
                .catch(() => ({}))) as { method?: string }
            ).method
          : undefined;
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
      [
        [404, old.sessionId],
        [200, res.connection.sessionId],
      ],
      "refused on the old session, sent once more on the new one",
    );
    assert.ok(
      res.exchanges.some((e) => e.response?.status === 404),
      "the 404 is in the reported exchanges",
    );

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
      log
        .slice(before)
        .filter((e) => e.method === "POST")
        .map((e) => `${e.rpc}:${e.status}`),
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
        req.headers.get("mcp-session-id") &&
        req.method === "POST" &&
        ((await req.clone().json()) as { method?: string }).method === "tools/call"
          ? new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }), {
              status: 404,
              headers: { "content-type": "application/json" },
            })
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
    const { url } = await serveDemo((inner) => ({
      fetch: async (req) => (req.method === "DELETE" ? new Response(null, { status: 405 }) : inner.fetch(req)),
    }));
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
    const ex = (status: number, headers: [string, string][]) => ({
      request: { method: "POST", url: "u", headers },
      response: { status, statusText: "", headers: [], sseEvents: [] },
      startedAt: "",
      durationMs: 0,
    });
    const legacy = { era: "legacy" as const, sessionId: "s1" };
    assert.equal(sessionExpired(legacy, [ex(404, [["mcp-session-id", "s1"]])]), true);
    assert.equal(sessionExpired(legacy, [ex(400, [["mcp-session-id", "s1"]])]), false, "a 400 without a JSON-RPC body naming the session");
    assert.equal(sessionExpired(legacy, [ex(404, [])]), false);
    assert.equal(sessionExpired({ era: "modern" }, [ex(404, [["mcp-session-id", "s1"]])]), false);
  });
});

// ---- HTTP 400 for an unknown session (what published servers answer) ----

/** One recorded exchange, as the proxy's recording fetch keeps it. */
function exchange(
  status: number,
  body: string | undefined,
  { method = "POST", session = true }: { method?: string; session?: boolean } = {},
): HttpExchange {
  return {
    request: {
      method,
      url: "http://127.0.0.1:1/mcp",
      headers: session
        ? [
            ["content-type", "application/json"],
            ["Mcp-Session-Id", "s1"],
          ]
        : [["content-type", "application/json"]],
    },
    response: {
      status,
      statusText: "",
      headers: [["content-type", "application/json"]],
      ...(body !== undefined ? { body } : {}),
      sseEvents: [],
    },
    startedAt: "",
    durationMs: 0,
  };
}
const rpcError = (message: string, id: unknown = null, code = -32000) => JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id });
const legacy = { era: "legacy" as const, sessionId: "s1" };

describe("session expiry on HTTP 400 (the rule)", () => {
  test("the real texts of published servers and the SDK count, with id null or the request's id", () => {
    for (const message of [
      "Bad Request: No valid session ID provided", // @modelcontextprotocol/server-everything, SDK examples
      "Invalid or missing session ID", // the conformance suite's mock servers
      "Bad Request: Server not initialized", // SDK transport of a restarted stateful server
      "Session not found",
    ]) {
      assert.equal(sessionGoneSignal(exchange(400, rpcError(message))), "400", message);
      assert.equal(sessionExpired(legacy, [exchange(400, rpcError(message, 7))]), true, `${message} (id 7)`);
    }
    assert.equal(sessionGoneSignal(exchange(404, undefined)), "404");
  });

  test("a 400 for anything else is the server's answer: malformed message, headers, version, no JSON-RPC body", () => {
    for (const message of [
      "Bad Request: the request body is not a valid JSON-RPC message",
      "Bad Request: Mcp-Session-Id header is required",
      "Bad Request: Unsupported protocol version: 1999-01-01 (supported versions: 2025-11-25)",
      "Bad Request: JSON-RPC batches are not supported by this endpoint",
      "Parse error",
      "Invalid params: session must be a string",
      "Tool session_start not found",
    ]) {
      assert.equal(sessionGoneSignal(exchange(400, rpcError(message))), undefined, message);
      assert.equal(SESSION_UNKNOWN_MESSAGE.test(message), false, message);
    }
    // The words alone, outside a JSON-RPC error: plain text, an error without a message, no body at all.
    assert.equal(sessionGoneSignal(exchange(400, "Bad Request: No valid session ID provided")), undefined);
    assert.equal(
      sessionGoneSignal(exchange(400, JSON.stringify({ jsonrpc: "2.0", result: { message: "Session not found" }, id: 1 }))),
      undefined,
    );
    assert.equal(sessionGoneSignal(exchange(400, JSON.stringify({ jsonrpc: "2.0", error: { code: -32000 }, id: null }))), undefined);
    assert.equal(sessionGoneSignal(exchange(400, undefined)), undefined);
    // Other statuses with the same words do not count either.
    assert.equal(sessionGoneSignal(exchange(500, rpcError("Bad Request: No valid session ID provided"))), undefined);
  });

  test("only a POST that carried Mcp-Session-Id, on a legacy descriptor with a session, can say so", () => {
    const body = rpcError("Bad Request: No valid session ID provided");
    assert.equal(sessionGoneSignal(exchange(400, body, { session: false })), undefined);
    assert.equal(sessionGoneSignal(exchange(400, body, { method: "GET" })), undefined);
    assert.equal(sessionExpired({ era: "legacy" }, [exchange(400, body)]), false);
    assert.equal(sessionExpired({ era: "modern", sessionId: "s1" }, [exchange(400, body)]), false);
  });
});

/**
 * A real SDK server the way @modelcontextprotocol/server-everything serves Streamable HTTP: one transport per session
 * in a map, and HTTP 400 "Bad Request: No valid session ID provided" for an id the map does not hold. `restart()`
 * drops every session and starts over with a new map, as a restarted process would.
 */
function everythingStyleServer() {
  let sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }>();
  let calls = 0;
  const handler = {
    async fetch(req: Request): Promise<Response> {
      const sessionId = req.headers.get("mcp-session-id");
      const session = sessionId ? sessions.get(sessionId) : undefined;
      if (session) return session.transport.handleRequest(req);
      if (sessionId) {
        const body = (await req
          .clone()
          .json()
          .catch(() => ({}))) as { id?: unknown };
        return Response.json(
          { jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: body.id },
          { status: 400 },
        );
      }
      const server = new McpServer({ name: "restartable", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.registerTool("count", { description: "Counts calls.", inputSchema: z.object({}) }, async () => ({
        content: [{ type: "text" as const, text: String(++calls) }],
      }));
      const map = sessions;
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void map.set(id, { transport, server }),
      });
      await server.connect(transport);
      return transport.handleRequest(req);
    },
    async restart() {
      const old = [...sessions.values()];
      sessions = new Map();
      await Promise.all(old.map((s) => s.server.close().catch(() => undefined)));
    },
    async close() {
      await handler.restart();
    },
  };
  handlers.push(handler);
  return handler;
}

/** A stateful SDK server with a single transport: restarted, its fresh transport answers the old id itself. */
function singleTransportServer() {
  let current: { transport: WebStandardStreamableHTTPServerTransport; server: McpServer } | undefined;
  const start = async () => {
    const server = new McpServer({ name: "single", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.registerTool("ping_tool", { description: "Answers pong.", inputSchema: z.object({}) }, async () => ({
      content: [{ type: "text" as const, text: "pong" }],
    }));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    current = { transport, server };
  };
  const handler = {
    async fetch(req: Request): Promise<Response> {
      if (!current) await start();
      return current!.transport.handleRequest(req);
    },
    async restart() {
      await current?.server.close().catch(() => undefined);
      await start();
    },
    async close() {
      await current?.server.close().catch(() => undefined);
    },
  };
  handlers.push(handler);
  return handler;
}

const localCtx: ApiContext = { ...ctx, config: { ...ctx.config, mode: "local" } };

describe("legacy session expiry on HTTP 400 (real SDK servers, restarted)", () => {
  test("a server restarted with a new session map answers 400 No valid session ID: a new session, one resend, the new descriptor", async () => {
    const server = everythingStyleServer();
    const { url, log } = await serveDemo(() => server);
    const { connection: old } = await connect({ url, era: "legacy", headers: {} }, localCtx);
    assert.ok(old.sessionId);
    const call = { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "count", arguments: {} } };
    const live = await rpc({ connection: old, message: call, headers: {} }, localCtx);
    assert.deepEqual(live.response?.result, { content: [{ type: "text", text: "1" }] });

    await server.restart();
    const before = log.length;
    const res = await rpc({ connection: old, message: { ...call, id: 12 }, headers: {} }, localCtx);
    assert.deepEqual(res.response?.result, { content: [{ type: "text", text: "2" }] }, JSON.stringify(res.response));
    assert.equal(res.response?.id, 12);
    assert.ok(res.connection?.sessionId && res.connection.sessionId !== old.sessionId, "a replacement descriptor with the new session");
    assert.match(res.notes?.[0] ?? "", /legacy session had expired; Toolscope started a new one/);
    assert.deepEqual(
      log
        .slice(before)
        .filter((e) => e.method === "POST")
        .map((e) => `${e.rpc}:${e.status}`),
      ["tools/call:400", "initialize:200", "notifications/initialized:202", "tools/call:200"],
    );
    const refused = res.exchanges.find((e) => e.response?.status === 400);
    assert.ok(refused, "the 400 is in the reported exchanges");
    assert.equal(sessionGoneSignal(refused), "400");
  });

  test("a single-transport SDK server restarted answers 400 Server not initialized itself: recovered the same way", async () => {
    const server = singleTransportServer();
    const { url, log } = await serveDemo(() => server);
    const { connection: old } = await connect({ url, era: "legacy", headers: {} }, localCtx);
    await server.restart();
    const before = log.length;
    const res = await rpc(
      {
        connection: old,
        message: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "ping_tool", arguments: {} } },
        headers: {},
      },
      localCtx,
    );
    assert.deepEqual(res.response?.result, { content: [{ type: "text", text: "pong" }] }, JSON.stringify(res.response));
    const refused = res.exchanges.find((e) => e.response?.status === 400);
    assert.match(refused?.response?.body ?? "", /Bad Request: Server not initialized/);
    assert.ok(res.connection?.sessionId && res.connection.sessionId !== old.sessionId);
    assert.deepEqual(log.slice(before).filter((e) => e.rpc === "initialize").length, 1);
  });

  test("a 400 for a malformed request on a live session is returned as it is: no new session, no resend", async () => {
    const { url, log } = await serveDemo((inner) => ({
      fetch: async (req) =>
        req.headers.get("mcp-session-id") &&
        req.method === "POST" &&
        ((await req.clone().json()) as { method?: string }).method === "tools/call"
          ? Response.json(
              {
                jsonrpc: "2.0",
                error: { code: -32600, message: "Bad Request: the request body is not a valid JSON-RPC message" },
                id: null,
              },
              { status: 400 },
            )
          : inner.fetch(req),
    }));
    const old = await legacyConnect(url);
    const before = log.length;
    const res = await rpc({ connection: old, message: searchCall, headers: {} }, localCtx).then(
      (r) => ({ ok: true as const, r }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    const wire = log.slice(before);
    assert.deepEqual(
      wire.filter((e) => e.method === "POST").map((e) => `${e.rpc}:${e.status}`),
      ["tools/call:400"],
    );
    if (res.ok) {
      assert.equal(res.r.connection, undefined);
      assert.equal(res.r.notes, undefined);
    }
  });

  test("the published server-everything, restarted on its port, is recovered through its 400", async (t) => {
    const port = await freePort();
    const start = () => startEverythingOn(port);
    let child = await start();
    t.after(() => void child.kill("SIGTERM"));
    const url = `http://127.0.0.1:${port}/mcp`;
    const { connection: old } = await connect({ url, era: "legacy", headers: {} }, localCtx);
    assert.ok(old.sessionId);
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    child = await start();
    const res = await rpc(
      {
        connection: old,
        message: { jsonrpc: "2.0", id: 21, method: "tools/call", params: { name: "echo", arguments: { message: "again" } } },
        headers: {},
      },
      localCtx,
    );
    const refused = res.exchanges.find((e) => e.response?.status === 400);
    assert.match(
      refused?.response?.body ?? "",
      /No valid session ID provided/,
      "server-everything answers an unknown session with this 400",
    );
    assert.ok(res.response && "result" in res.response, JSON.stringify(res.response));
    assert.match(JSON.stringify(res.response.result), /again/);
    assert.ok(res.connection?.sessionId && res.connection.sessionId !== old.sessionId);
  });
});

/** @modelcontextprotocol/server-everything (Streamable HTTP) on a given port; resolves once it listens. */
function startEverythingOn(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start within 20 s")), 20_000);
    const onData = (b: Buffer) => {
      if (b.toString().includes(`${port}`)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}`));
    });
  });
}
