import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import { canonicalJson, isSnapshotId, snapshotDefinitions, snapshotId, SqliteSnapshotStore, SNAPSHOT_ID_CHARS, type SnapshotDefinitions } from "./snapshot-store.ts";
import Database from "better-sqlite3";
import { ProxyError } from "./proxy-error.ts";
import { LimitError } from "./abuse-limits.ts";

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
      { name: "search", description: "Find things", inputSchema: { type: "object", properties: { q: { type: "string" }, limit: { type: "integer" } }, required: ["q"] } },
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
    const l = { ...list(), connection: { v: 1 as const, url: "x", era: "legacy" as const, protocolVersion: "2025-11-25", sessionId: "secret-session" }, notes: ["n"], cache: { hit: true } };
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

describe("SqliteSnapshotStore", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolscope-snapshots-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("opens lazily, round-trips, and is idempotent", async () => {
    const file = join(dir, "nested", "snapshots.sqlite");
    const store = new SqliteSnapshotStore(file, 1_000_000);
    assert.equal(existsSync(file), false, "constructing the store creates no file");
    const d = defs();
    const id = await store.put(d);
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

    const reopened = new SqliteSnapshotStore(file, 1_000_000);
    assert.equal((await reopened.get(id))?.list.tools.length, 2, "survives a restart");
    await reopened.close();
  });

  test("unknown and malformed ids are undefined", async () => {
    const store = new SqliteSnapshotStore(join(dir, "b.sqlite"), 1_000_000);
    assert.equal(await store.get("A".repeat(SNAPSHOT_ID_CHARS)), undefined);
    assert.equal(await store.get("' OR 1=1 --"), undefined);
    await store.close();
  });

  test("over the size cap: a too-large error that names the setting", async () => {
    const store = new SqliteSnapshotStore(join(dir, "c.sqlite"), 2_000);
    const big = defs();
    big.list.tools[0].description = "x".repeat(5_000);
    await assert.rejects(store.put(big), (err: unknown) => err instanceof ProxyError && err.kind === "too-large" && /TOOLSCOPE_MAX_SNAPSHOT_BYTES/.test(err.message));
    await store.close();
  });
});

describe("SqliteSnapshotStore limits: total size and retention", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolscope-snapshot-limits-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const T0 = Date.parse("2027-03-01T12:00:00.000Z");
  const HOUR = 60 * 60 * 1000;
  const DAY = 24 * HOUR;
  const bytesOf = (d: SnapshotDefinitions) => Buffer.byteLength(JSON.stringify(d));
  const other = () => defs({ ttlMs: 1 });
  const third = () => defs({ ttlMs: 2 });

  test("the total-size cap refuses a new snapshot with a LimitError naming the setting", async () => {
    const a = defs();
    const b = other();
    const cap = bytesOf(a) + bytesOf(b) - 1;
    const store = new SqliteSnapshotStore(join(dir, "cap.sqlite"), { maxBytes: 1_000_000, maxTotalBytes: cap, retentionDays: 30, now: () => T0 });
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
    assert.equal(await store.put(defs({ fetchedAt: "2027-03-02T00:00:00.000Z" })), idA, "re-sharing an existing snapshot is accepted when the store is full");
    assert.equal((await store.get(idA))?.id, idA);
    await store.close();
  });

  test("a snapshot that exactly fills the store is accepted", async () => {
    const a = defs();
    const b = other();
    const store = new SqliteSnapshotStore(join(dir, "cap-exact.sqlite"), { maxBytes: 1_000_000, maxTotalBytes: bytesOf(a) + bytesOf(b), now: () => T0 });
    await store.put(a);
    assert.equal(await store.put(b), snapshotId(b));
    await assert.rejects(store.put(third()), LimitError);
    await store.close();
  });

  test("the per-snapshot cap is checked before the total cap", async () => {
    const store = new SqliteSnapshotStore(join(dir, "cap-order.sqlite"), { maxBytes: 100, maxTotalBytes: 50, now: () => T0 });
    await assert.rejects(store.put(defs()), (err: unknown) => err instanceof ProxyError && !(err instanceof LimitError) && err.kind === "too-large");
    await store.close();
  });

  test("retention removes a snapshot not opened for more than retentionDays and keeps one opened recently", async () => {
    let now = T0;
    const store = new SqliteSnapshotStore(join(dir, "retention.sqlite"), { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
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

  test("a snapshot is kept for exactly retentionDays", async () => {
    let now = T0;
    const store = new SqliteSnapshotStore(join(dir, "retention-edge.sqlite"), { maxBytes: 1_000_000, retentionDays: 7, now: () => now });
    await store.put(defs());
    now = T0 + 7 * DAY;
    assert.equal(await store.prune(), 0);
    now = T0 + 7 * DAY + 1;
    assert.equal(await store.prune(), 1);
    await store.close();
  });

  test("opening refreshes the last-opened time at most hourly", async () => {
    let now = T0;
    const store = new SqliteSnapshotStore(join(dir, "retention-resolution.sqlite"), { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
    const id = await store.put(defs());
    now = T0 + 30 * 60 * 1000;
    assert.equal((await store.get(id))?.id, id, "opened half an hour after it was stored: no write");
    now = T0 + 30 * DAY + 1;
    assert.equal(await store.prune(), 1, "so it counts as last opened when stored");
    await store.close();
  });

  test("retention also runs by itself on reads and writes (at most hourly)", async () => {
    let now = T0;
    const store = new SqliteSnapshotStore(join(dir, "retention-auto.sqlite"), { maxBytes: 1_000_000, retentionDays: 30, now: () => now });
    const id = await store.put(defs());
    now = T0 + 31 * DAY;
    assert.equal(await store.get(id), undefined, "an expired snapshot is gone when next looked up, without an explicit prune");
    await store.close();
  });

  test("retention frees room under the total-size cap", async () => {
    let now = T0;
    const a = defs();
    const b = other();
    const store = new SqliteSnapshotStore(join(dir, "retention-cap.sqlite"), { maxBytes: 1_000_000, maxTotalBytes: Math.max(bytesOf(a), bytesOf(b)), retentionDays: 30, now: () => now });
    await store.put(a);
    await assert.rejects(store.put(b), LimitError);
    now = T0 + 31 * DAY;
    assert.equal(await store.put(b), snapshotId(b));
    assert.equal(await store.get(snapshotId(a)), undefined);
    await store.close();
  });

  test("retentionDays 0 (or unset) keeps snapshots forever", async () => {
    let now = T0;
    for (const retentionDays of [0, undefined]) {
      const store = new SqliteSnapshotStore(join(dir, `forever-${retentionDays}.sqlite`), { maxBytes: 1_000_000, retentionDays, now: () => now });
      now = T0;
      const id = await store.put(defs());
      now = T0 + 10_000 * DAY;
      assert.equal(await store.prune(), 0);
      assert.equal((await store.get(id))?.id, id);
      await store.close();
    }
  });

  test("an old database without the new columns is migrated on open and its rows read back", async () => {
    const file = join(dir, "old.sqlite");
    const d = defs();
    const id = snapshotId(d);
    const body = JSON.stringify(d);
    const takenAt = "2027-02-01T08:00:00.000Z";
    const old = new Database(file);
    old.exec("CREATE TABLE snapshots (id TEXT PRIMARY KEY, taken_at TEXT NOT NULL, body TEXT NOT NULL) STRICT");
    old.prepare("INSERT INTO snapshots (id, taken_at, body) VALUES (?, ?, ?)").run(id, takenAt, body);
    old.close();

    const now = Date.parse(takenAt) + 2 * DAY;
    const b = other();
    // Room for exactly one more of the old row's size: the migrated row must count with its real size.
    const store = new SqliteSnapshotStore(file, { maxBytes: 1_000_000, maxTotalBytes: bytesOf(d) + bytesOf(b) - 1, retentionDays: 30, now: () => now });
    const got = await store.get(id);
    assert.ok(got, "the old row reads back");
    assert.equal(got.id, id);
    assert.equal(got.takenAt, takenAt);
    assert.deepEqual({ source: got.source, server: got.server, list: got.list }, d);
    await assert.rejects(store.put(b), LimitError, "the migrated row's bytes count towards the store size");
    await store.close();

    const check = new Database(file, { readonly: true });
    const columns = (check.prepare("PRAGMA table_info(snapshots)").all() as { name: string }[]).map((c) => c.name);
    assert.deepEqual(columns, ["id", "taken_at", "body", "bytes", "opened_at"]);
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
    const old = new Database(file);
    old.exec("CREATE TABLE snapshots (id TEXT PRIMARY KEY, taken_at TEXT NOT NULL, body TEXT NOT NULL) STRICT");
    old.prepare("INSERT INTO snapshots (id, taken_at, body) VALUES (?, ?, ?)").run(snapshotId(d), "2026-01-01T00:00:00.000Z", JSON.stringify(d));
    old.close();
    const store = new SqliteSnapshotStore(file, { maxBytes: 1_000_000, retentionDays: 30, now: () => Date.parse("2026-03-01T00:00:00.000Z") });
    assert.equal(await store.prune(), 1);
    assert.equal(await store.get(snapshotId(d)), undefined);
    await store.close();
  });
});
