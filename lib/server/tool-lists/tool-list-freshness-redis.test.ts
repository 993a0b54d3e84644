/**
 * Tool-list freshness across instances (REDIS_URL): a change this instance finds is told to the others over the bus,
 * and a change another instance tells drops this one's docs snapshots and the shared list cache. The real demo server
 * over HTTP (an http(s) server: its lists live in Redis), a throwaway Redis, and a second bus standing for another
 * instance.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolsResponse } from "@/lib/mcp/contract";
import { servicesForTests } from "../../../scripts/test-services.mjs";

const services = await servicesForTests({ redis: true });
const skip = services.redisUrl ? undefined : `Redis unavailable: ${services.unavailable.redis}`;
const dataDir = mkdtempSync(join(tmpdir(), "toolscope-freshness-redis-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "local";
delete process.env.DATABASE_URL;
if (services.redisUrl) process.env.REDIS_URL = services.redisUrl;

const { createDemoServerHandler } = await import("@/lib/demo/server");
const { setBetaToolsEnabled } = await import("@/lib/demo/tools-beta");
const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { config } = await import("../platform/config.ts");
const { connect, tools } = await import("../api/proxy-service.ts");
const { docsSnapshot, freshDocsSnapshot } = await import("../docs/docs-snapshot.ts");
const { ToolListBus } = await import("./tool-list-bus.ts");
const { closeSharedRedis, newRedis, firstConnect } = await import("../platform/redis.ts");

const ORIGIN = "http://127.0.0.1:3000";
const BETA = "beta_summarize_issue";
const demo = createDemoServerHandler();
let served: Awaited<ReturnType<typeof serveFetchHandler>>;
let url: string;

before(async () => {
  setBetaToolsEnabled(false);
  served = await serveFetchHandler(demo);
  url = served.url.toString();
});
after(async () => {
  setBetaToolsEnabled(false);
  await served.close();
  await demo.close();
  // The process's own bus (started by the first list) closes as scripts/server.mjs would close it.
  const hooks = (globalThis as unknown as Record<symbol, Set<() => Promise<void>> | undefined>)[Symbol.for("toolscope.stopHooks")];
  await Promise.all([...(hooks ?? [])].map((stop) => stop().catch(() => undefined)));
  await closeSharedRedis();
  await services.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ctx = () => ({ config: config(), origin: ORIGIN, signal: new AbortController().signal });
const hasBeta = (list: Pick<ToolsResponse, "tools">) => list.tools.some((t) => t.name === BETA);

/** Another instance on the same Redis: what it hears, and a way for it to announce a change. */
async function otherInstance() {
  const heard: string[] = [];
  const publisher = newRedis(services.redisUrl!);
  await firstConnect(publisher);
  const bus = new ToolListBus(services.redisUrl!, (u) => void heard.push(u), { publisher });
  await bus.start();
  return {
    heard,
    bus,
    close: async () => {
      await bus.close();
      publisher.disconnect();
    },
  };
}

test("a list found changed by a fetch past the caches is told to the other instances", { skip }, async () => {
  const other = await otherInstance();
  try {
    const { connection } = await connect({ url, era: "modern", headers: {} }, ctx());
    assert.equal(hasBeta(await tools({ connection, headers: {} }, ctx())), false);
    assert.equal((await tools({ connection, headers: {} }, ctx())).cache?.hit, true, "kept in Redis");
    setBetaToolsEnabled(true); // nobody listening: nobody hears it
    assert.equal(hasBeta(await tools({ connection, headers: {} }, ctx())), false, "the shared cache still holds the old list");

    const shared = await freshDocsSnapshot(url, ORIGIN); // what Share does
    assert.equal(hasBeta(shared.list), true);
    await waitFor(() => other.heard.includes(url));
    assert.equal(hasBeta(await tools({ connection, headers: {} }, ctx())), true, "the shared cache holds the new list");
  } finally {
    await other.close();
    setBetaToolsEnabled(false);
  }
});

test("a change another instance tells drops this instance's docs snapshot", { skip }, async () => {
  const other = await otherInstance();
  try {
    const { connection } = await connect({ url, era: "modern", headers: {} }, ctx());
    await tools({ connection, headers: {}, fresh: true }, ctx()); // this instance listens on the bus from here on
    assert.equal(hasBeta((await docsSnapshot(url, ORIGIN)).list), false);
    setBetaToolsEnabled(true);
    assert.equal(hasBeta((await docsSnapshot(url, ORIGIN)).list), false, "reused (30 s)");
    await other.bus.publish(url); // the other instance heard a list_changed
    await waitFor(async () => hasBeta((await docsSnapshot(url, ORIGIN)).list));
  } finally {
    await other.close();
  }
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}
