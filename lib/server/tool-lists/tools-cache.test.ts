import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import type { ToolsResponse } from "@/lib/mcp/contract";
import { parseToolsRequest } from "@/lib/mcp/contract-guards";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import type { ApiContext } from "../api/api-route.ts";
import { config } from "../platform/config.ts";
import { connect, invalidateToolList, tools } from "../api/proxy-service.ts";
import {
  effectiveTtlMs,
  headerSetHash,
  MAX_TOOL_LIST_TTL_MS,
  MemoryToolListStore,
  ToolListCache,
  type ToolListEntry,
  type ToolListStore,
} from "./tools-cache.ts";

const modern = { url: "https://example.com/mcp", era: "modern" as const, protocolVersion: "2026-07-28" };

function list(extra: Partial<ToolsResponse> = {}): ToolsResponse {
  return {
    tools: [{ name: "t", inputSchema: { type: "object" } }],
    excluded: [],
    fetchedAt: "2026-12-02T14:00:00.000Z",
    pages: 1,
    warnings: [],
    ...extra,
  };
}

/** A store that remembers every key it was given, to check what ends up in a (shared) store. */
class SpyStore implements ToolListStore {
  readonly inner: MemoryToolListStore;
  readonly keys: string[] = [];
  constructor(now: () => number) {
    this.inner = new MemoryToolListStore(undefined, now);
  }
  get(url: string, variant: string) {
    return this.inner.get(url, variant);
  }
  set(url: string, variant: string, entry: ToolListEntry) {
    this.keys.push(`${url} ${variant}`);
    this.inner.set(url, variant, entry);
  }
  invalidate(url: string) {
    this.inner.invalidate(url);
  }
}

describe("tool-list cache rules (fake clock)", () => {
  test("ttlMs absent, zero or negative is not cached; it is capped at 24 h", () => {
    assert.equal(effectiveTtlMs(undefined), 0);
    assert.equal(effectiveTtlMs(-5), 0);
    assert.equal(effectiveTtlMs(0), 0);
    assert.equal(effectiveTtlMs(Number.NaN), 0);
    assert.equal(effectiveTtlMs(60_000), 60_000);
    assert.equal(effectiveTtlMs(10 * MAX_TOOL_LIST_TTL_MS), MAX_TOOL_LIST_TTL_MS);
  });

  test("public lists fetched anonymously are shared with anonymous callers only; fresh until exactly ttlMs", async () => {
    let now = Date.UTC(2026, 11, 2);
    const cache = new ToolListCache(new MemoryToolListStore(undefined, () => now), () => now);
    const info = await cache.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    assert.deepEqual(info, { hit: false, storedAt: new Date(now).toISOString(), expiresAt: new Date(now + 60_000).toISOString() });
    assert.equal((await cache.lookup(modern, {}))?.cache.hit, true);
    assert.equal(
      await cache.lookup(modern, { Authorization: "Bearer b" }),
      undefined,
      "a caller with credentials never gets the shared entry",
    );
    assert.equal(
      await cache.lookup({ ...modern, protocolVersion: "2027-01-01" }, {}),
      undefined,
      "another protocol revision is another key",
    );
    now += 59_999;
    assert.ok(await cache.lookup(modern, {}));
    now += 1;
    assert.equal(await cache.lookup(modern, {}), undefined, "stale at t_received + ttlMs");
  });

  test("a public list fetched with headers stays in that caller's private partition", async () => {
    const now = Date.UTC(2026, 11, 2);
    const store = new SpyStore(() => now);
    const cache = new ToolListCache(store, () => now);
    const secret = "Bearer very-secret-token";
    await cache.put(modern, { Authorization: secret }, list({ ttlMs: 60_000, cacheScope: "public" }));
    assert.equal(await cache.lookup(modern, {}), undefined, "not served to anonymous callers");
    assert.equal(await cache.lookup(modern, { Authorization: "Bearer other" }), undefined, "nor to other credentials");
    assert.ok(await cache.lookup(modern, { authorization: secret }), "the same header set (names case-insensitive) hits");
    assert.ok(
      store.keys.every((k) => !k.includes("secret")),
      "headers are never part of a key",
    );
    assert.ok(store.keys[0]?.includes(headerSetHash({ Authorization: secret })));
  });

  test("private and scope-less lists are keyed by the header-set hash", async () => {
    const now = Date.UTC(2026, 11, 2);
    const cache = new ToolListCache(new MemoryToolListStore(undefined, () => now), () => now);
    await cache.put(modern, { "X-Tenant": "a" }, list({ ttlMs: 60_000, cacheScope: "private" }));
    await cache.put({ ...modern, url: "https://example.com/other" }, { "X-Tenant": "a" }, list({ ttlMs: 60_000 }));
    assert.ok(await cache.lookup(modern, { "X-Tenant": "a" }));
    assert.equal(await cache.lookup(modern, { "X-Tenant": "b" }), undefined);
    assert.equal(
      await cache.lookup({ ...modern, url: "https://example.com/other" }, { "X-Tenant": "b" }),
      undefined,
      "no cacheScope is treated as private",
    );
    assert.ok(await cache.lookup({ ...modern, url: "HTTPS://EXAMPLE.com/other" }, { "X-Tenant": "a" }), "the URL is normalised");
    assert.deepEqual(await cache.put(modern, {}, list({ cacheScope: "public" })), { hit: false }, "no ttlMs: not kept");
  });

  test("invalidate(url) drops every variant of that server only", async () => {
    const now = Date.UTC(2026, 11, 2);
    const cache = new ToolListCache(new MemoryToolListStore(undefined, () => now), () => now);
    const other = { ...modern, url: "https://other.example/mcp" };
    await cache.put(modern, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    await cache.put(modern, { "X-Tenant": "a" }, list({ ttlMs: 60_000, cacheScope: "private" }));
    await cache.put(other, {}, list({ ttlMs: 60_000, cacheScope: "public" }));
    await cache.invalidate("https://example.com/mcp#x");
    assert.equal(await cache.lookup(modern, {}), undefined);
    assert.equal(await cache.lookup(modern, { "X-Tenant": "a" }), undefined);
    assert.ok(await cache.lookup(other, {}));
  });

  test("the in-memory store is bounded by entries and by size", () => {
    const now = 0;
    const entry = (chars: number): ToolListEntry => ({ value: list({ warnings: ["x".repeat(chars)] }), storedAt: 0, expiresAt: 60_000 });
    const byCount = new MemoryToolListStore({ maxEntries: 2, maxChars: 1e9, maxEntryChars: 1e9 }, () => now);
    byCount.set("a", "v", entry(1));
    byCount.set("b", "v", entry(1));
    byCount.get("a", "v");
    byCount.set("c", "v", entry(1));
    assert.equal(byCount.size, 2);
    assert.equal(byCount.get("b", "v"), undefined, "least recently used evicted");
    const bySize = new MemoryToolListStore({ maxEntries: 100, maxChars: 2_000, maxEntryChars: 1_500 }, () => now);
    bySize.set("big", "v", entry(5_000));
    assert.equal(bySize.get("big", "v"), undefined, "a list larger than the per-entry cap is not kept");
    bySize.set("a", "v", entry(1_000));
    bySize.set("b", "v", entry(1_000));
    assert.equal(bySize.get("a", "v"), undefined, "the oldest made room");
    assert.ok(bySize.get("b", "v"));
  });

  test("fresh is parsed from the /api/tools body", () => {
    const limits = { maxCount: 20, maxBytes: 16_384 };
    const connection = { v: 1, url: "builtin:demo", era: "modern", protocolVersion: "2026-07-28" };
    assert.equal(parseToolsRequest({ connection, fresh: true }, limits).fresh, true);
    assert.equal(parseToolsRequest({ connection }, limits).fresh, undefined);
    assert.throws(() => parseToolsRequest({ connection, fresh: "yes" }, limits), /"fresh" must be true or false/);
  });
});

describe("/api/tools with the cache (real demo server over HTTP)", () => {
  const ctx: ApiContext = { config: config(), origin: "http://localhost:3000", signal: new AbortController().signal };
  const demo = createDemoServerHandler({ pageSize: 5 });
  let served: ServedHandler | undefined;
  let listCalls = 0;
  after(async () => {
    await served?.close();
    await demo.close();
  });

  async function start(): Promise<string> {
    served = await serveFetchHandler({
      async fetch(req) {
        if (
          req.method === "POST" &&
          (
            (await req
              .clone()
              .json()
              .catch(() => ({}))) as { method?: string }
          ).method === "tools/list"
        )
          listCalls++;
        return demo.fetch(req);
      },
    });
    return served.url.toString();
  }

  test("served from cache when fresh, refetched with fresh:true, partitioned by headers, dropped by invalidate", async () => {
    const url = await start();
    const { connection } = await connect({ url, era: "modern", headers: {} }, ctx);

    const first = await tools({ connection, headers: {} }, ctx);
    assert.equal(first.cacheScope, "public");
    assert.equal(first.ttlMs, 300_000);
    assert.equal(first.cache?.hit, false);
    assert.ok(first.cache?.storedAt && first.cache.expiresAt);
    assert.equal(Date.parse(first.cache.expiresAt) - Date.parse(first.cache.storedAt), 300_000);
    const pages = listCalls;
    assert.ok(pages >= 2, "the demo pages its list");

    const second = await tools({ connection, headers: {} }, ctx);
    assert.equal(listCalls, pages, "no upstream request on a hit");
    assert.deepEqual(second.cache, { ...first.cache, hit: true });
    assert.deepEqual(second.tools, first.tools);
    assert.equal(second.fetchedAt, first.fetchedAt);

    const forced = await tools({ connection, headers: {}, fresh: true }, ctx);
    assert.equal(listCalls, pages * 2, "fresh: true goes to the server");
    assert.equal(forced.cache?.hit, false);

    const withAuth = await tools({ connection, headers: { Authorization: "Bearer a" } }, ctx);
    assert.equal(withAuth.cache?.hit, false, "the public entry is not served to a caller with credentials");
    assert.equal(listCalls, pages * 3);
    assert.equal((await tools({ connection, headers: { Authorization: "Bearer a" } }, ctx)).cache?.hit, true, "their own partition hits");
    assert.equal((await tools({ connection, headers: { Authorization: "Bearer b" } }, ctx)).cache?.hit, false, "another token misses");
    assert.equal(listCalls, pages * 4);

    await invalidateToolList(url);
    assert.equal((await tools({ connection, headers: {} }, ctx)).cache?.hit, false, "invalidated");
    assert.equal((await tools({ connection, headers: { Authorization: "Bearer a" } }, ctx)).cache?.hit, false, "every partition");
    assert.equal(listCalls, pages * 6);
  });

  test("legacy lists carry no ttlMs and are never cached", async () => {
    const url = served!.url.toString();
    const { connection } = await connect({ url, era: "legacy", headers: {} }, ctx);
    const before = listCalls;
    const a = await tools({ connection, headers: {} }, ctx);
    const b = await tools({ connection, headers: {} }, ctx);
    assert.equal(a.ttlMs, undefined);
    assert.deepEqual([a.cache, b.cache], [{ hit: false }, { hit: false }]);
    assert.ok(listCalls >= before + 2 * a.pages);
  });
});
