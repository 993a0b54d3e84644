import { after, describe, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import {
  canonicalJson,
  isSnapshotId,
  snapshotDefinitions,
  snapshotId,
  SqliteSnapshotStore,
  SNAPSHOT_ID_CHARS,
  type SnapshotDefinitions,
  type SnapshotStore,
  type StoreLimits,
} from "./snapshot-store.ts";
import { PostgresSnapshotStore } from "./snapshot-store-pg.ts";
import { openSqlite } from "./sqlite-driver.ts";
import postgres from "postgres";
import { errorResponse, ProxyError } from "../../upstream/errors/proxy-error.ts";
import { LimitError } from "../limits/abuse-limits.ts";
import { servicesForTests } from "../../../scripts/test-services.mjs";

const server: ServerSummary = {
  serverInfo: { name: "demo", version: "1.0.0", title: "Demo" },
  era: "modern",
  protocolVersion: "2026-07-28",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true } },
  displayUrl: "http://localhost:3000/api/demo/mcp",
};

function list(extra: Partial<ToolsResponse> = {}): ToolsResponse {
  return {
    tools: [
      {
        name: "search",
        description: "Find things",
        inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } }, required: ["q"] },
      },
      { name: "delete", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
    ],
    excluded: [],
    ttlMs: 300_000,
    cacheScope: "public",
    fetchedAt: "2026-12-02T14:00:00.000Z",
    pages: 1,
    warnings: [],
    ...extra,
  };
}

function defs(extra: Partial<ToolsResponse> = {}): SnapshotDefinitions {
  return snapshotDefinitions("builtin:demo", { server, list: list(extra) });
}

describe("snapshot ids", () => {
  test("same definitions give the same id, whatever the key order and the fetch time", () => {
    const a = defs();
    const b = defs({ fetchedAt: "2026-12-03T09:00:00.000Z" });
    const reordered = JSON.parse(JSON.stringify(a)) as SnapshotDefinitions;
    reordered.list.tools[0] = { inputSchema: reordered.list.tools[0].inputSchema, description: "Find things", name: "search" };
    assert.equal(snapshotId(a), snapshotId(b));
    assert.equal(snapshotId(a), snapshotId(reordered));
    assert.equal(snapshotId(a).length, SNAPSHOT_ID_CHARS);
    assert.ok(isSnapshotId(snapshotId(a)));
  });

  test("different definitions give different ids", () => {
    const base = snapshotId(defs());
    assert.notEqual(base, snapshotId(defs({ ttlMs: 0 })));
    const changed = defs();
    changed.list.tools[0].description = "Find things.";
    assert.notEqual(base, snapshotId(changed));
    assert.notEqual(base, snapshotId({ ...defs(), source: "https://example.com/mcp" }));
    const reordered = defs();
    reordered.list.tools.reverse();
    assert.notEqual(base, snapshotId(reordered), "tool order is part of the definitions");
  });

  test("canonical JSON sorts keys at every level and keeps array order", () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  test("only definitions are kept: no connection, notes or cache hit info", () => {
    const l = {
      ...list(),
      connection: { v: 1 as const, url: "x", era: "legacy" as const, protocolVersion: "2025-11-25", sessionId: "secret-session" },
      notes: ["n"],
      cache: { hit: true },
    };
    const d = snapshotDefinitions("builtin:demo", { server: { ...server, extra: "x" } as ServerSummary, list: l });
    assert.doesNotMatch(JSON.stringify(d), /secret-session|"notes"|"hit"|"extra"/);
    assert.deepEqual(Object.keys(d.list).sort(), ["cacheScope", "excluded", "fetchedAt", "pages", "tools", "ttlMs", "warnings"]);
  });

  test("id shapes", () => {
    assert.equal(isSnapshotId("abc"), false);
    assert.equal(isSnapshotId("../../etc/passwd00000000"), false);
    assert.equal(isSnapshotId("A".repeat(SNAPSHOT_ID_CHARS)), true);
  });
});

/** A test skipped with the reason when its service is unavailable: counted as skipped in the summary, never as passed. */
function needing(skip: string | undefined) {
  return (name: string, fn: (t: TestContext) => void | Promise<void>) => test(name, { skip }, fn);
}

type TestStore = SnapshotStore & { prune(): Promise<number>; close(): Promise<void> };

/** A storage engine the store suite runs against: `open(name)` twice gives two handles on the same storage. */
interface Backend {
  name: string;
  /** Why the suite is skipped (the service could not be started), or undefined. */
  skip?: string;
  open(name: string, limits: number | StoreLimits): TestStore;
  /** Whether the storage behind `name` exists yet (nothing may be created before first use). */
  created(name: string): Promise<boolean>;
  /** Every stored row of `name` as it is in the storage (ids and owners), for checking what is kept. */
  rows(name: string): Promise<{ id: string; owner: string | null }[]>;
}

const sqliteDir = mkdtempSync(join(tmpdir(), "toolscope-snapshots-"));
after(() => rmSync(sqliteDir, { recursive: true, force: true }));

const sqlite: Backend = {
  name: "SqliteSnapshotStore",
  open: (name, limits) => new SqliteSnapshotStore(join(sqliteDir, name, "snapshots.sqlite"), limits),
  created: async (name) => existsSync(join(sqliteDir, name)),
  rows: async (name) => {
    const db = await openSqlite(join(sqliteDir, name, "snapshots.sqlite"), { readOnly: true });
    try {
      return db.prepare("SELECT id, owner FROM snapshots ORDER BY id").all() as { id: string; owner: string | null }[];
    } finally {
      db.close();
    }
  },
};

// A throwaway PostgreSQL (scripts/test-services.mjs); when it cannot be had, the Postgres suites skip saying why.
const services = await servicesForTests({ postgres: true });
const run = randomBytes(4).toString("hex");
const tableOf = (name: string) => `t_${name.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_${run}`;
const admin = services.databaseUrl ? postgres(services.databaseUrl, { max: 2, onnotice: () => {} }) : undefined;
after(async () => {
  await admin?.end({ timeout: 1 });
  await services.stop();
});

const pg: Backend = {
  name: "PostgresSnapshotStore",
  skip: services.databaseUrl ? undefined : `PostgreSQL unavailable: ${services.unavailable.postgres}`,
  open: (name, limits) => new PostgresSnapshotStore(services.databaseUrl as string, limits, { table: tableOf(name) }),
  created: async (name) => (await admin!`SELECT 1 FROM information_schema.tables WHERE table_name = ${tableOf(name)}`).length > 0,
  rows: async (name) =>
    [...(await admin!`SELECT id, owner FROM ${admin!(tableOf(name))} ORDER BY id`)] as { id: string; owner: string | null }[],
};

for (const backend of [sqlite, pg]) storeSuite(backend);

function storeSuite(backend: Backend) {
  const it = needing(backend.skip);
  describe(backend.name, () => {
    it("opens lazily, round-trips, and is idempotent", async () => {
      const store = backend.open("lazy", 1_000_000);
      assert.equal(await backend.created("lazy"), false, "constructing the store creates nothing");
      const d = defs();
      const id = await store.put(d);
      assert.equal(await backend.created("lazy"), true);
      assert.equal(id, snapshotId(d));
      const got = await store.get(id);
      assert.ok(got);
      assert.equal(got.id, id);
      assert.deepEqual({ source: got.source, server: got.server, list: got.list }, d);
      assert.deepEqual(Object.keys(got.list.tools[0].inputSchema.properties as object), ["q", "limit"], "parameter order is kept");
      const takenAt = got.takenAt;
      assert.ok(!Number.isNaN(Date.parse(takenAt)));

      await new Promise((r) => setTimeout(r, 5));
      assert.equal(await store.put(defs({ fetchedAt: "2027-01-01T00:00:00.000Z" })), id, "sharing again gives the same id");
      assert.equal((await store.get(id))?.takenAt, takenAt, "a snapshot is immutable: the first one stays");
      await store.close();

      const reopened = backend.open("lazy", 1_000_000);
      assert.equal((await reopened.get(id))?.list.tools.length, 2, "survives a restart");
      await reopened.close();
    });

    it("unknown and malformed ids are undefined", async () => {
      const store = backend.open("b", 1_000_000);
      assert.equal(await store.get("A".repeat(SNAPSHOT_ID_CHARS)), undefined);
      assert.equal(await store.get("' OR 1=1 --"), undefined);
      await store.close();
    });

    it("over the size cap: a too-large error that names the setting", async () => {
      const store = backend.open("c", 2_000);
      const big = defs();
      big.list.tools[0].description = "x".repeat(5_000);
      await assert.rejects(
        store.put(big),
        (err: unknown) => err instanceof ProxyError && err.kind === "too-large" && /TOOLSCOPE_MAX_SNAPSHOT_BYTES/.test(err.message),
      );
      await store.close();
    });
  });

  describe(`${backend.name} limits: total size and retention`, () => {
    const T0 = Date.parse("2027-03-01T12:00:00.000Z");
    const HOUR = 60 * 60 * 1000;
    const DAY = 24 * HOUR;
    const bytesOf = (d: SnapshotDefinitions) => Buffer.byteLength(JSON.stringify(d));
    const other = () => defs({ ttlMs: 1 });
    const third = () => defs({ ttlMs: 2 });

    it("the total-size cap refuses a new snapshot with a LimitError naming the setting", async () => {
      const a = defs();
      const b = other();
      const cap = bytesOf(a) + bytesOf(b) - 1;
      const store = backend.open("cap", { maxBytes: 1_000_000, maxTotalBytes: cap, retentionDays: 30, now: () => T0 });
      const idA = await store.put(a);
      await assert.rejects(store.put(b), (err: unknown) => {
        assert.ok(err instanceof LimitError, String(err));
        assert.equal(err.kind, "rate-limited");
        assert.equal(err.retryAfterSeconds, 3600);
        assert.match(err.message, /TOOLSCOPE_SNAPSHOT_STORE_MAX_BYTES/);
        assert.ok(err.message.includes(`(${bytesOf(a)} of ${cap} bytes,`), err.message);
        assert.match(err.message, /removed after 30 days\.$/);
        return true;
      });
      assert.equal(await store.get(snapshotId(b)), undefined, "the refused snapshot was not stored");
      assert.equal(
        await store.put(defs({ fetchedAt: "2027-03-02T00:00:00.000Z" })),
        idA,
        "re-sharing an existing snapshot is accepted when the store is full",
      );
      assert.equal((await store.get(idA))?.id, idA);
      await store.close();
    });

    it("a snapshot that exactly fills the store is accepted", async () => {
      const a = defs();
      const b = other();
      const store = backend.open("cap-exact", { maxBytes: 1_000_000, maxTotalBytes: bytesOf(a) + bytesOf(b), now: () => T0 });
      await store.put(a);
      assert.equal(await store.put(b), snapshotId(b));
      await assert.rejects(store.put(third()), LimitError);
      await store.close();
    });

    it("the per-snapshot cap is checked before the total cap", async () => {
      const store = backend.open("cap-order", { maxBytes: 100, maxTotalBytes: 50, now: () => T0 });
      await assert.rejects(
        store.put(defs()),
        (err: unknown) => err instanceof ProxyError && !(err instanceof LimitError) && err.kind === "too-large",
      );
      await store.close();
    });

    it("retention removes a snapshot not opened for more than retentionDays and keeps one opened recently", async () => {
      let now = T0;
      const store = backend.open("retention", { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
      const kept = await store.put(defs());
      const gone = await store.put(other());

      now = T0 + 20 * DAY;
      assert.equal((await store.get(kept))?.id, kept, "opening refreshes its last-opened time");

      now = T0 + 30 * DAY + 1;
      assert.equal(await store.prune(), 1, "only the snapshot nobody opened goes");
      assert.equal(await store.get(gone), undefined);
      const got = await store.get(kept);
      assert.equal(got?.id, kept);
      assert.equal(got?.takenAt, new Date(T0).toISOString(), "opening does not change when it was taken");
      assert.equal(await store.prune(), 0, "nothing more to remove");

      // It was last opened just now (T0 + 30 days + 1 ms): still there 30 days later, gone a moment after.
      now = T0 + 60 * DAY + 1;
      assert.equal(await store.prune(), 0);
      now = T0 + 60 * DAY + 2;
      assert.equal(await store.prune(), 1, "unopened for 30 days since its last opening: removed too");
      assert.equal(await store.get(kept), undefined);
      await store.close();
    });

    it("a snapshot is kept for exactly retentionDays", async () => {
      let now = T0;
      const store = backend.open("retention-edge", { maxBytes: 1_000_000, retentionDays: 7, now: () => now });
      await store.put(defs());
      now = T0 + 7 * DAY;
      assert.equal(await store.prune(), 0);
      now = T0 + 7 * DAY + 1;
      assert.equal(await store.prune(), 1);
      await store.close();
    });

    it("opening refreshes the last-opened time at most hourly", async () => {
      let now = T0;
      const store = backend.open("retention-resolution", { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
      const id = await store.put(defs());
      now = T0 + 30 * 60 * 1000;
      assert.equal((await store.get(id))?.id, id, "opened half an hour after it was stored: no write");
      now = T0 + 30 * DAY + 1;
      assert.equal(await store.prune(), 1, "so it counts as last opened when stored");
      await store.close();
    });

    it("retention also runs by itself on reads and writes (at most hourly)", async () => {
      let now = T0;
      const store = backend.open("retention-auto", { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
      const id = await store.put(defs());
      now = T0 + 31 * DAY;
      assert.equal(await store.get(id), undefined, "an expired snapshot is gone when next looked up, without an explicit prune");
      await store.close();
    });

    it("retention frees room under the total-size cap", async () => {
      let now = T0;
      const a = defs();
      const b = other();
      const store = backend.open("retention-cap", {
        maxBytes: 1_000_000,
        maxTotalBytes: Math.max(bytesOf(a), bytesOf(b)),
        retentionDays: 30,
        now: () => now,
      });
      await store.put(a);
      await assert.rejects(store.put(b), LimitError);
      now = T0 + 31 * DAY;
      assert.equal(await store.put(b), snapshotId(b));
      assert.equal(await store.get(snapshotId(a)), undefined);
      await store.close();
    });

    it("one client over its share is refused with a LimitError naming the setting; other clients still share", async () => {
      const a = defs();
      const b = other();
      const c = third();
      const share = bytesOf(a) + bytesOf(b) - 1;
      const limits = { maxBytes: 1_000_000, maxTotalBytes: 10_000_000, maxClientBytes: share, retentionDays: 30, maxAgeDays: 90 };
      const store = backend.open("share", { ...limits, now: () => T0 });
      const greedy = "198.51.100.7";
      const idA = await store.put(a, greedy);
      await assert.rejects(store.put(b, greedy), (err: unknown) => {
        assert.ok(err instanceof LimitError, String(err));
        assert.equal(err.kind, "rate-limited");
        assert.match(err.message, /TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES/);
        assert.ok(err.message.includes(`take ${bytesOf(a)} bytes and this one ${bytesOf(b)}`), err.message);
        assert.ok(err.message.includes(`at most ${share} bytes`), err.message);
        assert.match(err.hint ?? "", /live docs link/);
        // Its oldest snapshot was last opened at T0: retention may remove it 30 days on (before the 90-day age cap).
        assert.equal(err.retryAfterSeconds, 30 * 24 * 3600);
        return true;
      });
      assert.equal(await store.get(snapshotId(b)), undefined, "the refused snapshot was not stored");
      assert.equal(await store.put(a, greedy), idA, "re-sharing its existing snapshot is still accepted");
      // Everyone else: unaffected, even one sharing what the greedy client was refused.
      assert.equal(await store.put(b, "203.0.113.9"), snapshotId(b));
      assert.equal(await store.put(c, "2001:db8:1:2::/64"), snapshotId(c));
      // Without an owner (no per-client limits) only the total cap applies.
      assert.equal(await store.put(defs({ ttlMs: 3 })), snapshotId(defs({ ttlMs: 3 })));

      // The owner is kept as a key, never as the address: equal for one client, different between clients.
      const rows = await backend.rows("share");
      const text = JSON.stringify(rows);
      for (const address of [greedy, "203.0.113.9", "2001:db8:1:2"]) assert.ok(!text.includes(address), text);
      const ownerOf = (id: string) => rows.find((r) => r.id === id)?.owner;
      assert.match(ownerOf(idA) ?? "", /^[A-Za-z0-9_-]{22}$/);
      assert.notEqual(ownerOf(idA), ownerOf(snapshotId(b)));
      assert.equal(ownerOf(snapshotId(defs({ ttlMs: 3 }))), null);
      await store.close();

      // Another handle on the same storage (a restart, another instance) keys the same client the same way.
      const again = backend.open("share", { ...limits, now: () => T0 });
      await assert.rejects(again.put(defs({ ttlMs: 4 }), greedy), LimitError);
      await again.close();
    });

    it("a client's share frees up as its snapshots expire", async () => {
      let now = T0;
      const a = defs();
      const b = other();
      const store = backend.open("share-frees", {
        maxBytes: 1_000_000,
        maxClientBytes: Math.max(bytesOf(a), bytesOf(b)),
        retentionDays: 30,
        now: () => now,
      });
      await store.put(a, "198.51.100.7");
      await assert.rejects(store.put(b, "198.51.100.7"), LimitError);
      now = T0 + 31 * DAY;
      assert.equal(await store.put(b, "198.51.100.7"), snapshotId(b));
      await store.close();
    });

    it("maxAgeDays removes a snapshot however often it is opened", async () => {
      let now = T0;
      const store = backend.open("max-age", { maxBytes: 1_000_000, retentionDays: 30, maxAgeDays: 60, now: () => now });
      const id = await store.put(defs(), "198.51.100.7");
      // Its sharer (or anyone) opens it every ten days: retention alone would keep it for ever.
      for (let day = 10; day <= 60; day += 10) {
        now = T0 + day * DAY;
        assert.equal((await store.get(id))?.id, id, `day ${day}`);
      }
      assert.equal(await store.prune(), 0, "kept for exactly maxAgeDays");
      now = T0 + 60 * DAY + 1;
      assert.equal(await store.prune(), 1, "gone once maxAgeDays have passed since it was taken");
      assert.equal(await store.get(id), undefined);
      await store.close();
    });

    it("retentionDays 0 (or unset) keeps snapshots forever", async () => {
      let now = T0;
      for (const retentionDays of [0, undefined]) {
        const store = backend.open(`forever-${retentionDays}`, { maxBytes: 1_000_000, retentionDays, now: () => now });
        now = T0;
        const id = await store.put(defs());
        now = T0 + 10_000 * DAY;
        assert.equal(await store.prune(), 0);
        assert.equal((await store.get(id))?.id, id);
        await store.close();
      }
    });
  });
}

describe("SqliteSnapshotStore migration", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolscope-snapshot-migration-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const DAY = 24 * 60 * 60 * 1000;
  const bytesOf = (d: SnapshotDefinitions) => Buffer.byteLength(JSON.stringify(d));
  const other = () => defs({ ttlMs: 1 });

  test("an old database without the new columns is migrated on open and its rows read back", async () => {
    const file = join(dir, "old.sqlite");
    const d = defs();
    const id = snapshotId(d);
    const body = JSON.stringify(d);
    const takenAt = "2027-02-01T08:00:00.000Z";
    const old = await openSqlite(file);
    old.exec("CREATE TABLE snapshots (id TEXT PRIMARY KEY, taken_at TEXT NOT NULL, body TEXT NOT NULL) STRICT");
    old.prepare("INSERT INTO snapshots (id, taken_at, body) VALUES (?, ?, ?)").run(id, takenAt, body);
    old.close();

    const now = Date.parse(takenAt) + 2 * DAY;
    const b = other();
    // Room for exactly one more of the old row's size: the migrated row must count with its real size.
    const store = new SqliteSnapshotStore(file, {
      maxBytes: 1_000_000,
      maxTotalBytes: bytesOf(d) + bytesOf(b) - 1,
      retentionDays: 30,
      now: () => now,
    });
    const got = await store.get(id);
    assert.ok(got, "the old row reads back");
    assert.equal(got.id, id);
    assert.equal(got.takenAt, takenAt);
    assert.deepEqual({ source: got.source, server: got.server, list: got.list }, d);
    await assert.rejects(store.put(b), LimitError, "the migrated row's bytes count towards the store size");
    await store.close();

    const check = await openSqlite(file, { readOnly: true });
    const columns = (check.prepare("PRAGMA table_info(snapshots)").all() as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ["id", "taken_at", "body", "bytes", "opened_at", "owner"]);
    const row = check.prepare("SELECT bytes, opened_at FROM snapshots WHERE id = ?").get(id) as { bytes: number; opened_at: string | null };
    assert.equal(row.bytes, Buffer.byteLength(body));
    assert.equal(row.opened_at, new Date(now).toISOString(), "opening the old row recorded when");
    check.close();

    // Opening the migrated database again does not migrate twice.
    const reopened = new SqliteSnapshotStore(file, { maxBytes: 1_000_000, now: () => now });
    assert.equal((await reopened.get(id))?.takenAt, takenAt);
    await reopened.close();
  });

  test("a migrated row that nobody opens expires from its taken_at", async () => {
    const file = join(dir, "old-expiring.sqlite");
    const d = defs();
    const old = await openSqlite(file);
    old.exec("CREATE TABLE snapshots (id TEXT PRIMARY KEY, taken_at TEXT NOT NULL, body TEXT NOT NULL) STRICT");
    old
      .prepare("INSERT INTO snapshots (id, taken_at, body) VALUES (?, ?, ?)")
      .run(snapshotId(d), "2026-01-01T00:00:00.000Z", JSON.stringify(d));
    old.close();
    const store = new SqliteSnapshotStore(file, {
      maxBytes: 1_000_000,
      retentionDays: 30,
      now: () => Date.parse("2026-03-01T00:00:00.000Z"),
    });
    assert.equal(await store.prune(), 1);
    assert.equal(await store.get(snapshotId(d)), undefined);
    await store.close();
  });
});

describe("PostgresSnapshotStore across instances", () => {
  const withPg = needing(pg.skip);
  const bytesOf = (d: SnapshotDefinitions) => Buffer.byteLength(JSON.stringify(d));

  withPg("instances that start together all create the table safely and share it", async () => {
    const stores = Array.from({ length: 6 }, () => pg.open("together", 1_000_000));
    const ids = await Promise.all(stores.map((s, i) => s.put(defs({ ttlMs: 100 + i }))));
    assert.equal(new Set(ids).size, 6);
    for (const s of stores) assert.equal((await s.get(ids[0]))?.id, ids[0], "each instance reads what another stored");
    const [{ n }] = await admin!`SELECT count(*)::int AS n FROM ${admin!(tableOf("together"))}`;
    assert.equal(n, 6);
    await Promise.all(stores.map((s) => s.close()));
  });

  withPg("the total-size cap holds when two instances share the last room at the same moment", async () => {
    for (let round = 0; round < 5; round++) {
      const a = defs({ ttlMs: 1_000 + round });
      const b = defs({ ttlMs: 2_000 + round });
      const limits = { maxBytes: 1_000_000, maxTotalBytes: Math.max(bytesOf(a), bytesOf(b)) };
      const one = pg.open(`race-${round}`, limits);
      const two = pg.open(`race-${round}`, limits);
      await Promise.all([one.get("A".repeat(SNAPSHOT_ID_CHARS)), two.get("A".repeat(SNAPSHOT_ID_CHARS))]); // both connected
      const results = await Promise.allSettled([one.put(a), two.put(b)]);
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1, `round ${round}: exactly one fits`);
      const refused = results.find((r) => r.status === "rejected");
      assert.ok(refused?.status === "rejected" && refused.reason instanceof LimitError, String(refused));
      await Promise.all([one.close(), two.close()]);
    }
  });

  withPg(
    "nothing connects before first use; a failed connection is a 503 `unavailable`, logged, and retried on the next request",
    async (t) => {
      const { createServer, connect } = await import("node:net");
      const target = new URL(services.databaseUrl!);
      // A port with nothing behind it yet.
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, "127.0.0.1", () => {
          const p = (probe.address() as { port: number }).port;
          probe.close(() => resolve(p));
        });
      });
      const url = `postgres://postgres@127.0.0.1:${port}${target.pathname}`;
      const store = new PostgresSnapshotStore(url, 1_000_000, { table: tableOf("retry") });
      // Reported as our storage being unavailable (503), never as the driver's ECONNREFUSED (which reads as the MCP server being down).
      const stderr = t.mock.method(process.stderr, "write", () => true);
      await assert.rejects(
        store.get("A".repeat(SNAPSHOT_ID_CHARS)),
        (err: unknown) => err instanceof ProxyError && err.kind === "unavailable" && /snapshot store/.test(err.message),
      );
      stderr.mock.restore();
      const logged = stderr.mock.calls.map((c) => String(c.arguments[0])).join("");
      assert.match(logged, /snapshot store failed/);
      assert.match(logged, /ECONNREFUSED/, "the cause is logged");
      // Now a forwarder to the real server appears on that port: the same store connects on its next request.
      const forwarder = createServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
      });
      await new Promise<void>((resolve) => forwarder.listen(port, "127.0.0.1", resolve));
      try {
        const id = await store.put(defs({ ttlMs: 42 }));
        assert.equal((await store.get(id))?.id, id);
      } finally {
        await store.close();
        forwarder.close();
      }
    },
  );

  withPg("a table name that is not a plain identifier is refused", () => {
    assert.throws(() => new PostgresSnapshotStore("postgres://x@127.0.0.1/x", 1, { table: "snapshots; DROP TABLE x" }), /table name/);
  });
});

describe("PostgresSnapshotStore while the database is down: fail fast, then 503 at once for a while", () => {
  /** A loopback port with nothing listening: connecting is refused (RST). */
  async function closedPort(): Promise<number> {
    return new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as { port: number }).port;
        probe.close(() => resolve(p));
      });
    });
  }

  /** A loopback server that accepts connections and never answers (a partitioned or hung database). */
  async function blackhole(): Promise<{ port: number; accepted: () => number; close(): Promise<void> }> {
    const sockets = new Set<Socket>();
    let accepted = 0;
    const server = createServer((socket) => {
      accepted++;
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      port: (server.address() as { port: number }).port,
      accepted: () => accepted,
      close: () => {
        for (const s of sockets) s.destroy();
        return new Promise((resolve) => server.close(() => resolve()));
      },
    };
  }

  /** The store's refusal and how long it took; the driver's error goes to the log (silenced here). */
  async function refusal(t: TestContext, p: () => Promise<unknown>): Promise<{ err: ProxyError; ms: number }> {
    const stderr = t.mock.method(process.stderr, "write", () => true);
    const started = performance.now();
    try {
      await p();
    } catch (err) {
      assert.ok(err instanceof ProxyError && err.kind === "unavailable", String(err));
      return { err, ms: performance.now() - started };
    } finally {
      stderr.mock.restore();
    }
    assert.fail("expected the store to refuse");
  }

  const limits = { maxBytes: 1_000_000, backoffMs: 5_000 };
  const urlFor = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;

  test("a refused connection is a 503 within 3 s with Retry-After, and the next Share is refused at once", async (t) => {
    const store = new PostgresSnapshotStore(urlFor(await closedPort()), limits, { table: "down_refused" });
    const first = await refusal(t, () => store.put(defs()));
    assert.ok(first.ms < 3_000, `refused after ${Math.round(first.ms)} ms`);
    assert.equal(first.err.retryAfterSeconds, 5);
    assert.match(first.err.message, /snapshot store .*cannot be reached/);
    const res = errorResponse(first.err);
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("retry-after"), "5");
    const next = await refusal(t, () => store.get("A".repeat(SNAPSHOT_ID_CHARS)));
    assert.ok(next.ms < 50, `the next request waited ${Math.round(next.ms)} ms`);
    assert.ok(next.err.retryAfterSeconds! >= 1 && next.err.retryAfterSeconds! <= 5, String(next.err.retryAfterSeconds));
    await store.close();
  });

  test("a database that accepts and never answers: 503 within 3 s (connect timeout), then no new attempt for the backoff", async (t) => {
    const hole = await blackhole();
    const store = new PostgresSnapshotStore(urlFor(hole.port), limits, { table: "down_blackhole" });
    try {
      const first = await refusal(t, () => store.put(defs()));
      assert.ok(first.ms < 3_000, `refused after ${Math.round(first.ms)} ms`);
      assert.equal(first.err.retryAfterSeconds, 5);
      const tried = hole.accepted();
      assert.ok(tried >= 1, "it did try the database");
      const again = await Promise.all(Array.from({ length: 20 }, () => refusal(t, () => store.put(defs()))));
      assert.ok(Math.max(...again.map((r) => r.ms)) < 50, `waited ${Math.round(Math.max(...again.map((r) => r.ms)))} ms`);
      assert.equal(hole.accepted(), tried, "no connection attempts while backing off");
    } finally {
      await store.close();
      await hole.close();
    }
  });

  test("after the backoff the store tries the database again", async (t) => {
    const hole = await blackhole();
    const store = new PostgresSnapshotStore(
      urlFor(hole.port),
      { maxBytes: 1_000_000, backoffMs: 200 },
      {
        table: "down_retry",
        connectTimeoutMs: 300,
      },
    );
    try {
      await refusal(t, () => store.get("A".repeat(SNAPSHOT_ID_CHARS)));
      const tried = hole.accepted();
      const during = await refusal(t, () => store.get("A".repeat(SNAPSHOT_ID_CHARS)));
      assert.ok(during.ms < 50 && hole.accepted() === tried, "within the backoff: refused at once, no attempt");
      await new Promise((r) => setTimeout(r, 250));
      const second = await refusal(t, () => store.get("A".repeat(SNAPSHOT_ID_CHARS)));
      assert.ok(second.ms >= 250, "it waited for the database again");
      assert.ok(hole.accepted() > tried, "a new connection attempt");
    } finally {
      await store.close();
      await hole.close();
    }
  });
});
