import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createDemoMcpServer } from "@/lib/demo/server";
import { serveFetchHandler, type FetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { connectServer, verdictOf, type ConnectOptions } from "./connect.ts";
import {
  ERA_CACHE_TTL_MS,
  eraVerdictStore,
  MAX_RETRY_HOLD_MS,
  MemoryEraVerdictStore,
  MemoryRetryHolds,
  normaliseServerUrl,
  verdictTtlMs,
  type EraVerdict,
} from "./era-cache.ts";
import { BUILTIN_TARGETS } from "../../server/platform/builtin-targets.ts";
import { config } from "../../server/platform/config.ts";
import { connect, tools } from "../../server/api/proxy-service.ts";
import { classifyError } from "../errors/proxy-error.ts";
import { resolveTarget } from "../egress/targets.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";

const ORIGIN = "http://localhost:3000";
const served: ServedHandler[] = [];
after(async () => {
  await Promise.all(served.map((s) => s.close()));
});

async function serve(handler: FetchHandler): Promise<string> {
  const s = await serveFetchHandler(handler);
  served.push(s);
  return s.url.toString();
}

/** Counts what reaches a handler (method of each JSON-RPC POST), passing everything through. */
function counting(inner: FetchHandler): FetchHandler & { methods: string[] } {
  const methods: string[] = [];
  return {
    methods,
    async fetch(req) {
      if (req.method === "POST")
        methods.push(
          String(
            (
              (await req
                .clone()
                .json()
                .catch(() => ({}))) as { method?: unknown }
            ).method,
          ),
        );
      return inner.fetch(req);
    },
  };
}

async function opts(url: string, store: MemoryEraVerdictStore, extra: Partial<ConnectOptions> = {}): Promise<ConnectOptions> {
  return {
    target: await resolveTarget(url, ORIGIN, config(), BUILTIN_TARGETS),
    url,
    era: "auto",
    userHeaders: {},
    timeoutMs: 5_000,
    maxBodyBytes: 1_000_000,
    eraCacheTtlMs: ERA_CACHE_TTL_MS,
    eraStore: store,
    ...extra,
  };
}

describe("era verdict store", () => {
  test("entries expire after their TTL (fake clock) and the store stays bounded, least recently used out first", () => {
    let now = 1_000;
    const store = new MemoryEraVerdictStore(2, () => now);
    store.set("a", { kind: "legacy" }, ERA_CACHE_TTL_MS);
    now += ERA_CACHE_TTL_MS - 1;
    assert.deepEqual(store.get("a"), { kind: "legacy" });
    now += 1;
    assert.equal(store.get("a"), undefined, "stale at exactly the TTL");

    store.set("a", { kind: "legacy" }, 60_000);
    store.set("b", { kind: "legacy" }, 60_000);
    store.get("a"); // a is now the most recently used
    store.set("c", { kind: "legacy" }, 60_000);
    assert.equal(store.size, 2);
    assert.equal(store.get("b"), undefined, "b was least recently used");
    assert.ok(store.get("a") && store.get("c"));
    store.set("d", { kind: "legacy" }, 0);
    assert.equal(store.get("d"), undefined, "a zero TTL stores nothing");
  });

  test("URLs are normalised; a modern verdict lives no longer than the discover result's own ttlMs", () => {
    assert.equal(normaliseServerUrl("HTTPS://Example.COM:443/mcp#frag"), "https://example.com/mcp");
    assert.equal(normaliseServerUrl("builtin:demo"), "builtin:demo");
    const modern = (ttlMs: unknown): EraVerdict => ({ kind: "modern", discover: { ttlMs } as never });
    assert.equal(verdictTtlMs(modern(60_000), ERA_CACHE_TTL_MS), 60_000);
    assert.equal(verdictTtlMs(modern(3_600_000), ERA_CACHE_TTL_MS), ERA_CACHE_TTL_MS);
    assert.equal(verdictTtlMs(modern(0), ERA_CACHE_TTL_MS), 0);
    assert.equal(verdictTtlMs(modern(-5), ERA_CACHE_TTL_MS), ERA_CACHE_TTL_MS, "a negative ttlMs is ignored");
    assert.equal(verdictTtlMs({ kind: "legacy" }, ERA_CACHE_TTL_MS), ERA_CACHE_TTL_MS);
  });
});

describe("connect with the era cache (real demo server)", () => {
  test("an anonymous auto connect remembers the modern verdict; the next one adopts it with zero round trips", async () => {
    const store = new MemoryEraVerdictStore();
    const first = await connectServer(await opts("builtin:demo", store));
    assert.equal(first.connection.era, "modern");
    assert.ok(
      first.exchanges.some((e) => e.request.body?.includes("server/discover")),
      "the first connect probes",
    );
    const verdict = store.get("builtin:demo");
    assert.equal(verdict?.kind, "modern");

    const second = await connectServer(await opts("builtin:demo", store));
    assert.equal(second.exchanges.length, 0, "the cached discover result is adopted without a request");
    assert.equal(second.connection.era, "modern");
    assert.deepEqual(second.connection.discover, first.connection.discover);
    assert.equal(second.server.serverInfo?.name, "toolscope-demo");
  });

  test("a connect with user headers neither reads nor writes the cache", async () => {
    const store = new MemoryEraVerdictStore();
    const withHeaders = await connectServer(await opts("builtin:demo", store, { userHeaders: { "X-Tenant": "a" } }));
    assert.equal(withHeaders.connection.era, "modern");
    assert.equal(store.size, 0, "not written");

    // A (deliberately wrong) legacy verdict in the cache is not read by a connect with headers...
    store.set("builtin:demo", { kind: "legacy" }, 60_000);
    const again = await connectServer(await opts("builtin:demo", store, { userHeaders: { "X-Tenant": "a" } }));
    assert.equal(again.connection.era, "modern");
    // ...but is by an anonymous one (the demo also speaks legacy, so it succeeds as legacy).
    const anonymous = await connectServer(await opts("builtin:demo", store));
    assert.equal(anonymous.connection.era, "legacy");
    assert.ok(!anonymous.exchanges.some((e) => e.request.body?.includes("server/discover")), "no probe with a legacy prior");
  });

  test("pinned and legacy connects do not touch the cache", async () => {
    const store = new MemoryEraVerdictStore();
    await connectServer(await opts("builtin:demo", store, { era: "modern" }));
    await connectServer(await opts("builtin:demo", store, { era: "legacy" }));
    assert.equal(store.size, 0);
  });

  test("a connect that fails with a cached verdict drops it and retries once with a fresh probe", async () => {
    // A modern-only server (the demo's tools, legacy traffic rejected): a cached legacy verdict is now wrong.
    const modernOnly = counting(createMcpHandler(({ era }) => createDemoMcpServer({ era }), { legacy: "reject" }));
    const url = await serve(modernOnly);
    const store = new MemoryEraVerdictStore();
    store.set(normaliseServerUrl(url), { kind: "legacy" }, 60_000);
    const result = await connectServer(await opts(url, store));
    assert.equal(result.connection.era, "modern");
    assert.deepEqual(modernOnly.methods, ["initialize", "server/discover"], "the stale verdict was tried once, then a probe");
    assert.ok(
      result.exchanges.some((e) => e.request.body?.includes('"initialize"')),
      "the failed attempt is reported too",
    );
    assert.equal(store.get(normaliseServerUrl(url))?.kind, "modern", "the entry was replaced by the new verdict");
  });

  for (const status of [401, 503]) {
    test(`HTTP ${status} to the probe is an error, never a legacy verdict`, async () => {
      const inner = createMcpHandler(({ era }) => createDemoMcpServer({ era }), {});
      const failing = counting({
        fetch: async (req) =>
          req.method === "POST"
            ? new Response(`status ${status}`, { status, headers: { "content-type": "text/plain" } })
            : inner.fetch(req),
      });
      const url = await serve(failing);
      const store = new MemoryEraVerdictStore();
      // A verdict from before the server broke: tried once, then dropped, then a fresh probe that fails too.
      store.set(normaliseServerUrl(url), { kind: "legacy" }, 60_000);
      await assert.rejects(connectServer(await opts(url, store)), (err: unknown) => {
        assert.ok(err instanceof ExchangeFailure);
        const classified = classifyError(err.cause, url, 5_000);
        assert.equal(classified.kind, "upstream-protocol");
        assert.match(classified.message, new RegExp(String(status)));
        return true;
      });
      assert.deepEqual(failing.methods, ["initialize", "server/discover"]);
      assert.equal(store.size, 0, "the stale verdict is dropped and the failure is not cached");
    });
  }

  test("a legacy outcome after a 5xx probe is not remembered", () => {
    const exchange = (status: number) => ({
      request: { method: "POST", url: "u", headers: [] },
      response: { status, statusText: "", headers: [], sseEvents: [] },
      startedAt: "",
      durationMs: 0,
    });
    const legacy = (status: number) => ({
      server: {} as never,
      connection: { v: 1 as const, url: "u", era: "legacy" as const, protocolVersion: "2025-11-25" },
      exchanges: [exchange(status)],
    });
    assert.deepEqual(verdictOf(legacy(400)), { kind: "legacy" });
    assert.equal(verdictOf(legacy(502)), undefined);
    assert.equal(verdictOf(legacy(401)), undefined);
  });

  test("through the API: /api/connect fills the process-wide cache; a failing modern request forgets the verdict", async () => {
    const ctx = { config: config(), origin: ORIGIN, signal: new AbortController().signal };
    const s = await serveFetchHandler(createMcpHandler(({ era }) => createDemoMcpServer({ era }), { legacy: "reject" }));
    const url = s.url.toString();
    const { connection } = await connect({ url, era: "auto", headers: {} }, ctx);
    assert.equal((await eraVerdictStore.get(normaliseServerUrl(url)))?.kind, "modern");
    await s.close(); // the server goes away (or changes): the cached assumption may be stale
    await assert.rejects(tools({ connection, headers: {}, fresh: true }, ctx), ExchangeFailure);
    assert.equal(await eraVerdictStore.get(normaliseServerUrl(url)), undefined);
  });
});

describe("rate limits and the era cache", () => {
  test("retry holds expire (fake clock), are capped at MAX_RETRY_HOLD_MS, and stay bounded", () => {
    let now = 1_000;
    const holds = new MemoryRetryHolds(2, () => now);
    holds.set("a", { since: now, status: 429 }, 30_000);
    assert.equal(holds.get("a")?.until, 31_000);
    now += 30_000;
    assert.equal(holds.get("a"), undefined);
    holds.set("b", { since: now, status: 503 }, 10 * MAX_RETRY_HOLD_MS);
    assert.equal(holds.get("b")?.until, now + MAX_RETRY_HOLD_MS);
    holds.set("c", { since: now, status: 429 }, 1_000);
    holds.set("d", { since: now, status: 429 }, 1_000);
    assert.equal(holds.size, 2);
    holds.set("e", { since: now, status: 429 }, 0);
    assert.equal(holds.get("e"), undefined, "no Retry-After, no hold");
  });

  test("a remembered verdict that meets a 429 is kept, and no fresh probe is fired into the rate limit", async () => {
    const inner = createMcpHandler(({ era }) => createDemoMcpServer({ era }), {});
    let limited = false;
    const server = counting({
      fetch: async (req) =>
        limited && req.method === "POST" ? new Response("slow down", { status: 429, headers: { "retry-after": "60" } }) : inner.fetch(req),
    });
    const url = await serve(server);
    const store = new MemoryEraVerdictStore();
    const holds = new MemoryRetryHolds();
    store.set(normaliseServerUrl(url), { kind: "legacy" }, 60_000);
    limited = true;
    await assert.rejects(connectServer(await opts(url, store, { retryHolds: holds })), (err: unknown) => {
      assert.ok(err instanceof ExchangeFailure);
      assert.equal(classifyError(err.cause, url, 5_000).kind, "upstream-rate-limited");
      return true;
    });
    assert.deepEqual(server.methods, ["initialize"], "no server/discover after the refused initialize");
    assert.equal(store.get(normaliseServerUrl(url))?.kind, "legacy", "a rate limit says nothing about the era");
    assert.equal(holds.get(normaliseServerUrl(url))?.status, 429);
    // Within the Retry-After, anonymous connects send nothing; a connect with headers still asks (its limit may differ).
    await assert.rejects(connectServer(await opts(url, store, { retryHolds: holds })), ExchangeFailure);
    assert.deepEqual(server.methods, ["initialize"]);
    await assert.rejects(
      connectServer(await opts(url, store, { retryHolds: holds, userHeaders: { Authorization: "Bearer t0ken-for-test" } })),
      ExchangeFailure,
    );
    assert.deepEqual(server.methods, ["initialize", "server/discover"]);
  });
});
