import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import type { ToolsResponse } from "@/lib/mcp/contract";
import { closeSharedRedis, firstConnect, newRedis } from "../platform/redis.ts";
import { ConfiguredToolListStore, MAX_TOOL_LIST_TTL_MS, MemoryToolListStore, RedisToolListStore, ToolListCache } from "./tools-cache.ts";
import { TOOL_LIST_CHANNEL, ToolListBus } from "./tool-list-bus.ts";
import { servicesForTests } from "../../../scripts/test-services.mjs";

// A throwaway Redis (scripts/test-services.mjs); when it cannot be had, these suites skip saying why.
const services = await servicesForTests({ redis: true });
const clients: Redis[] = [];
after(async () => {
  // Every connection first (ConfiguredToolListStore uses the process's shared one), then the server.
  clients.forEach((c) => c.disconnect());
  await closeSharedRedis();
  await services.stop();
});
const skip = services.redisUrl ? undefined : `Redis unavailable: ${services.unavailable.redis}`;
const run = randomBytes(4).toString("hex");
/** Skipped with the reason when Redis is unavailable: counted as skipped in the summary, never as passed. */
const withRedis = (name: string, fn: (t: TestContext) => void | Promise<void>) => test(name, { skip }, fn);
let n = 0;
/** A connected client of the test Redis (closed after the file). */
async function client(): Promise<Redis> {
  const c = newRedis(services.redisUrl!);
  clients.push(c);
  await firstConnect(c);
  return c;
}

const modern = { url: "https://example.com/mcp", era: "modern" as const, protocolVersion: "2026-07-28" };

function list(extra: Partial<ToolsResponse> = {}): ToolsResponse {
  return {
    tools: [{ name: "t", inputSchema: { type: "object", properties: { b: {}, a: {} } } }],
    excluded: [],
    fetchedAt: "2026-12-02T14:00:00.000Z",
    pages: 1,
    warnings: [],
    ...extra,
  };
}

describe("RedisToolListStore", () => {
  withRedis("the cache rules hold on Redis: public/private partitions, freshness until exactly ttlMs, key order kept", async () => {
    let now = Date.UTC(2026, 11, 2);
    const store = new RedisToolListStore(await client(), { keyPrefix: `test:${run}:${n++}:`, now: () => now });
    const cache = new ToolListCache(store, () => now);
    const info = await cache.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    assert.deepEqual(info, { hit: false, storedAt: new Date(now).toISOString(), expiresAt: new Date(now + 60_000).toISOString() });
    const hit = await cache.lookup(modern, {});
    assert.equal(hit?.cache.hit, true);
    assert.deepEqual(Object.keys(hit!.list.tools[0].inputSchema.properties as object), ["b", "a"], "JSON round trip keeps key order");
    assert.equal(
      await cache.lookup(modern, { Authorization: "Bearer b" }),
      undefined,
      "a caller with credentials never gets the shared entry",
    );
    await cache.put(modern, { Authorization: "Bearer b" }, list({ ttlMs: 60_000, cacheScope: "private" }));
    assert.ok(await cache.lookup(modern, { Authorization: "Bearer b" }), "their own private entry");
    assert.equal(await cache.lookup(modern, { Authorization: "Bearer c" }), undefined, "not someone else's");
    now += 59_999;
    assert.ok(await cache.lookup(modern, {}));
    now += 1;
    assert.equal(await cache.lookup(modern, {}), undefined, "stale at t_received + ttlMs");
  });

  withRedis("two instances share lists, and one invalidation drops them for both", async () => {
    const keyPrefix = `test:${run}:${n++}:`;
    const a = new ToolListCache(new RedisToolListStore(await client(), { keyPrefix }));
    const b = new ToolListCache(new RedisToolListStore(await client(), { keyPrefix }));
    await a.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    assert.equal((await b.lookup(modern, {}))?.cache.hit, true, "stored by one, served by the other");
    await b.invalidate(`${modern.url}#fragment`);
    assert.equal(await a.lookup(modern, {}), undefined);
  });

  withRedis("keys carry no server address; the hash expires with its longest-lived entry (at most 24 h)", async () => {
    const c = await client();
    const keyPrefix = `test:${run}:${n++}:`;
    const cache = new ToolListCache(new RedisToolListStore(c, { keyPrefix }));
    await cache.put({ ...modern, url: "https://user:secret@example.com/mcp" }, {}, list({ ttlMs: 10_000, cacheScope: "public" }));
    await cache.put(
      { ...modern, url: "https://user:secret@example.com/mcp" },
      { A: "1" },
      list({ ttlMs: 10 * MAX_TOOL_LIST_TTL_MS, cacheScope: "private" }),
    );
    const keys = await c.keys(`${keyPrefix}*`);
    assert.equal(keys.length, 1);
    assert.doesNotMatch(keys[0], /example|secret/);
    const ttl = await c.pttl(keys[0]);
    assert.ok(ttl > MAX_TOOL_LIST_TTL_MS - 5_000 && ttl <= MAX_TOOL_LIST_TTL_MS, `ttl ${ttl}`);
  });

  withRedis("a list over the entry cap is not kept (and replaces nothing stale)", async () => {
    const store = new RedisToolListStore(await client(), { keyPrefix: `test:${run}:${n++}:`, maxEntryChars: 500 });
    const cache = new ToolListCache(store);
    await cache.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    const big = list({
      ttlMs: 60_000,
      cacheScope: "public",
      tools: [{ name: "t", description: "x".repeat(600), inputSchema: { type: "object" } }],
    });
    assert.deepEqual(await cache.put(modern, {}, big), { hit: false });
    assert.equal(await cache.lookup(modern, {}), undefined);
  });

  withRedis("Redis away: lookups miss, nothing is kept, one warning; invalidation reports the failure", async (t) => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
    const down = newRedis(`redis://127.0.0.1:${port}`, { connectTimeout: 300 }, () => {});
    t.after(() => down.disconnect());
    const log: string[] = [];
    const cache = new ToolListCache(new RedisToolListStore(down, { log: (m) => log.push(m) }));
    const started = performance.now();
    assert.deepEqual(await cache.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" })), { hit: false });
    assert.equal(await cache.lookup(modern, {}), undefined);
    assert.equal(await cache.lookup(modern, {}), undefined);
    assert.ok(performance.now() - started < 500, "fails fast");
    assert.deepEqual(log, ["tool-list cache unavailable, lists are fetched from the servers"]);
    await assert.rejects(cache.invalidate(modern.url));
  });
});

describe("ConfiguredToolListStore", () => {
  withRedis(
    "memory without REDIS_URL; with it, Redis for http(s) servers and memory for in-process ones; chosen on first use",
    async () => {
      let asked = 0;
      const plain = new ConfiguredToolListStore(() => (asked++, undefined));
      assert.equal(asked, 0, "nothing is decided at construction");
      const entry = { value: list(), storedAt: Date.now(), expiresAt: Date.now() + 60_000 };
      await plain.set("https://example.com/mcp", "v", entry);
      assert.equal(plain.memory.size, 1);
      assert.equal(asked, 1);

      const memory = new MemoryToolListStore();
      const shared = new ConfiguredToolListStore(() => services.redisUrl, memory);
      await shared.set(`https://example.com/${run}`, "v", entry);
      await shared.set("builtin:demo", "v", entry);
      await shared.set("stdio:memory", "v", entry);
      assert.equal(memory.size, 2, "builtin and stdio servers live in this process: their lists stay here");
      assert.ok(await shared.get(`https://example.com/${run}`, "v"), "the http server's list went to Redis");
      assert.equal(memory.get(`https://example.com/${run}`, "v"), undefined);
      await shared.invalidate(`https://example.com/${run}`);
      assert.equal(await shared.get(`https://example.com/${run}`, "v"), undefined);
    },
  );
});

describe("ToolListBus", () => {
  withRedis("a list_changed published by one instance runs the others' hooks, not its own", async (t) => {
    const seenA: string[] = [];
    const seenB: string[] = [];
    const a = new ToolListBus(services.redisUrl!, (u) => seenA.push(u), { publisher: await client() });
    const b = new ToolListBus(services.redisUrl!, (u) => seenB.push(u), { publisher: await client() });
    t.after(() => Promise.all([a.close(), b.close()]));
    await Promise.all([a.start(), b.start()]);
    await a.publish("https://example.com/mcp");
    for (let i = 0; i < 100 && seenB.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seenB, ["https://example.com/mcp"]);
    assert.deepEqual(seenA, [], "the publisher already dropped its own copies");
  });

  withRedis("nothing connects before start() or publish(); junk on the channel is ignored", async (t) => {
    let connections = 0;
    const counting = createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => counting.listen(0, "127.0.0.1", resolve));
    const idle = new ToolListBus(`redis://127.0.0.1:${(counting.address() as { port: number }).port}`, () => {});
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(connections, 0);
    await idle.close();
    counting.close();

    const seen: string[] = [];
    const bus = new ToolListBus(services.redisUrl!, (u) => seen.push(u), { publisher: await client() });
    t.after(() => bus.close());
    await bus.start();
    const raw = await client();
    await raw.publish(TOOL_LIST_CHANNEL, "not json");
    await raw.publish(TOOL_LIST_CHANNEL, JSON.stringify({ from: "other", url: 42 }));
    await raw.publish(TOOL_LIST_CHANNEL, JSON.stringify({ from: "other", url: "https://a.example/mcp" }));
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seen, ["https://a.example/mcp"]);
  });
});
