import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ConcurrencySlots, consumeRate, consumeSnapshotQuota, LimitError, MemoryRateStore } from "./abuse-limits.ts";
import type { LimitsConfig } from "./config.ts";
import { ProxyError } from "./proxy-error.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function limits(extra: Partial<LimitsConfig> = {}): LimitsConfig {
  return {
    enabled: true,
    ratePerMinute: { connect: 3, tools: 5, rpc: 4, docs: 2, snapshots: 2, icons: 6 },
    maxConcurrentPerClient: 2,
    maxConcurrentTotal: 3,
    maxStreamsPerClient: 1,
    maxStreamsTotal: 2,
    snapshotsPerClientPerDay: 3,
    snapshotStoreMaxBytes: 1_000_000,
    snapshotRetentionDays: 30,
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

describe("consumeRate with MemoryRateStore", () => {
  test("N requests a minute pass, the next one is a 429 naming the setting", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "1.2.3.4");
    const err = await limitErrorOf(consumeRate(store, cfg, "connect", "1.2.3.4"));
    assert.equal(err.kind, "rate-limited");
    assert.equal(err.message, "Too many connects: at most 3 a minute from one client (TOOLSCOPE_RATE_CONNECT_PER_MIN).");
    assert.equal(err.retryAfterSeconds, 60, "nothing of the window has passed");
    assert.equal(err.hint, "Try again in 60 s.");
  });

  test("each class has its own count, limit and setting name", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
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

  test("clients are counted separately", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "alice");
    await limitErrorOf(consumeRate(store, cfg, "connect", "alice"));
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "bob");
    await limitErrorOf(consumeRate(store, cfg, "connect", "bob"));
  });

  test("retryAfterSeconds counts down with the clock and stays between 1 and 60", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
    t.mock.timers.tick(20_000);
    assert.equal((await limitErrorOf(consumeRate(store, cfg, "connect", "c"))).retryAfterSeconds, 40);
    t.mock.timers.tick(39_500);
    const last = await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
    assert.equal(last.retryAfterSeconds, 1, "half a second left rounds up to 1, never 0");
    assert.ok(last.retryAfterSeconds >= 1 && last.retryAfterSeconds <= 60);
  });

  test("after the minute has passed, requests are allowed again", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
    t.mock.timers.tick(MINUTE - 1);
    await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
    t.mock.timers.tick(1);
    for (let i = 0; i < 3; i++) await consumeRate(store, cfg, "connect", "c");
    await limitErrorOf(consumeRate(store, cfg, "connect", "c"));
  });

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

describe("consumeSnapshotQuota", () => {
  test("N snapshots a day, then a 429 naming the setting with a wait in hours", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "c");
    const err = await limitErrorOf(consumeSnapshotQuota(store, cfg, "c"));
    assert.equal(err.kind, "rate-limited");
    assert.equal(err.message, "You have shared 3 snapshots today, the most one client may (TOOLSCOPE_SNAPSHOTS_PER_CLIENT_PER_DAY).");
    assert.equal(err.retryAfterSeconds, 24 * 60 * 60);
    assert.equal(err.hint, "Try again in 24 h; a share link of the live docs page needs no snapshot.");
  });

  test("the quota is per client, independent of the per-minute snapshot rate, and renews after a day", async (t) => {
    t.mock.timers.enable({ apis: ["Date", "setTimeout"] });
    const store = new MemoryRateStore();
    const cfg = limits();
    for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "alice");
    await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
    await consumeSnapshotQuota(store, cfg, "bob");
    await consumeRate(store, cfg, "snapshots", "alice");

    t.mock.timers.tick(DAY - 90 * MINUTE);
    const err = await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
    assert.equal(err.retryAfterSeconds, 90 * 60);
    assert.match(err.hint ?? "", /^Try again in 2 h;/, "hours round up");

    t.mock.timers.tick(90 * MINUTE);
    for (let i = 0; i < 3; i++) await consumeSnapshotQuota(store, cfg, "alice");
    await limitErrorOf(consumeSnapshotQuota(store, cfg, "alice"));
  });
});

describe("ConcurrencySlots", () => {
  test("per-client cap: the next request is refused with a message naming TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT", () => {
    const slots = new ConcurrencySlots("request", 2, 10);
    slots.acquire("a");
    slots.acquire("a");
    const err = thrownLimitError(() => slots.acquire("a"));
    assert.equal(err.kind, "rate-limited");
    assert.equal(err.message, "You have 2 requests in progress, the most one client may have at once (TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT).");
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
    assert.equal(thrownLimitError(() => slots.acquire("c")).message, "Toolscope has 2 open streams, the most it takes at once (TOOLSCOPE_MAX_STREAMS_TOTAL).");
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
