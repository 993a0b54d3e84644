import assert from "node:assert/strict";
import { Agent, createServer, request, type IncomingMessage, type RequestListener, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { test } from "node:test";
import { applyConnectionLimits, clientKey, httpLimitSettings, serverOptions, type HttpLimitSettings } from "./http-limits.mjs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const BASE: HttpLimitSettings = {
  headersTimeoutMs: 500,
  requestTimeoutMs: 1_500,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1_000,
  maxConnections: 10_000,
  maxConnectionsPerClient: 0,
};

/** A real node:http server on a free loopback port with the limits on, as scripts/server.mjs sets them up. */
async function serve(settings: Partial<HttpLimitSettings>, handler: RequestListener) {
  const s = { ...BASE, ...settings };
  const logged: string[] = [];
  const server: Server = createServer(serverOptions(s), (req, res) => {
    if (limits.admit(req, res)) handler(req, res);
  });
  const limits = applyConnectionLimits(server, s, { log: (_level, msg) => logged.push(msg) });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    limits,
    logged,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything `socket` receives until it closes (or `ms` pass). */
function received(socket: Socket, ms = 5_000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (d) => (text += d.toString()));
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on("error", () => {});
  });
}

test("the settings: defaults, the per-client cap only in hosted mode without a trusted proxy, refusals by name", () => {
  const local = httpLimitSettings({});
  assert.equal(local.headersTimeoutMs, 15_000);
  assert.equal(local.requestTimeoutMs, 15_000 + 10_000);
  assert.equal(local.maxConnectionsPerClient, 0);
  assert.equal(httpLimitSettings({ TOOLSCOPE_MODE: "hosted" }).maxConnectionsPerClient, 64);
  assert.equal(httpLimitSettings({ TOOLSCOPE_MODE: "hosted", TOOLSCOPE_TRUST_PROXY: "1" }).maxConnectionsPerClient, 0);
  assert.equal(httpLimitSettings({ TOOLSCOPE_MODE: "hosted", TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT: "8" }).maxConnectionsPerClient, 8);
  assert.throws(
    () => httpLimitSettings({ TOOLSCOPE_HEADERS_TIMEOUT_MS: "10" }),
    /TOOLSCOPE_HEADERS_TIMEOUT_MS=10 is invalid: use an integer from 1000/,
  );
  assert.throws(() => httpLimitSettings({ TOOLSCOPE_MAX_CONNECTIONS: "lots" }), /TOOLSCOPE_MAX_CONNECTIONS=lots is invalid/);
  assert.equal(clientKey("::ffff:10.0.0.1"), "10.0.0.1");
  assert.equal(clientKey("2001:db8:1:2:aaaa::1"), clientKey("2001:db8:1:2:bbbb::2"));
});

test("3,000 half-sent requests are closed once the header timeout passes", { timeout: 60_000 }, async () => {
  const headersTimeoutMs = 1_000;
  const app = await serve({ headersTimeoutMs, requestTimeoutMs: 5_000 }, (_req, res) => res.end("ok"));
  try {
    const lives: Promise<{ text: string; closed: boolean; ms: number }>[] = [];
    let most = 0;
    // In batches, so the listen backlog never overflows.
    for (let i = 0; i < 3_000; i += 200) {
      // The clock starts before the connect: the server's header timer starts at its accept, which comes later, so
      // a lifetime counted from here is never shorter than the server's view. Counting from after the whole batch
      // had connected made a busy machine look like an early close.
      const batch = await Promise.all(
        Array.from({ length: 200 }, async () => {
          const opened = Date.now();
          return { socket: await open(app.port), opened };
        }),
      );
      for (const { socket, opened } of batch) {
        // A request line and a header, and never the blank line that ends the head.
        socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        lives.push(received(socket, 15_000).then((r) => ({ ...r, ms: Date.now() - opened })));
      }
      most = Math.max(most, app.limits.stats().connections);
    }
    const results = await Promise.all(lives);
    assert.equal(results.filter((r) => r.closed).length, 3_000, "every slow connection is closed");
    // Node answers 408 before closing: the client learns why.
    assert.ok(results.every((r) => r.text === "" || r.text.startsWith("HTTP/1.1 408")));
    const longest = Math.max(...results.map((r) => r.ms));
    const shortest = Math.min(...results.map((r) => r.ms));
    assert.ok(longest < headersTimeoutMs + 1_500, `one stayed open ${longest} ms (header timeout ${headersTimeoutMs} ms)`);
    assert.ok(shortest >= headersTimeoutMs - 50, `one was closed after ${shortest} ms, before the header timeout`);
    assert.ok(most >= 200, `only ${most} were open at once`);
    await sleep(100);
    assert.equal(app.limits.stats().connections, 0);
  } finally {
    await app.stop();
  }
});

test("a response slower than the request timeout still completes: the timeouts bound what the client sends", async () => {
  const app = await serve({}, (_req, res) => setTimeout(() => res.end("late but whole"), 2_000));
  try {
    const body = await new Promise<string>((resolve, reject) => {
      request({ port: app.port, host: "127.0.0.1", path: "/" }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve(text));
      })
        .on("error", reject)
        .end();
    });
    assert.equal(body, "late but whole");
  } finally {
    await app.stop();
  }
});

test("over the per-client cap: the extra connections are answered 503 with Retry-After and closed", async () => {
  const app = await serve({ maxConnectionsPerClient: 5 }, (_req, res) => res.end("ok"));
  try {
    const sockets: Socket[] = [];
    for (let i = 0; i < 8; i++) sockets.push(await open(app.port));
    const answers = sockets.map((s) => received(s, 3_000));
    for (const s of sockets) s.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    const results = await Promise.all(answers);
    const ok = results.filter((r) => r.text.startsWith("HTTP/1.1 200"));
    const refused = results.filter((r) => r.text.startsWith("HTTP/1.1 503"));
    assert.equal(ok.length, 5);
    assert.equal(refused.length, 3);
    for (const r of refused) {
      assert.match(r.text, /retry-after: 5/i);
      assert.match(r.text, /TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT=5/);
      assert.equal(r.closed, true);
    }
    assert.ok(
      ok.every((r) => !r.closed),
      "the connections within the cap stay open (keep-alive)",
    );
    assert.ok(app.logged.some((m) => m.includes("TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT=5")));
    // A silent connection over the cap is not held either.
    const silent = await open(app.port);
    assert.equal((await received(silent, 4_000)).closed, true);
    // Closing one frees a place.
    sockets[0].destroy();
    await sleep(100);
    const next = await open(app.port);
    const answer = received(next, 2_000);
    next.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    assert.match((await answer).text, /^HTTP\/1\.1 200/);
    for (const s of sockets) s.destroy();
  } finally {
    await app.stop();
  }
});

test("over the total cap, new connections are closed at once", async () => {
  const app = await serve({ maxConnections: 4, headersTimeoutMs: 10_000, requestTimeoutMs: 20_000 }, (_req, res) => res.end("ok"));
  try {
    const sockets: Socket[] = [];
    for (let i = 0; i < 6; i++) sockets.push(await open(app.port));
    const results = await Promise.all(sockets.map((s) => received(s, 1_000)));
    assert.deepEqual(
      results.map((r) => r.closed),
      [false, false, false, false, true, true],
    );
    assert.ok(app.logged.some((m) => m.includes("TOOLSCOPE_MAX_CONNECTIONS")));
    for (const s of sockets) s.destroy();
  } finally {
    await app.stop();
  }
});

type Outcome = { status: number; retryAfter?: string; sentAfterDrain: boolean } | { error: string; sentAfterDrain: boolean };

test(
  "drain under load: accepted requests finish, late arrivals on kept-alive connections get 503 with Retry-After, nothing is reset",
  { timeout: 30_000 },
  async () => {
    // Each request costs the event loop 4 ms of CPU and answers 30 ms later: 40 clients keep it saturated, so requests
    // wait unread in socket buffers as they do on a loaded instance.
    const app = await serve({}, (_req, res) => {
      const until = performance.now() + 4;
      while (performance.now() < until);
      setTimeout(() => res.end("done"), 30);
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 40 });
    let drainAt = Infinity;
    const outcomes: Outcome[] = [];
    const one = () =>
      new Promise<Outcome>((resolve) => {
        const sentAfterDrain = Date.now() >= drainAt;
        const req = request({ port: app.port, host: "127.0.0.1", path: "/", method: "POST", agent }, (res: IncomingMessage) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"], sentAfterDrain }));
        });
        req.on("error", (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message, sentAfterDrain }));
        req.end('{"x":1}');
      });
    const client = async () => {
      for (;;) {
        const o = await one();
        outcomes.push(o);
        if ("error" in o || o.status !== 200) return;
      }
    };
    try {
      const clients = Array.from({ length: 40 }, client);
      await sleep(1_000);
      drainAt = Date.now();
      const left = await app.limits.drain(5_000);
      const drained = Date.now() - drainAt;
      await Promise.all(clients);
      const resets = outcomes.filter((o) => "error" in o && o.error !== "ECONNREFUSED");
      assert.deepEqual(resets, [], `${resets.length} requests were reset or cut`);
      const late = outcomes.filter((o) => "status" in o && o.status === 503);
      assert.ok(late.length > 0, "some requests arrived on kept-alive connections after the drain began");
      assert.ok(late.every((o) => "status" in o && o.retryAfter === "2"));
      assert.ok(outcomes.filter((o) => "status" in o && o.status === 200).length > 100);
      // New connections after the drain began find the port closed (refused, never reset).
      assert.ok(outcomes.filter((o) => "error" in o).every((o) => o.sentAfterDrain));
      assert.equal(left, 0, "everything finished within the grace period");
      assert.ok(drained < 3_000, `the drain took ${drained} ms`);
    } finally {
      agent.destroy();
      await app.stop().catch(() => {});
    }
  },
);

test("a late arrival with a body still arriving gets its 503 whole, not a reset", async () => {
  const app = await serve({}, (req, res) => {
    req.resume();
    req.on("end", () => res.end("ok"));
  });
  const socket = await open(app.port);
  try {
    const first = new Promise<string>((r) => socket.once("data", (d) => r(d.toString())));
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    assert.match(await first, /^HTTP\/1\.1 200/);
    const drained = app.limits.drain(5_000);
    const answer = received(socket, 5_000);
    let error: string | undefined;
    socket.on("error", (err: NodeJS.ErrnoException) => (error = err.code));
    const chunk = "x".repeat(16_384);
    socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${chunk.length * 20}\r\n\r\n`);
    for (let i = 0; i < 20; i++) {
      socket.write(chunk);
      await sleep(10);
    }
    const { text, closed } = await answer;
    assert.equal(error, undefined);
    assert.match(text, /^HTTP\/1\.1 503/);
    assert.match(text, /retry-after: 2/i);
    assert.match(text, /"kind":"unavailable"/);
    assert.equal(closed, true);
    assert.equal(await drained, 0);
  } finally {
    socket.destroy();
    await app.stop().catch(() => {});
  }
});
