import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { createServer, request, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createOverloadGuard, nextLimit, overloadSettings, type OverloadSettings } from "./overload.mjs";

/** A real node:http server whose handler is `work`, behind the guard as scripts/server.mjs puts it. */
async function serve(s: OverloadSettings, work: (res: ServerResponse) => void, queued?: () => number) {
  const guard = createOverloadGuard(s, { queued });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (!guard.admit(req, res, path)) return;
    if (path === "/api/health") return void res.end("ok");
    work(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 500 });
  const get = (path = "/work") =>
    new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers["retry-after"] as string | undefined, body }));
      });
      req.on("error", reject);
      req.end();
    });
  return {
    get,
    guard,
    close: () =>
      new Promise<void>((r) => {
        guard.stop();
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

function burn(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("overload guard", () => {
  test("settings: on in hosted mode by default, off locally, and a bad value names the variable", () => {
    assert.equal(overloadSettings({ TOOLSCOPE_MODE: "hosted" }).loopDelayMs, 200);
    assert.equal(overloadSettings({}).loopDelayMs, 0);
    assert.equal(overloadSettings({ TOOLSCOPE_SHED_LOOP_DELAY_MS: "80" }).loopDelayMs, 80);
    assert.throws(() => overloadSettings({ TOOLSCOPE_MAX_INFLIGHT_REQUESTS: "0" }), /TOOLSCOPE_MAX_INFLIGHT_REQUESTS=0 is invalid/);
  });

  test("more CPU work than the loop can do: new requests are shed 503 with Retry-After, naming the setting; probes pass", async () => {
    // Each request holds the loop 15 ms in three slices, so requests interleave as real renders do.
    const app = await serve({ loopDelayMs: 40, minInflight: 4, maxInflight: 1_000, startInflight: 64 }, (res) => {
      let left = 3;
      const step = () => {
        burn(5);
        if (--left > 0) setImmediate(step);
        else res.end("done");
      };
      step();
    });
    try {
      // Sixty clients, each sending its next request when the last is answered (a steady load, not one burst: a
      // burst arrives before the loop falls behind, and is the in-flight cap's to bound).
      const answers: Awaited<ReturnType<typeof app.get>>[] = [];
      const probes: Awaited<ReturnType<typeof app.get>>[] = [];
      await Promise.all(
        Array.from({ length: 60 }, async (_, c) => {
          for (let i = 0; i < 10; i++) (c === 0 ? probes : answers).push(await app.get(c === 0 ? "/api/health" : "/work"));
        }),
      );
      const shed = answers.filter((a) => a.status === 503);
      assert.ok(shed.length > 0, "some requests were shed");
      for (const a of shed) {
        assert.equal(a.retryAfter, "1");
        assert.match(JSON.parse(a.body).error.message, /TOOLSCOPE_SHED_LOOP_DELAY_MS/);
      }
      assert.ok(
        answers.every((a) => a.status === 200 || a.status === 503),
        "every caller got an answer",
      );
      assert.ok(
        probes.every((a) => a.status === 200),
        "health probes are never shed",
      );
    } finally {
      await app.close();
    }
  });

  test("many requests waiting on I/O hold no CPU: none is shed by the delay rule (a slow upstream's callers all answered)", async () => {
    // A cap that starts above the crowd: this is the delay rule's test (the adaptive cap's growth is tested below).
    const app = await serve({ loopDelayMs: 40, minInflight: 4, maxInflight: 1_000, startInflight: 1_000 }, (res) =>
      setTimeout(() => res.end("late"), 300),
    );
    try {
      const answers = await Promise.all(Array.from({ length: 100 }, () => app.get()));
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    } finally {
      await app.close();
    }
  });

  test("one person's heavy request is never shed: the delay rule needs TOOLSCOPE_SHED_MIN_INFLIGHT requests in the app", async () => {
    const app = await serve({ loopDelayMs: 20, minInflight: 4, maxInflight: 1_000, startInflight: 64 }, (res) => {
      burn(150);
      res.end("heavy");
    });
    try {
      for (let i = 0; i < 5; i++) assert.equal((await app.get()).status, 200);
    } finally {
      await app.close();
    }
  });

  test("TOOLSCOPE_MAX_INFLIGHT_REQUESTS caps requests in the app whatever the delay", async () => {
    const app = await serve({ loopDelayMs: 0, minInflight: 1, maxInflight: 5, startInflight: 64 }, (res) =>
      setTimeout(() => res.end("ok"), 200),
    );
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, () => app.get()));
      assert.equal(answers.filter((a) => a.status === 200).length, 5);
      const shed = answers.filter((a) => a.status === 503);
      assert.equal(shed.length, 7);
      assert.match(JSON.parse(shed[0].body).error.message, /TOOLSCOPE_MAX_INFLIGHT_REQUESTS/);
      assert.equal(app.guard.stats().inflight, 0, "every admitted request was counted out");
    } finally {
      await app.close();
    }
  });

  test("the adaptive cap: doubles while calm and nearly used, cuts by a quarter once per interval when behind, within its bounds", () => {
    const s = { loopDelayMs: 100, minInflight: 16, maxInflight: 1_000, startInflight: 64 };
    assert.equal(nextLimit(64, { inflight: 60, delay: 10, canCut: true }, s), 128, "calm and used: grows");
    assert.equal(nextLimit(64, { inflight: 10, delay: 10, canCut: true }, s), 64, "calm but idle: no growth it has not earned");
    assert.equal(nextLimit(64, { inflight: 60, delay: 70, canCut: true }, s), 64, "between half and the threshold: holds");
    assert.equal(nextLimit(64, { inflight: 60, delay: 150, canCut: true }, s), 48, "behind: cut");
    assert.equal(nextLimit(64, { inflight: 60, delay: 150, canCut: false }, s), 64, "one cut per interval");
    assert.equal(nextLimit(18, { inflight: 18, delay: 500, canCut: true }, s), 16, "never below TOOLSCOPE_SHED_MIN_INFLIGHT");
    assert.equal(nextLimit(800, { inflight: 800, delay: 0, canCut: true }, s), 1_000, "never above TOOLSCOPE_MAX_INFLIGHT_REQUESTS");
  });

  test("a burst of CPU-heavy requests arriving together: the adaptive cap sheds the excess at once instead of admitting them all", async () => {
    const app = await serve({ loopDelayMs: 40, minInflight: 4, maxInflight: 1_000, startInflight: 8 }, (res) => {
      let left = 4;
      const step = () => {
        burn(10);
        if (--left > 0) setImmediate(step);
        else res.end("done");
      };
      step();
    });
    try {
      // Forty open keep-alive connections first, so the forty requests reach the loop in one turn as a real burst does
      // (new connections would be taken one per turn, and wait in the accept queue instead).
      await Promise.all(Array.from({ length: 40 }, () => app.get("/api/health")));
      const answers = await Promise.all(Array.from({ length: 40 }, () => app.get()));
      const ok = answers.filter((a) => a.status === 200).length;
      assert.ok(ok >= 4 && ok <= 16, `about the starting cap admitted (${ok})`);
      assert.equal(ok + answers.filter((a) => a.status === 503 && a.retryAfter === "1").length, 40, "the rest shed with Retry-After");
      assert.match(JSON.parse(answers.find((a) => a.status === 503)!.body).error.message, /adaptive cap/);
    } finally {
      await app.close();
    }
  });

  test("held streams waiting on I/O earn room: the adaptive cap grows past its start while the loop is calm", async () => {
    const app = await serve({ loopDelayMs: 40, minInflight: 4, maxInflight: 1_000, startInflight: 8 }, (res) =>
      setTimeout(() => res.end("late"), 400),
    );
    try {
      // Clients retry on 503 after a short pause, as a caller honouring Retry-After would (shortened for the test).
      const retrying = async () => {
        for (;;) {
          const a = await app.get();
          if (a.status !== 503) return a;
          await new Promise((r) => setTimeout(r, 50));
        }
      };
      const answers = await Promise.all(Array.from({ length: 100 }, retrying));
      assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
      assert.ok(app.guard.stats().limit >= 64, `the cap grew (${app.guard.stats().limit})`);
    } finally {
      await app.close();
    }
  });

  test("pages waiting in the render gate's queue count as delay: with the loop calm, new requests are still shed", async () => {
    let waited = 0;
    const app = await serve(
      { loopDelayMs: 40, minInflight: 2, maxInflight: 1_000, startInflight: 64 },
      (res) => setTimeout(() => res.end("ok"), 300),
      () => waited,
    );
    try {
      const calm = await Promise.all(Array.from({ length: 4 }, () => app.get()));
      assert.deepEqual([...new Set(calm.map((a) => a.status))], [200], "a calm loop and no queue: all admitted");
      // The oldest page in the queue has waited half a second: as behind as a loop half a second late.
      waited = 500;
      const held = [app.get(), app.get()];
      await new Promise((r) => setTimeout(r, 150));
      const shed = await app.get();
      assert.equal(shed.status, 503);
      assert.match(JSON.parse(shed.body).error.message, /behind/);
      await Promise.all(held);
    } finally {
      await app.close();
    }
  });
});
