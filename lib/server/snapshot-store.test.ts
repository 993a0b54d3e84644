import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import { canonicalJson, isSnapshotId, snapshotDefinitions, snapshotId, SqliteSnapshotStore, SNAPSHOT_ID_CHARS, type SnapshotDefinitions } from "./snapshot-store.ts";
import { ProxyError } from "./proxy-error.ts";

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
