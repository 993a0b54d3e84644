import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createRenderGate, isRender, renderGateSettings, type RenderGateSettings } from "./render-gate.mjs";

const BASE: RenderGateSettings = { maxRenders: 1, slotMs: 60_000, maxQueued: 100, queueTimeoutMs: 60_000 };

/**
 * A real node:http server behind the gate as scripts/server.mjs puts it: pages answer after `pageMs` (or never, for
 * /stuck), /api/ answers at once. `started` lists the paths whose handler ran, in order.
 */
async function serve(settings: Partial<RenderGateSettings>, pageMs = 150) {
  const gate = createRenderGate({ ...BASE, ...settings });
  const started: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    gate.enter(req, res, path, () => {
      started.push(req.url ?? "");
      if (path === "/stuck") return;
      if (path.startsWith("/api/")) return void res.end("api");
      setTimeout(() => res.end(`page ${req.url}`), pageMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 100 });
  const get = (path: string, signal?: AbortSignal) =>
    new Promise<{ status: number; body: string; retryAfter?: string; at: number }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, agent, signal }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers["retry-after"] as string, at: performance.now() }),
        );
      });
      req.on("error", reject);
      req.end();
    });
  return {
    gate,
    started,
    get,
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("settings: twice the core count of renders by default, 0 turns the gate off, a bad value names the variable", () => {
  assert.ok(renderGateSettings({}).maxRenders >= 4);
  assert.equal(renderGateSettings({ TOOLSCOPE_MAX_CONCURRENT_RENDERS: "0" }).maxRenders, 0);
  assert.throws(
    () => renderGateSettings({ TOOLSCOPE_RENDER_SLOT_MS: "5" }),
    /TOOLSCOPE_RENDER_SLOT_MS=5 is invalid: use an integer from 10/,
  );
  assert.throws(() => renderGateSettings({ TOOLSCOPE_MAX_QUEUED_RENDERS: "many" }), /TOOLSCOPE_MAX_QUEUED_RENDERS=many is invalid/);
});

test("what counts as a render: page GETs and HEADs, not the API, Next's files, root files or other methods", () => {
  assert.ok(isRender("GET", "/docs"));
  assert.ok(isRender("HEAD", "/docs/tools/github.search"), "a tool name with a dot is still a page");
  assert.ok(isRender("GET", "/"));
  assert.ok(!isRender("GET", "/api/health"));
  assert.ok(!isRender("GET", "/_next/static/chunks/a.js"));
  assert.ok(!isRender("GET", "/icon.svg"));
  assert.ok(!isRender("POST", "/docs"));
});

test("pages enter one at a time in arrival order while API requests pass beside them", async () => {
  const app = await serve({ maxRenders: 1 });
  try {
    const pages = ["/p1", "/p2", "/p3"].map((p) => app.get(p));
    await sleep(30);
    const t = performance.now();
    const api = await app.get("/api/x");
    assert.equal(api.body, "api");
    assert.ok(api.at - t < 100, "the API request did not wait for the pages");
    assert.deepEqual(app.gate.stats().renderQueue, 2);
    const done = await Promise.all(pages);
    assert.deepEqual(
      done.map((d) => d.body),
      ["page /p1", "page /p2", "page /p3"],
    );
    assert.ok(done[1].at - done[0].at >= 120 && done[2].at - done[1].at >= 120, "each page started after the one before ended");
    assert.deepEqual(
      app.started.filter((p) => p !== "/api/x"),
      ["/p1", "/p2", "/p3"],
    );
    assert.equal(app.gate.stats().renders, 0);
  } finally {
    await app.close();
  }
});

test("a render that holds its slot past TOOLSCOPE_RENDER_SLOT_MS stops counting: the next page starts", async () => {
  const app = await serve({ maxRenders: 1, slotMs: 100 }, 20);
  try {
    const stuck = new AbortController();
    const held = app.get("/stuck", stuck.signal).catch(() => undefined);
    await sleep(20);
    const t = performance.now();
    const page = await app.get("/after");
    assert.equal(page.status, 200);
    assert.ok(page.at - t >= 60 && page.at - t < 1_000, `the page waited ${Math.round(page.at - t)} ms`);
    assert.equal(app.gate.stats().lent, 1, "only the stuck render was lent; the quick one gave its slot back");
    stuck.abort();
    await held;
  } finally {
    await app.close();
  }
});

test("past TOOLSCOPE_MAX_QUEUED_RENDERS a page is refused at once: 503 unavailable with Retry-After, naming the setting", async () => {
  const app = await serve({ maxRenders: 1, maxQueued: 2 });
  try {
    const admitted = ["/a", "/b", "/c"].map((p) => app.get(p));
    await sleep(30);
    const refused = await app.get("/d");
    assert.equal(refused.status, 503);
    assert.equal(refused.retryAfter, "2");
    const { error } = JSON.parse(refused.body);
    assert.equal(error.kind, "unavailable");
    assert.match(error.message, /2 pages waiting .*TOOLSCOPE_MAX_QUEUED_RENDERS/);
    assert.deepEqual(
      (await Promise.all(admitted)).map((r) => r.status),
      [200, 200, 200],
    );
    assert.ok(!app.started.includes("/d"));
  } finally {
    await app.close();
  }
});

test("a page that waits past TOOLSCOPE_RENDER_QUEUE_TIMEOUT_MS is answered 503 and never rendered", async () => {
  const app = await serve({ maxRenders: 1, queueTimeoutMs: 150 }, 600);
  try {
    const first = app.get("/slow");
    await sleep(20);
    const waited = await app.get("/late");
    assert.equal(waited.status, 503);
    assert.match(JSON.parse(waited.body).error.message, /waited 150 ms .*TOOLSCOPE_RENDER_QUEUE_TIMEOUT_MS/);
    assert.equal((await first).status, 200);
    await sleep(50);
    assert.ok(!app.started.includes("/late"));
  } finally {
    await app.close();
  }
});

test("a client that leaves while its page waits is dropped from the queue: its page is never rendered", async () => {
  const app = await serve({ maxRenders: 1 });
  try {
    const first = app.get("/first");
    await sleep(20);
    const leaving = new AbortController();
    const gone = app.get("/gone", leaving.signal).catch((e: Error) => e.name);
    await sleep(20);
    leaving.abort();
    assert.equal(await gone, "AbortError");
    await sleep(20);
    assert.equal(app.gate.stats().renderQueue, 0);
    const third = app.get("/third");
    await first;
    await third;
    assert.deepEqual(app.started, ["/first", "/third"]);
  } finally {
    await app.close();
  }
});

test("with 0 renders the gate is off: pages go straight in", async () => {
  const app = await serve({ maxRenders: 0 });
  try {
    await Promise.all(["/x", "/y", "/z"].map((p) => app.get(p)));
    assert.equal(app.gate.stats().rendered, 0);
    assert.equal(app.started.length, 3);
  } finally {
    await app.close();
  }
});
