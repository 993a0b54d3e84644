import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RpcStreamEvent } from "@/lib/mcp/contract";
import type { ApiContext } from "../../server/api/api-route.ts";
import { config } from "../../server/platform/config.ts";
import { createSafeFetch } from "../egress/egress.ts";
import { eraVerdictStore, normaliseServerUrl } from "./era-cache.ts";
import { classifyError, ProxyError } from "../errors/proxy-error.ts";
import { connect, disconnect, rpc, tools } from "../../server/api/proxy-service.ts";
import { withSseSession } from "./sse-session.ts";
import { startEverythingServer } from "../../../playwright/fixtures/everything-server.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";
import { serveAsksSse } from "../testing/asks-server.ts";

// Real servers: the published @modelcontextprotocol/server-everything in its HTTP+SSE mode, and a small raw HTTP+SSE
// server below for what a well-behaved server never does (a foreign endpoint, silence, a server request, a flood).

const cfg = { ...config(), mode: "local" as const, requestTimeoutMs: 10_000 };
const ctx: ApiContext = { config: cfg, origin: "http://localhost:3000", signal: new AbortController().signal };

let everything: { url: string; stop: () => void };
let everythingUrl = "";
let raw: http.Server;
let rawBase = "";
/** What the raw server received on POST, per path. */
const received: Record<string, Record<string, unknown>[]> = {};
let rawStreamsClosed = 0;
/** Per server path: each request's method and whether it carried the right Authorization. */
const seenAuth: Record<string, string[]> = {};

async function startEverything(): Promise<void> {
  everything = await startEverythingServer("sse");
  everythingUrl = everything.url;
}

/** One legacy SSE "server" per path prefix; its stream stays open until the client closes it. */
function startRaw(): Promise<void> {
  const streams = new Map<string, http.ServerResponse>();
  const send = (res: http.ServerResponse | undefined, message: unknown) =>
    res?.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  raw = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://raw");
    const kind = url.pathname.split("/")[1];
    /** Every request the "auth" server gets must carry the user's token, the stream's GET included. */
    const authorized = kind !== "auth" || req.headers.authorization === "Bearer s3cret";
    (seenAuth[kind] ??= []).push(`${req.method} ${authorized}`);
    if (!authorized) return res.writeHead(401).end("Unauthorized");
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.on("close", () => rawStreamsClosed++);
      if (kind === "silent") return res.write(": nothing to see\n\n");
      if (kind === "foreign") return res.write("event: endpoint\ndata: http://evil.invalid/message\n\n");
      streams.set(kind, res);
      res.write(`event: endpoint\ndata: /${kind}/message\n\n`);
      return;
    }
    if (url.pathname.endsWith("/sse")) return res.writeHead(405).end("Method Not Allowed");
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const m = JSON.parse(body) as Record<string, unknown>;
      (received[kind] ??= []).push(m);
      res.writeHead(202).end("Accepted");
      const stream = streams.get(kind);
      if (m.method === "initialize")
        send(stream, {
          jsonrpc: "2.0",
          id: m.id,
          result: { protocolVersion: "2024-11-05", capabilities: { tools: {} }, serverInfo: { name: `raw-${kind}`, version: "1" } },
        });
      // A tool call that first asks the client something (a 2024-11-05 server request) and answers once it hears back.
      if (m.method === "tools/call" && kind === "asks") send(stream, { jsonrpc: "2.0", id: "srv-1", method: "roots/list" });
      if (m.id === "srv-1")
        send(stream, {
          jsonrpc: "2.0",
          id: (received.asks!.find((x) => x.method === "tools/call") as { id: unknown }).id,
          result: { content: [{ type: "text", text: `client said: ${JSON.stringify(m.error ?? m.result)}` }] },
        });
      if (m.method === "tools/call" && kind === "flood")
        send(stream, { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x".repeat(200_000) } });
      if (m.method === "tools/call" && kind === "drops") stream?.end();
      // Works for 2.2 s, saying so every 400 ms ("slow"), or says so once and then goes quiet for good ("stalls").
      if (m.method === "tools/call" && (kind === "slow" || kind === "stalls")) {
        const steps = kind === "slow" ? 5 : 1;
        for (let i = 1; i <= steps; i++)
          setTimeout(
            () => send(stream, { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: i, total: 5 } }),
            i * 400,
          );
        if (kind === "slow") setTimeout(() => send(stream, { jsonrpc: "2.0", id: m.id, result: { content: [] } }), 2200);
      }
    });
  });
  return new Promise((resolve) =>
    raw.listen(0, "127.0.0.1", () => {
      rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

before(async () => {
  await Promise.all([startEverything(), startRaw()]);
});

after(() => {
  everything.stop();
  raw.closeAllConnections();
  raw.close();
});

test("auto: Streamable HTTP refused (404 twice), then HTTP+SSE: legacy, transport sse, the GET and its endpoint event recorded", async () => {
  const res = (await connect({ url: everythingUrl, era: "auto", headers: {} }, ctx)) as Awaited<ReturnType<typeof connect>> & {
    exchanges: import("@/lib/mcp/contract").HttpExchange[];
  };
  assert.equal(res.connection.era, "legacy");
  assert.equal(res.connection.transport, "sse");
  assert.equal(res.server.serverInfo?.name, "mcp-servers/everything");
  const steps = res.exchanges.map((x) => `${x.request.method} ${x.response?.status}`);
  assert.deepEqual(steps.slice(0, 3), ["POST 404", "POST 404", "GET 200"]);
  const get = res.exchanges[2];
  assert.equal(get.response?.sseEvents[0].event, "endpoint");
  assert.match(get.response!.sseEvents[0].data, /^\/message\?sessionId=/);
  assert.ok(
    res.exchanges.slice(3).every((x) => x.request.method === "POST" && x.request.url.startsWith(everythingUrl.replace("/sse", "/message"))),
  );
  // The SDK's legacy verdict would mean Streamable HTTP + initialize: an HTTP+SSE result is not remembered.
  assert.ok(cfg.eraCacheTtlMs > 0);
  assert.equal(await eraVerdictStore.get(normaliseServerUrl(everythingUrl)), undefined);
});

test("a modern pin never falls back: it fails with the 404, and no GET is made", async () => {
  await assert.rejects(connect({ url: everythingUrl, era: "modern", headers: {} }, ctx), (err: unknown) => {
    assert.ok(err instanceof ExchangeFailure);
    assert.ok(err.exchanges.every((x) => x.request.method === "POST"));
    return true;
  });
});

test("tools and calls on an sse descriptor: each a session of its own; progress notifications relayed while the call runs", async () => {
  const { connection } = await connect({ url: everythingUrl, era: "legacy-sse", headers: {} }, ctx);
  const list = await tools({ connection, headers: {}, fresh: true }, ctx);
  assert.ok(list.tools.some((t) => t.name === "echo"));
  assert.ok(list.tools.some((t) => t.name === "trigger-long-running-operation"));

  const echo = await rpc(
    {
      connection,
      headers: {},
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "over sse" } } },
    },
    ctx,
  );
  assert.deepEqual(echo.response, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Echo: over sse" }] } });
  assert.equal(echo.exchanges[0].request.method, "GET");
  assert.match(echo.notes?.[0] ?? "", /fresh session for this call/);
  assert.ok(
    echo.added.some((a) => a.name === "mcp-protocol-version"),
    "the headers of the POST that carried the call",
  );

  const events: RpcStreamEvent[] = [];
  const long = await rpc(
    {
      connection,
      headers: {},
      message: {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 }, _meta: { progressToken: "p1" } },
      },
    },
    { ...ctx, emit: (e) => events.push(e) },
  );
  assert.ok(long.response && "result" in long.response);
  const progress = events.filter((e) => e.type === "notification" && e.message.method === "notifications/progress");
  assert.equal(progress.length, 3);
  assert.ok(
    events.some((e) => e.type === "upstream-event" && e.event.event === "endpoint"),
    "the stream's events are relayed too",
  );
});

test("disconnect is a no-op and subscriptions/listen is refused with a reason", async () => {
  const connection = {
    v: 1 as const,
    url: everythingUrl,
    era: "legacy" as const,
    protocolVersion: "2025-11-25",
    transport: "sse" as const,
  };
  const bye = await disconnect({ connection, headers: {} }, ctx);
  assert.deepEqual([bye.ended, bye.exchanges.length], [true, 0]);
  await assert.rejects(
    rpc(
      { connection, headers: {}, message: { jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: {} } },
      { ...ctx, emit: () => undefined },
    ),
    /HTTP\+SSE transport \(2024-11-05\)/,
  );
});

test("an endpoint event naming another origin is refused before anything is POSTed", async () => {
  await assert.rejects(connect({ url: `${rawBase}/foreign/sse`, era: "legacy-sse", headers: {} }, ctx), (err: unknown) => {
    assert.ok(err instanceof ExchangeFailure);
    assert.ok(err.cause instanceof ProxyError);
    assert.match(err.cause.message, /points to http:\/\/evil\.invalid, another origin/);
    assert.deepEqual(
      err.exchanges.map((x) => x.request.method),
      ["GET"],
    );
    return true;
  });
});

test("the legacy fallback also runs from era legacy (POST 405), and a server request on the stream is answered, not left hanging", async () => {
  const { connection } = await connect({ url: `${rawBase}/asks/sse`, era: "legacy", headers: {} }, ctx);
  assert.equal(connection.transport, "sse");
  assert.equal(connection.protocolVersion, "2024-11-05");
  const res = await rpc(
    { connection, headers: {}, message: { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "anything", arguments: {} } } },
    ctx,
  );
  const text = (res.response?.result as { content: { text: string }[] }).content[0].text;
  // roots is declared on every connection, so it is answered at once: with the error that says roots are given to a
  // streamed call (not "none", which a server may keep for the session; issue 26).
  assert.match(text, /"code":-32001,"message":"Toolscope cannot answer roots\/list here: .*given to a streamed call/);
  assert.deepEqual(
    res.serverRequests?.map((r) => [r.request.method, r.answeredBy]),
    [["roots/list", "proxy"]],
    "the server request is shown to the user with who answered",
  );
});

test("limits: no endpoint event within the timeout; a stream past the byte limit; the caller cancelling closes the stream", async () => {
  const quick = { ...ctx, config: { ...cfg, requestTimeoutMs: 800 } };
  await assert.rejects(
    connect({ url: `${rawBase}/silent/sse`, era: "legacy-sse", headers: {} }, quick),
    (err: unknown) =>
      (err as ExchangeFailure).cause instanceof ProxyError && /No response within 800 ms/.test((err as ExchangeFailure).message),
  );

  const { connection } = await connect({ url: `${rawBase}/flood/sse`, era: "legacy-sse", headers: {} }, ctx);
  const small = { ...ctx, config: { ...cfg, maxResponseBytes: 50_000 } };
  await assert.rejects(
    rpc({ connection, headers: {}, message: { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "x" } } }, small),
    /exceeded 50000 bytes \(TOOLSCOPE_MAX_RESPONSE_BYTES\)/,
  );

  const closedBefore = rawStreamsClosed;
  const abort = new AbortController();
  const started = performance.now();
  const pending = rpc(
    {
      connection: { ...connection, url: `${rawBase}/silent-call/sse` },
      headers: {},
      message: { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "never-answered" } },
    },
    { ...ctx, signal: abort.signal },
  );
  setTimeout(() => abort.abort(), 300);
  await assert.rejects(pending, /cancelled/);
  assert.ok(performance.now() - started < 3000);
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(rawStreamsClosed > closedBefore, "the server saw its stream close");
});

test("a call that keeps sending progress outlives the request timeout (stream limits take over); one that goes quiet is cut", async () => {
  // Timings with headroom for a busy machine: the call (2.2 s) outlasts the request timeout (1.5 s) by far.
  const limits = { ...ctx, config: { ...cfg, requestTimeoutMs: 1500, streamIdleMs: 1200, streamMaxMs: 10_000 } };
  const message = { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "work", _meta: { progressToken: "t" } } };
  const slow = await connect({ url: `${rawBase}/slow/sse`, era: "legacy-sse", headers: {} }, limits);
  const done = await rpc({ connection: slow.connection, headers: {}, message }, limits);
  assert.deepEqual(done.response, { jsonrpc: "2.0", id: 11, result: { content: [] } });
  assert.equal(done.notifications.length, 5);

  const stalls = await connect({ url: `${rawBase}/stalls/sse`, era: "legacy-sse", headers: {} }, limits);
  await assert.rejects(
    rpc({ connection: stalls.connection, headers: {}, message }, limits),
    /went silent: nothing arrived .* for 1200 ms \(TOOLSCOPE_STREAM_IDLE_MS\)/,
  );
});

test("a stream that ends before the answer: stream-broken at once, and the request is not sent again", async () => {
  const { connection } = await connect({ url: `${rawBase}/drops/sse`, era: "legacy-sse", headers: {} }, ctx);
  const started = performance.now();
  await assert.rejects(
    rpc({ connection, headers: {}, message: { jsonrpc: "2.0", id: 12, method: "tools/call", params: { name: "x" } } }, ctx),
    (err: unknown) => {
      assert.equal(
        (err as ExchangeFailure).cause instanceof ProxyError && ((err as ExchangeFailure).cause as ProxyError).kind,
        "stream-broken",
      );
      assert.equal((err as ExchangeFailure).exchanges.filter((x) => x.request.method === "GET").length, 1, "no second stream");
      return true;
    },
  );
  assert.ok(performance.now() - started < 5000, "not a timeout");
  assert.equal(received.drops!.filter((m) => m.method === "tools/call").length, 1);
});

test("the user's headers go on the stream's GET and every POST, and are masked in the recorded exchanges", async () => {
  const headers = { Authorization: "Bearer s3cret" };
  const { connection } = await connect({ url: `${rawBase}/auth/sse`, era: "legacy-sse", headers }, ctx);
  // A notification: POSTed after the handshake, nothing to wait for.
  const res = await rpc({ connection, headers, message: { jsonrpc: "2.0", method: "notifications/roots/list_changed" } }, ctx);
  assert.equal(res.response, null);
  assert.ok(seenAuth.auth!.length >= 6 && seenAuth.auth!.every((line) => line.endsWith("true")), seenAuth.auth!.join(", "));
  assert.ok(seenAuth.auth!.filter((line) => line.startsWith("GET")).length === 2, "one stream per call");
  const recorded = JSON.stringify(res.exchanges);
  assert.ok(recorded.includes('"authorization"'));
  assert.ok(!recorded.includes("s3cret"));
  await assert.rejects(
    connect({ url: `${rawBase}/auth/sse`, era: "legacy-sse", headers: {} }, ctx),
    /did not open an HTTP\+SSE event stream \(Non-200 status code \(401\)\)/,
  );
});

test("the GET stream goes through the egress guard: a private address is refused in hosted mode", async () => {
  const target = {
    url: new URL(everythingUrl),
    displayUrl: everythingUrl,
    fetch: createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000 }),
  };
  await assert.rejects(
    withSseSession({ target, userHeaders: {}, timeoutMs: 5000, maxBodyBytes: 1_000_000 }, async () => "unreachable"),
    (err: unknown) =>
      err instanceof ExchangeFailure &&
      classifyError(err.cause, everythingUrl, 5000).kind === "blocked-target" &&
      err.exchanges[0]?.request.method === "GET",
  );
});

test("the HTTP+SSE ping reply: a server's ping during a call is answered {} by the proxy, streamed or not", async () => {
  const asks = await serveAsksSse();
  try {
    const { connection } = await connect({ url: asks.url, era: "legacy-sse", headers: {} }, ctx);
    assert.equal(connection.transport, "sse");
    const events: RpcStreamEvent[] = [];
    for (const [id, callCtx] of [
      [21, ctx],
      [22, { ...ctx, emit: (e: RpcStreamEvent) => events.push(e) }],
    ] as const) {
      const res = await rpc(
        { connection, headers: {}, message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask-ping", arguments: {} } } },
        callCtx,
      );
      // What the SDK server heard back from server.server.ping(): the empty result, not an error.
      assert.deepEqual(res.response, { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: JSON.stringify({ answer: {} }) }] } });
      assert.deepEqual(
        res.serverRequests?.map((r) => [r.request.method, r.answeredBy]),
        [["ping", "proxy"]],
        `call ${id}`,
      );
      // The answer went back as a POST of { result: {} } to the session's message endpoint.
      const ping = res.serverRequests![0].request as { id: unknown };
      const answers = res.exchanges
        .filter((x) => x.request.method === "POST" && x.request.body?.includes('"result"'))
        .map((x) => JSON.parse(x.request.body!));
      assert.deepEqual(answers, [{ jsonrpc: "2.0", id: ping.id, result: {} }], `call ${id}`);
    }
  } finally {
    await asks.close();
  }
});
