/**
 * Readiness against real stores: a throwaway PostgreSQL and Redis (scripts/test-services.mjs), each reached through
 * a loopback forwarder the test closes and opens again, so "down" is a real closed port (connections refused) and
 * "back" is the same address answering again. One process: the configuration is read once, as in a server.
 */
import { after, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servicesForTests } from "../../../scripts/test-services.mjs";

const services = await servicesForTests({ postgres: true, redis: true });
const skip = services.databaseUrl && services.redisUrl ? undefined : `needs PostgreSQL and Redis: ${JSON.stringify(services.unavailable)}`;

/** A TCP forwarder on a fixed loopback port to `target`; `close()` makes the port refuse, `open()` serves it again. */
class Forwarder {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = createConnection(Number(this.target.port), this.target.hostname);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on("close", () => this.#sockets.delete(s));
        s.on("error", () => (s === client ? upstream : client).destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  url(): string {
    const u = new URL(this.target);
    u.hostname = "127.0.0.1";
    u.port = String(this.port);
    return u.toString();
  }
}

const dataDir = mkdtempSync(join(tmpdir(), "toolscope-health-"));
const pg = services.databaseUrl ? new Forwarder(new URL(services.databaseUrl)) : undefined;
const redis = services.redisUrl ? new Forwarder(new URL(services.redisUrl)) : undefined;
await pg?.open();
await redis?.open();
process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_SNAPSHOT_STORE_BACKOFF_MS = "1000";
if (pg && redis) {
  process.env.DATABASE_URL = pg.url();
  process.env.REDIS_URL = redis.url();
}

const { health } = await import("./health.ts");
const { closeSharedRedis } = await import("./redis.ts");
const { closeSnapshotStore } = await import("../snapshots/snapshot-store.ts");

after(async () => {
  await closeSnapshotStore();
  await closeSharedRedis();
  await pg?.close();
  await redis?.close();
  await services.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One readiness probe, timed; the stores' failures are logged (silenced here). */
async function probe(t: TestContext) {
  const stderr = t.mock.method(process.stderr, "write", () => true);
  const started = performance.now();
  try {
    const { status, body } = await health(true);
    return {
      status,
      body: body as { status: string; degraded?: string[]; checks: Record<string, { ok: boolean }> },
      ms: performance.now() - started,
    };
  } finally {
    stderr.mock.restore();
  }
}

test("the first readiness probe after a start connects Redis first and answers ready", { skip }, async (t) => {
  const r = await probe(t);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, "ready");
  assert.equal(r.body.checks.redis.ok, true, "Redis was connected before the ping, not reported down");
  assert.equal(r.body.checks.snapshots.ok, true);
  assert.ok(r.ms < 2_500, `${Math.round(r.ms)} ms`);
});

test("Redis down: 200 degraded naming redis (the instance still serves), answered within the check bound", { skip }, async (t) => {
  await redis!.close();
  const r = await probe(t);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, "degraded");
  assert.deepEqual(r.body.degraded, ["redis"]);
  assert.equal(r.body.checks.snapshots.ok, true);
  assert.ok(r.ms < 2_500, `${Math.round(r.ms)} ms`);
});

test("PostgreSQL down too: degraded names both, fast; ready again once both are back; 503 only when shutting down", { skip }, async (t) => {
  await pg!.close();
  const r = await probe(t);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.status, "degraded");
  assert.deepEqual(r.body.degraded, ["snapshots", "redis"]);
  assert.ok(r.ms < 2_500, `${Math.round(r.ms)} ms`);
  const again = await probe(t);
  assert.deepEqual(again.body.degraded, ["snapshots", "redis"]);
  assert.ok(again.ms < 2_500, `the next probe: ${Math.round(again.ms)} ms`);

  await pg!.open();
  await redis!.open();
  const deadline = Date.now() + 10_000;
  let last = await probe(t);
  while (last.body.status !== "ready" && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    last = await probe(t);
  }
  assert.equal(last.status, 200);
  assert.equal(last.body.status, "ready", JSON.stringify(last.body));

  // The one state in which this instance cannot serve: readiness turns 503 so the load balancer drains it.
  process.emit("toolscope:shutdown" as never);
  const down = await probe(t);
  assert.equal(down.status, 503);
  assert.equal(down.body.status, "shutting-down");
});
