/**
 * Per-origin connection limits against real local servers: requests that hang do not hold up a healthy request to the
 * same origin while the limit has room; over the limit a request waits a bounded share of its timeout and then fails
 * saying so (within the request timeout, never after it); answers that turn into event streams stop counting; other
 * origins are never affected; every way an exchange ends gives its connection back.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { stampMessage } from "@/lib/mcp/meta";
import { ConnectionWaitTimeout, createSafeFetch, MAX_CONNECTIONS_PER_ORIGIN, OriginLimiter } from "./egress.ts";
import { classifyError, ProxyError } from "../errors/proxy-error.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";
import { exchangeMessage } from "../transports/upstream-http.ts";

interface Served {
  origin: string;
  close(): Promise<void>;
}

/** `/hang` never answers; `/slow` answers after 300 ms; `/stream` opens an event stream and keeps it open; `/ok` answers. */
async function serve(): Promise<Served> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/hang") return;
    if (path === "/slow") return void setTimeout(() => res.end("slow"), 300);
    if (path === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      return void res.write(": open\n\n");
    }
    if (path === "/hop") {
      res.writeHead(302, { location: "/ok" });
      return void res.end();
    }
    if (path === "/mcp") {
      // A healthy MCP endpoint for exchangeMessage: any request gets an empty tools list.
      let body = "";
      req.on("data", (c) => (body += c));
      return void req.on("end", () => {
        const id = (JSON.parse(body) as { id?: unknown }).id;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { tools: [] } }));
      });
    }
    res.end("ok");
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let a: Served;
let b: Served;
before(async () => {
  [a, b] = await Promise.all([serve(), serve()]);
});
after(async () => {
  await Promise.all([a.close(), b.close()]);
});

/** Starts `n` requests to `/hang`, all cancelled by the returned function. */
function hanging(f: typeof fetch, origin: string, n: number): { stop: () => Promise<void> } {
  const stop = new AbortController();
  const pending = Array.from({ length: n }, () => f(`${origin}/hang`, { signal: stop.signal }).catch(() => undefined));
  return {
    stop: async () => {
      stop.abort();
      await Promise.all(pending);
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 50));

describe("per-origin connection limits", () => {
  test(`${MAX_CONNECTIONS_PER_ORIGIN - 1} hanging calls to one origin (the default limit): a healthy call to it answers at once`, async () => {
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 15_000, limiter: new OriginLimiter(MAX_CONNECTIONS_PER_ORIGIN) });
    const hung = hanging(f, a.origin, MAX_CONNECTIONS_PER_ORIGIN - 1);
    await settle();
    const started = performance.now();
    assert.equal(await (await f(`${a.origin}/ok`)).text(), "ok");
    const took = performance.now() - started;
    await hung.stop();
    assert.ok(took < 1_000, `the healthy call took ${Math.round(took)} ms`);
  });

  test("over the limit, a waiting request fails within the request timeout, with a message naming the limit", async () => {
    const limiter = new OriginLimiter(4);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2_000, limiter });
    const hung = hanging(f, a.origin, 4);
    await settle();
    assert.deepEqual(limiter.load(a.origin), { active: 4, waiting: 0, streams: 0 });
    // Through a real exchange with a 2 s request timeout: the wait (half of it) runs out first, and says why.
    const started = performance.now();
    const err = await exchangeMessage({
      target: { url: new URL(`${a.origin}/mcp`), displayUrl: `${a.origin}/mcp`, fetch: f },
      descriptor: { era: "modern", protocolVersion: "2026-07-28" },
      message: stampMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" }, "modern", () => 1).message,
      userHeaders: {},
      timeoutMs: 2_000,
      maxBodyBytes: 1_000_000,
    }).catch((e: unknown) => e);
    const took = performance.now() - started;
    await hung.stop();
    assert.ok(took >= 900 && took < 2_000, `failed after ${Math.round(took)} ms, within the 2000 ms request timeout`);
    assert.ok(err instanceof ExchangeFailure);
    const classified = classifyError(err.cause, `${a.origin}/mcp`, 2_000);
    assert.equal(classified.kind, "upstream-timeout");
    assert.match(
      classified.message,
      new RegExp(
        `^Toolscope already has 4 requests in flight to ${a.origin.replace(/[.]/g, "\\.")}, its limit per server \\(TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN=4\\), and none of them finished while this one waited 1\\d\\d\\d ms for a connection, so it was not sent\\.$`,
      ),
    );
    assert.match(classified.hint ?? "", /raise TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN/);
    assert.deepEqual(
      err.exchanges.map((e) => e.response?.status),
      [undefined],
      "nothing reached the server",
    );
    await settle();
    assert.deepEqual(limiter.load(a.origin), { active: 0, waiting: 0, streams: 0 }, "every slot came back");
  });

  test("a waiting request gets the first connection that comes free, in order", async () => {
    const limiter = new OriginLimiter(1);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 5_000, limiter });
    const started = performance.now();
    const [first, second] = await Promise.all([f(`${a.origin}/slow`).then((r) => r.text()), f(`${a.origin}/ok`).then((r) => r.text())]);
    const took = performance.now() - started;
    assert.deepEqual([first, second], ["slow", "ok"]);
    assert.ok(took >= 280 && took < 2_000, `${Math.round(took)} ms`);
  });

  test("open event streams do not hold request slots: a healthy call passes three open streams with a limit of 2", async () => {
    const limiter = new OriginLimiter(2);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 5_000, limiter });
    const streams = await Promise.all([1, 2, 3].map(() => f(`${a.origin}/stream`)));
    assert.deepEqual(limiter.load(a.origin), { active: 0, waiting: 0, streams: 3 });
    const started = performance.now();
    assert.equal(await (await f(`${a.origin}/ok`)).text(), "ok");
    assert.ok(performance.now() - started < 1_000);
    await Promise.all(streams.map((s) => s.body?.cancel()));
    assert.deepEqual(limiter.load(a.origin), { active: 0, waiting: 0, streams: 0 });
  });

  test("a full origin does not hold up another one", async () => {
    const limiter = new OriginLimiter(2);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 5_000, limiter });
    const hung = hanging(f, a.origin, 2);
    await settle();
    const started = performance.now();
    assert.equal(await (await f(`${b.origin}/ok`)).text(), "ok");
    assert.ok(performance.now() - started < 1_000);
    await hung.stop();
  });

  test("every ending gives the slot back: body read, body cancelled, request aborted, connection refused", async () => {
    const limiter = new OriginLimiter(1);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2_000, limiter });
    await (await f(`${a.origin}/ok`)).text();
    await (await f(`${a.origin}/ok`)).body?.cancel();
    const aborted = new AbortController();
    const response = await f(`${a.origin}/stream`, { signal: aborted.signal });
    aborted.abort();
    await response.body?.cancel().catch(() => undefined);
    await f(`${a.origin}/hang`, { signal: AbortSignal.timeout(100) }).catch(() => undefined);
    await f("http://127.0.0.1:1/").catch(() => undefined);
    assert.deepEqual(limiter.load(a.origin), { active: 0, waiting: 0, streams: 0 });
    assert.deepEqual(limiter.load("http://127.0.0.1:1"), { active: 0, waiting: 0, streams: 0 }, "a refused connection too");
    // With a limit of 1, any leak above would make this wait and fail.
    assert.equal(await (await f(`${a.origin}/ok`)).text(), "ok");
  });

  test("a request aborted while it waits fails at once with the wait in its message", async () => {
    const limiter = new OriginLimiter(1);
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 10_000, limiter });
    const hung = hanging(f, a.origin, 1);
    await settle();
    const err = await f(`${a.origin}/ok`, { signal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    await hung.stop();
    assert.ok(err instanceof ConnectionWaitTimeout, String(err));
    assert.match(err.message, /waited \d+ ms for a connection/);
    assert.equal(classifyError(err, `${a.origin}/ok`, 10_000).kind, "upstream-timeout");
  });

  test("the answer keeps its URL and redirect flag (the icon proxy checks where a redirect ended)", async () => {
    const f = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2_000, limiter: new OriginLimiter(2) });
    const res = await f(`${a.origin}/hop`, { redirect: "follow" });
    assert.equal(res.url, `${a.origin}/ok`);
    assert.equal(res.redirected, true);
    assert.equal(await res.text(), "ok");
  });

  test("the limiter itself: FIFO, bounded wait, no state left for idle origins", async () => {
    const limiter = new OriginLimiter(1);
    const first = await limiter.acquire("o", 1_000);
    const order: number[] = [];
    const second = limiter.acquire("o", 1_000).then((s) => (order.push(2), s));
    const third = limiter.acquire("o", 1_000).then((s) => (order.push(3), s));
    assert.deepEqual(limiter.load("o"), { active: 1, waiting: 2, streams: 0 });
    first.release();
    first.release(); // idempotent: must not free a second slot
    (await second).streaming();
    (await third).release();
    (await second).release();
    assert.deepEqual(order, [2, 3]);
    assert.deepEqual(limiter.load("o"), { active: 0, waiting: 0, streams: 0 });
    const held = await limiter.acquire("o", 1_000);
    const late = await limiter.acquire("o", 30).catch((e: unknown) => e);
    assert.ok(late instanceof ConnectionWaitTimeout);
    assert.ok(!(late instanceof ProxyError));
    held.release();
    assert.equal((limiter as unknown as { origins: Map<string, unknown> }).origins.size, 0);
  });
});
