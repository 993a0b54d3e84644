import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import {
  ConcurrencySlots,
  consumeRate,
  consumeSnapshotQuota,
  LimitError,
  MemoryRateStore,
  rateStore,
  RedisRateStore,
  type RateStore,
} from "./abuse-limits.ts";
import type { LimitsConfig } from "../platform/config.ts";
import { ProxyError } from "../../upstream/errors/proxy-error.ts";
import { REDIS_RETRY_AFTER_MS } from "./rate-store-redis.ts";
import { closeSharedRedis, newRedis } from "../platform/redis.ts";
import { servicesForTests } from "../../../scripts/test-services.mjs";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function limits(extra: Partial<LimitsConfig> = {}): LimitsConfig {
  return {
    enabled: true,
    ratePerMinute: { connect: 3, tools: 5, rpc: 4, docs: 2, snapshots: 2, icons: 6, oauth: 2, control: 8 },
    maxConcurrentPerClient: 2,
    maxConcurrentTotal: 3,
    maxStreamsPerClient: 1,
    maxStreamsTotal: 2,
    snapshotsPerClientPerDay: 3,
    snapshotStoreMaxBytes: 1_000_000,
    snapshotRetentionDays: 30,
    snapshotClientMaxBytes: 20_000,
    snapshotMaxAgeDays: 365,
    ...extra,
  };
}

/** The LimitError a promise rejects with (fails the test when it resolves or throws something else). */
async function limitErrorOf(p: Promise<unknown>): Promise<LimitError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof LimitError, `expected a LimitError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected a LimitError, but the request was let through");
}

/** The LimitError a function throws. */
function thrownLimitError(fn: () => unknown): LimitError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof LimitError, `expected a LimitError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected a LimitError");
}

describe("LimitError", () => {
  test("is a rate-limited ProxyError with the seconds to wait and a default hint", () => {
    const err = new LimitError("Too many.", 7);
    assert.ok(err instanceof ProxyError);
    assert.equal(err.kind, "rate-limited");
    assert.equal(err.name, "LimitError");
    assert.equal(err.message, "Too many.");
    assert.equal(err.retryAfterSeconds, 7);
    assert.equal(err.hint, "Try again in 7 s.");
  });
});

/** A test skipped with the reason when its service is unavailable: counted as skipped in the summary, never as passed. */
function needing(skip: string | undefined) {
  return (name: string, fn: (t: TestContext) => void | Promise<void>) => test(name, { skip }, fn);
}

/** A rate store under test, with a clock that moves for it. */
interface RateBackend {
  name: string;
  skip?: string;
  /** How close to a window's end a test may check: memory keeps exact time; Redis keeps its own, real clock. */
  slackMs: number;
  make(t: TestContext): { store: RateStore; advance(ms: number): Promise<void> };
}

const memoryBackend: RateBackend = {
  name: "MemoryRateStore",
  slackMs: 1,
  make(t) {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    return { store: new MemoryRateStore(), advance: async (ms) => t.mock.timers.tick(ms) };
  },
};

// A throwaway Redis (scripts/test-services.mjs); when it cannot be had, the Redis suites skip saying why.
const services = await servicesForTests({ redis: true });
const run = randomBytes(4).toString("hex");
const admin = services.redisUrl ? new Redis(services.redisUrl, { lazyConnect: true }) : undefined;
after(async () => {
  admin?.disconnect();
  await services.stop();
});
let stores = 0;

/** Moving time for Redis: every key of the store expires `ms` sooner (the server's clock cannot be faked). */
async function shiftRedisTtls(prefix: string, ms: number): Promise<void> {
  let cursor = "0";
  let seen = 0;
  do {
    const [next, keys] = await admin!.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    seen += keys.length;
    for (const key of keys) {
      const ttl = await admin!.pttl(key);
      if (ttl < 0) continue;
      if (ttl - ms <= 0) await admin!.del(key);
      else await admin!.pexpire(key, ttl - ms);
    }
  } while (cursor !== "0");
  assert.ok(seen > 0, "the counts are in Redis (not in the per-instance stand-in)");
}

const redisBackend: RateBackend = {
  name: "RedisRateStore",
  skip: services.redisUrl ? undefined : `Redis unavailable: ${services.unavailable.redis}`,
  slackMs: 250,
  make(t) {
    // Date only (the store's in-memory block of clients over their limit runs on it); ioredis needs real timers.
    t.mock.timers.enable({ apis: ["Date"], now: Date.now() });
    const client = newRedis(services.redisUrl!);
    t.after(() => client.disconnect());
    const prefix = `test:${run}:${stores++}:`;
    const log: string[] = [];
    // Every count must have gone to Redis: the stand-in would pass these tests too, and says so when used.
    t.after(() => assert.deepEqual(log, [], "Redis was used throughout"));
    return {
      store: new RedisRateStore(client, { keyPrefix: prefix, log: (l) => log.push(l) }),
      advance: async (ms) => {
        t.mock.timers.tick(ms);
        await shiftRedisTtls(prefix, ms);
      },
    };
  },
};

for (const backend of [memoryBackend, redisBackend]) rateSuite(backend);

function rateSuite(backend: RateBackend) {
  const it = needing(backend.skip);
  describe(`consumeRate with ${backend.name}`, () => {
    it("N requests a minute pass, the next one is a 429 naming the setting", async (t) => {
      const { store } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "1.2.3.4");
      const err = await limitErrorOf(consumeRate(store, cfg, "connect", "1.2.3.4"));
      assert.equal(err.kind, "rate-limited");
      assert.equal(err.message, "Too many connects: at most 3 a minute from one client (TOOLSCOPE_RATE_CONNECT_PER_MIN).");
      assert.equal(err.retryAfterSeconds, 60, "nothing of the window has passed");
      assert.equal(err.hint, "Try again in 60 s.");
    });

    it("each class has its own count, limit and setting name", async (t) => {
      const { store } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
      // connect is used up; rpc (4 a minute) is not.
      for (let i = 0; i < 4; i++) await consumeRate(store, cfg, "rpc", "c");
      const rpc = await limitErrorOf(consumeRate(store, cfg, "rpc", "c"));
      assert.equal(rpc.message, "Too many calls: at most 4 a minute from one client (TOOLSCOPE_RATE_RPC_PER_MIN).");
      for (let i = 0; i < 2; i++) await consumeRate(store, cfg, "docs", "c");
      const docs = await limitErrorOf(consumeRate(store, cfg, "docs", "c"));
      assert.match(docs.message, /at most 2 a minute .*\(TOOLSCOPE_RATE_DOCS_PER_MIN\)\.$/);
      for (let i = 0; i < 6; i++) await consumeRate(store, cfg, "icons", "c");
      assert.match((await limitErrorOf(consumeRate(store, cfg, "icons", "c"))).message, /TOOLSCOPE_RATE_ICONS_PER_MIN/);
    });

    it("clients are counted separately", async (t) => {
      const { store } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "alice");
      await limitErrorOf(consumeRate(store, cfg, "connect", "alice"));
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "bob");
      await limitErrorOf(consumeRate(store, cfg, "connect", "bob"));
    });

    it("retryAfterSeconds counts down with the clock and stays between 1 and 60", async (t) => {
      const { store, advance } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
      await advance(20_000);
      assert.equal((await limitErrorOf(consumeRate(store, cfg, "connect", "c"))).retryAfterSeconds, 40);
      await advance(39_500);
      const last = await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
      assert.equal(last.retryAfterSeconds, 1, "half a second left rounds up to 1, never 0");
      assert.ok(last.retryAfterSeconds >= 1 && last.retryAfterSeconds <= 60);
    });

    it("after the minute has passed, requests are allowed again", async (t) => {
      const { store, advance } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
      await advance(MINUTE - backend.slackMs);
      await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
      await advance(backend.slackMs);
      for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
      await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
    });
  });

  describe(`consumeSnapshotQuota with ${backend.name}`, () => {
    it("N snapshots a day, then a 429 naming the setting with a wait in hours", async (t) => {
      const { store } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "c");
      const err = await limitErrorOf(consumeSnapshotQuota(store, cfg, "c"));
      assert.equal(err.kind, "rate-limited");
      assert.equal(err.message, "You have shared 3 snapshots today, the most one client may (TOOLSCOPE_SNAPSHOTS_PER_CLIENT_PER_DAY).");
      assert.equal(err.retryAfterSeconds, 24 * 60 * 60);
      assert.equal(err.hint, "Try again in 24 h; a share link of the live docs page needs no snapshot.");
    });

    it("the quota is per client, independent of the per-minute snapshot rate, and renews after a day", async (t) => {
      const { store, advance } = backend.make(t);
      const cfg = limits();
      for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "alice");
      await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
      await consumeSnapshotQuota(store, cfg, "bob");
      await consumeRate(store, cfg, "snapshots", "alice");

      await advance(DAY - 90 * MINUTE);
      const err = await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
      assert.equal(err.retryAfterSeconds, 90 * 60);
      assert.match(err.hint ?? "", /^Try again in 2 h;/, "hours round up");

      await advance(90 * MINUTE);
      for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "alice");
      await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
    });
  });
}

describe("MemoryRateStore", () => {
  test("the memory store honours a faked Date alone (not only its clean-up timer)", async (t) => {
    // Only Date is faked: the store's own expiry timer is real (and unref'd), so only the expiresAt check can
    // let the request through after the fake minute.
    t.mock.timers.enable({ apis: ["Date"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
    await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
    t.mock.timers.tick(MINUTE);
    await consumeRate(store, cfg, "connect", "c");
  });
});

/** A loopback port with nothing listening on it (yet). */
async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const port = (probe.address() as { port: number }).port;
      probe.close(() => resolve(port));
    });
  });
}

describe("RedisRateStore across instances and outages", () => {
  const withRedis = needing(redisBackend.skip);
  withRedis("instances sharing one Redis share each client's count", async (t) => {
    const a = newRedis(services.redisUrl!);
    const b = newRedis(services.redisUrl!);
    t.after(() => (a.disconnect(), b.disconnect()));
    const keyPrefix = `test:${run}:shared:`;
    const one = new RedisRateStore(a, { keyPrefix });
    const two = new RedisRateStore(b, { keyPrefix });
    const cfg = limits();
    await consumeRate(one, cfg, "connect", "c");
    await consumeRate(two, cfg, "connect", "c");
    await consumeRate(one, cfg, "connect", "c");
    const err = await limitErrorOf(consumeRate(two, cfg, "connect", "c"));
    assert.match(err.message, /at most 3 a minute/);
    await limitErrorOf(consumeRate(one, cfg, "connect", "c"));
    await consumeRate(two, cfg, "connect", "someone-else");
  });

  withRedis("Redis refusing connections: each instance counts in memory, with one warning, without waiting", async (t) => {
    const log: string[] = [];
    // A short connect timeout only so the test process is not kept 2 s by ioredis's socket timer after it.
    const client = newRedis(`redis://127.0.0.1:${await closedPort()}`, { connectTimeout: 300 }, () => {});
    t.after(() => client.disconnect());
    const store = new RedisRateStore(client, { log: (l) => log.push(l) });
    const cfg = limits();
    const started = performance.now();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
    const err = await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
    assert.equal(
      err.message,
      "Too many connects: at most 3 a minute from one client (TOOLSCOPE_RATE_CONNECT_PER_MIN).",
      "the limit still holds, per instance",
    );
    for (let i = 0; i < 4; i++) await consumeRate(store, cfg, "rpc", "c");
    await limitErrorOf(consumeRate(store, cfg, "rpc", "c"));
    assert.ok(performance.now() - started < 1_500, `answered in ${Math.round(performance.now() - started)} ms`);
    assert.deepEqual(log, ["rate limits counted per instance: Redis unavailable"]);
  });

  withRedis(
    "a Redis that accepts connections but never answers costs the first request at most the connect timeout, and no other",
    async (t) => {
      const { createServer } = await import("node:net");
      const sockets = new Set<import("node:net").Socket>();
      const silent = createServer((s) => sockets.add(s));
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      t.after(() => {
        for (const s of sockets) s.destroy();
        silent.close();
      });
      const client = newRedis(`redis://127.0.0.1:${(silent.address() as { port: number }).port}`, { connectTimeout: 300 }, () => {});
      t.after(() => client.disconnect());
      const log: string[] = [];
      const store = new RedisRateStore(client, { log: (l) => log.push(l) });
      const cfg = limits();
      let started = performance.now();
      await consumeRate(store, cfg, "connect", "c");
      const first = performance.now() - started;
      assert.ok(first < 600, `first request answered in ${Math.round(first)} ms (connect timeout 300 ms)`);
      started = performance.now();
      await consumeRate(store, cfg, "connect", "c");
      await consumeRate(store, cfg, "connect", "c");
      await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
      const rest = performance.now() - started;
      assert.ok(rest < 200, `the next ones answered in ${Math.round(rest)} ms`);
      assert.equal(log.length, 1);
    },
  );

  withRedis("when Redis comes back, counts go to Redis again and that is logged", async (t) => {
    const { createServer, connect } = await import("node:net");
    const port = await closedPort();
    const client = newRedis(`redis://127.0.0.1:${port}`, { retryStrategy: () => 50, connectTimeout: 300 }, () => {});
    t.after(() => client.disconnect());
    const log: string[] = [];
    let now = 1_000_000;
    const keyPrefix = `test:${run}:back:`;
    const store = new RedisRateStore(client, { keyPrefix, log: (l) => log.push(l), now: () => now });
    const cfg = limits();
    await consumeRate(store, cfg, "rpc", "c");
    assert.equal(log.length, 1, "stood in for Redis");

    const target = new URL(services.redisUrl!);
    const forwarder = createServer((c) => {
      const upstream = connect(Number(target.port), target.hostname);
      c.pipe(upstream).pipe(c);
      c.on("error", () => upstream.destroy());
      upstream.on("error", () => c.destroy());
    });
    await new Promise<void>((resolve) => forwarder.listen(port, "127.0.0.1", resolve));
    t.after(() => forwarder.close());
    for (let i = 0; i < 100 && client.status !== "ready"; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(client.status, "ready");

    await consumeRate(store, cfg, "rpc", "c");
    assert.equal(
      await admin!.exists(`${keyPrefix}rate-rpc:c`),
      0,
      `within ${REDIS_RETRY_AFTER_MS} ms of the failure, Redis is not asked yet`,
    );
    now += REDIS_RETRY_AFTER_MS;
    await consumeRate(store, cfg, "rpc", "c");
    assert.equal(await admin!.get(`${keyPrefix}rate-rpc:c`), "1", "counted in Redis again");
    assert.deepEqual(log.slice(1), ["rate limits shared again: Redis answers"]);
  });

  withRedis("rateStore(cfg) picks Redis when REDIS_URL is set, and connects nothing until the first request", async (t) => {
    assert.ok(rateStore({}) instanceof MemoryRateStore);
    const { createServer } = await import("node:net");
    let connections = 0;
    const counting = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    t.after(() => counting.close());
    t.after(() => closeSharedRedis());
    const store = rateStore({ redisUrl: `redis://127.0.0.1:${(counting.address() as { port: number }).port}` });
    assert.ok(store instanceof RedisRateStore);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(connections, 0, "constructing the store connects nothing");
    const stderr = t.mock.method(process.stderr, "write", () => true);
    await consumeRate(store, limits(), "connect", "c");
    stderr.mock.restore();
    assert.ok(connections >= 1, "the first request connects");
    const lines = stderr.mock.calls.map((c) => String(c.arguments[0]));
    assert.ok(
      lines.some((l) => l.includes("rate limits counted per instance")),
      lines.join(""),
    );
  });
});

describe("ConcurrencySlots", () => {
  test("per-client cap: the next request is refused with a message naming TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT", () => {
    const slots = new ConcurrencySlots("request", 2, 10);
    slots.acquire("a");
    slots.acquire("a");
    const err = thrownLimitError(() => slots.acquire("a"));
    assert.equal(err.kind, "rate-limited");
    assert.equal(
      err.message,
      "You have 2 requests in progress, the most one client may have at once (TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT).",
    );
    assert.equal(err.retryAfterSeconds, 1);
    assert.equal(err.hint, "Wait for one to finish, or close one, and try again.");
    assert.equal(slots.inUse("a"), 2, "a refused request takes no slot");
    assert.equal(slots.inUse(), 2);
  });

  test("total cap: refused for everyone with a message naming TOOLSCOPE_MAX_CONCURRENT_TOTAL", () => {
    const slots = new ConcurrencySlots("request", 2, 3);
    slots.acquire("a");
    slots.acquire("a");
    slots.acquire("b");
    const err = thrownLimitError(() => slots.acquire("c"));
    assert.equal(err.message, "Toolscope has 3 requests in progress, the most it takes at once (TOOLSCOPE_MAX_CONCURRENT_TOTAL).");
    assert.equal(err.retryAfterSeconds, 5);
    assert.equal(err.hint, "Try again in a few seconds.");
    assert.equal(slots.inUse("c"), 0);
    assert.equal(slots.inUse(), 3);
  });

  test("stream slots name TOOLSCOPE_MAX_STREAMS_PER_CLIENT and _TOTAL", () => {
    const slots = new ConcurrencySlots("stream", 1, 2);
    slots.acquire("a");
    assert.equal(
      thrownLimitError(() => slots.acquire("a")).message,
      "You have 1 open streams, the most one client may have at once (TOOLSCOPE_MAX_STREAMS_PER_CLIENT).",
    );
    slots.acquire("b");
    assert.equal(
      thrownLimitError(() => slots.acquire("c")).message,
      "Toolscope has 2 open streams, the most it takes at once (TOOLSCOPE_MAX_STREAMS_TOTAL).",
    );
  });

  test("release frees the slot, and releasing twice frees only one", () => {
    const slots = new ConcurrencySlots("request", 2, 3);
    const a1 = slots.acquire("a");
    const a2 = slots.acquire("a");
    const b1 = slots.acquire("b");
    assert.equal(slots.inUse("a"), 2);
    assert.equal(slots.inUse("b"), 1);
    assert.equal(slots.inUse(), 3);

    a1();
    assert.equal(slots.inUse("a"), 1);
    assert.equal(slots.inUse(), 2);
    a1();
    a1();
    assert.equal(slots.inUse("a"), 1, "a second release of the same slot does not free another one");
    assert.equal(slots.inUse(), 2);

    slots.acquire("a"); // the freed slot can be taken again
    assert.equal(slots.inUse("a"), 2);
    thrownLimitError(() => slots.acquire("a"));

    a2();
    b1();
    b1();
    assert.equal(slots.inUse("a"), 1);
    assert.equal(slots.inUse("b"), 0);
    assert.equal(slots.inUse(), 1);
  });

  test("a freed slot under the total cap lets another client in", () => {
    const slots = new ConcurrencySlots("stream", 5, 1);
    const release = slots.acquire("a");
    thrownLimitError(() => slots.acquire("b"));
    release();
    release();
    assert.equal(slots.inUse(), 0);
    slots.acquire("b");
    assert.equal(slots.inUse("b"), 1);
    thrownLimitError(() => slots.acquire("a"));
  });

  test("the per-client cap is checked before the total cap", () => {
    const slots = new ConcurrencySlots("request", 1, 1);
    slots.acquire("a");
    assert.match(thrownLimitError(() => slots.acquire("a")).message, /PER_CLIENT/);
    assert.match(thrownLimitError(() => slots.acquire("b")).message, /_TOTAL/);
  });
});
