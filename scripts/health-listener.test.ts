import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { healthListenerSettings, startHealthListener } from "./health-listener.mjs";
import { freePort } from "../playwright/fixtures/free-port.ts";

/**
 * Probe `url` from another process, `delayMs` after it starts: the test's own thread may be blocked on purpose, and
 * the probe must not depend on it. Resolves with the status, the body and how long the probe waited for its answer.
 */
function probeFromAnotherProcess(
  url: string,
  delayMs: number,
): Promise<{ status: number; body: Record<string, unknown>; ms: number; at: number }> {
  const code = `setTimeout(async () => { const t = performance.now(); const r = await fetch(${JSON.stringify(url)}); const body = await r.json(); console.log(JSON.stringify({ status: r.status, body, ms: performance.now() - t, at: Date.now() })); }, ${delayMs});`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (b: Buffer) => (out += b.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (c) => (c === 0 ? resolve(JSON.parse(out)) : reject(new Error(`probe exited ${c}`)))),
  );
}

function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("health listener (TOOLSCOPE_HEALTH_PORT)", () => {
  test("settings: off by default, named in the error when invalid", () => {
    assert.deepEqual(healthListenerSettings({}), { port: 0, stallMs: 30_000 });
    assert.throws(() => healthListenerSettings({ TOOLSCOPE_HEALTH_PORT: "70000" }), /TOOLSCOPE_HEALTH_PORT=70000 is invalid/);
    assert.throws(() => healthListenerSettings({ TOOLSCOPE_HEALTH_STALL_MS: "5" }), /TOOLSCOPE_HEALTH_STALL_MS=5 is invalid/);
  });

  test("answers liveness and readiness with the published load; other paths 404", async () => {
    const port = await freePort();
    const health = await startHealthListener({ port, stallMs: 30_000 }, { stats: () => ({ loopDelayMs: 12, inflight: 3, limit: 64 }) });
    try {
      const live = await fetch(`http://127.0.0.1:${port}/api/health`);
      assert.equal(live.status, 200);
      assert.deepEqual(await live.json(), { status: "ok" });
      await new Promise((r) => setTimeout(r, 250));
      const ready = await fetch(`http://127.0.0.1:${port}/api/health?ready=1`);
      assert.deepEqual(await ready.json(), { status: "ready", loopDelayMs: 12, inflight: 3, limit: 64 });
      const other = await fetch(`http://127.0.0.1:${port}/api/rpc`);
      assert.equal(other.status, 404);
      assert.match((await other.json()).error.message, /answers GET \/api\/health/);
    } finally {
      await health.stop();
    }
  });

  test("a busy main thread: the probe is answered at once, by the worker (the main thread's own port could not take it)", async () => {
    const port = await freePort();
    const health = await startHealthListener({ port, stallMs: 30_000 });
    try {
      const probe = probeFromAnotherProcess(`http://127.0.0.1:${port}/api/health`, 300);
      // The main thread does not turn for 2.5 s: the probe arrives during it (a process starts in well under 2 s).
      blockFor(2_500);
      const blockedUntil = Date.now();
      const { status, ms, at } = await probe;
      assert.equal(status, 200);
      assert.ok(at < blockedUntil, "answered while the main thread was still blocked");
      assert.ok(ms < 1_000, `answered at once (${Math.round(ms)} ms)`);
    } finally {
      await health.stop();
    }
  });

  test("a main thread that has not turned for TOOLSCOPE_HEALTH_STALL_MS is reported stalled (503)", async () => {
    const port = await freePort();
    const health = await startHealthListener({ port, stallMs: 500 });
    try {
      const probe = probeFromAnotherProcess(`http://127.0.0.1:${port}/api/health`, 1_200);
      blockFor(3_000);
      const { status, body } = await probe;
      assert.equal(status, 503);
      assert.equal(body.status, "stalled");
      assert.match(String(body.message), /TOOLSCOPE_HEALTH_STALL_MS is 500/);
      await new Promise((r) => setTimeout(r, 250));
      assert.equal((await fetch(`http://127.0.0.1:${port}/api/health`)).status, 200, "alive again once the loop turns");
    } finally {
      await health.stop();
    }
  });

  test("draining: readiness 503 shutting-down, liveness still 200", async () => {
    const port = await freePort();
    const health = await startHealthListener({ port, stallMs: 30_000 });
    try {
      health.draining();
      const ready = await fetch(`http://127.0.0.1:${port}/api/health?ready=1`);
      assert.equal(ready.status, 503);
      assert.deepEqual(await ready.json(), { status: "shutting-down" });
      assert.equal((await fetch(`http://127.0.0.1:${port}/api/health`)).status, 200);
    } finally {
      await health.stop();
    }
  });

  test("a port in use is a start-up error naming the setting", async () => {
    const port = await freePort();
    const first = await startHealthListener({ port, stallMs: 30_000 });
    try {
      await assert.rejects(startHealthListener({ port, stallMs: 30_000 }), /TOOLSCOPE_HEALTH_PORT=\d+: listen EADDRINUSE/);
    } finally {
      await first.stop();
    }
  });
});
