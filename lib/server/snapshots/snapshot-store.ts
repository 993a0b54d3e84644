import "server-only";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { openSqlite, type SqliteDb } from "./sqlite-driver.ts";
import { redactServerUrl } from "@/lib/mcp/secrets";
import type { ExcludedTool, ServerSummary, Tool } from "@/lib/mcp/contract";
import { config } from "../platform/config.ts";
import { onStop } from "../../runtime/lifecycle.ts";
import type { DocsSnapshot } from "../docs/docs-snapshot.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import {
  RuledSnapshotStore,
  serialised,
  type OwnerUsage,
  type SnapshotBackend,
  type SnapshotRow,
  type SnapshotWriter,
} from "./snapshot-rules.ts";
import { PostgresSnapshotStore } from "./snapshot-store-pg.ts";
import type { Snapshot, SnapshotDefinitions, SnapshotList, SnapshotStore, StoreLimits } from "./snapshot-types.ts";
import { canonicalJson } from "@/lib/json/canonical";

export type { Snapshot, SnapshotDefinitions, SnapshotList, SnapshotStore, StoreLimits } from "./snapshot-types.ts";

export { isSnapshotId, snapshotId, SNAPSHOT_ID_CHARS } from "./snapshot-id.ts";

/** Only the fields a snapshot keeps, picked one by one so nothing else (a connection, notes) slips in. */
export function snapshotDefinitions(source: string, snap: DocsSnapshot): SnapshotDefinitions {
  const s = snap.server;
  const l = snap.list;
  const server: ServerSummary = {
    serverInfo: s.serverInfo,
    era: s.era,
    protocolVersion: s.protocolVersion,
    supportedVersions: s.supportedVersions,
    capabilities: s.capabilities,
    instructions: s.instructions,
    displayUrl: redactServerUrl(s.displayUrl),
    transport: s.transport,
  };
  const tools: Tool[] = l.tools;
  const excluded: ExcludedTool[] = l.excluded.map((e) => ({ tool: e.tool, reason: e.reason }));
  const list: SnapshotList = {
    tools,
    excluded,
    ttlMs: l.ttlMs,
    cacheScope: l.cacheScope,
    fetchedAt: l.fetchedAt,
    pages: l.pages,
    warnings: l.warnings,
  };
  // A snapshot is public and permanent: the server's address keeps no credentials (as in share links).
  return JSON.parse(JSON.stringify({ source: redactServerUrl(source), server, list })) as SnapshotDefinitions;
}

/** JSON with object keys sorted at every level and undefined members dropped: equal values give equal text (lib/json/canonical.ts). */
export { canonicalJson };

interface Row {
  taken_at: string;
  body: string;
  opened_at: string | null;
}

/** The rows in one SQLite file; one process writes it, so an in-process queue makes a put's check-then-insert atomic. */
class SqliteBackend implements SnapshotBackend {
  readonly #serial = serialised();
  readonly #writer: SnapshotWriter;

  constructor(
    private readonly db: SqliteDb,
    readonly ownerSecret: string,
  ) {
    this.#writer = {
      exists: async (id) => db.prepare("SELECT 1 FROM snapshots WHERE id = ?").get(id) !== undefined,
      totalBytes: async () => (db.prepare("SELECT COALESCE(SUM(bytes), 0) AS total FROM snapshots").get() as { total: number }).total,
      ownerUsage: async (owner) => {
        const row = db
          .prepare(
            "SELECT COALESCE(SUM(bytes), 0) AS bytes, MIN(COALESCE(opened_at, taken_at)) AS opened, MIN(taken_at) AS taken FROM snapshots WHERE owner = ?",
          )
          .get(owner) as { bytes: number; opened: string | null; taken: string | null };
        const usage: OwnerUsage = { bytes: row.bytes };
        if (row.opened) usage.oldestOpenedAt = row.opened;
        if (row.taken) usage.oldestTakenAt = row.taken;
        return usage;
      },
      insert: async (r) => {
        db.prepare(
          "INSERT INTO snapshots (id, taken_at, body, bytes, opened_at, owner) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING",
        ).run(r.id, r.takenAt, r.body, r.bytes, r.openedAt, r.owner);
      },
    };
  }

  exclusive<T>(fn: (writer: SnapshotWriter) => Promise<T>): Promise<T> {
    return this.#serial(() => fn(this.#writer));
  }

  async read(id: string): Promise<SnapshotRow | undefined> {
    const row = this.db.prepare("SELECT taken_at, body, opened_at FROM snapshots WHERE id = ?").get(id) as Row | undefined;
    return row && { takenAt: row.taken_at, body: row.body, openedAt: row.opened_at };
  }

  async markOpened(id: string, at: string): Promise<void> {
    this.db.prepare("UPDATE snapshots SET opened_at = ? WHERE id = ?").run(at, id);
  }

  async deleteExpired(notOpenedSince: string | undefined, takenBefore: string | undefined): Promise<number> {
    // ISO times compare as text; a NULL cutoff matches nothing.
    return Number(
      this.db
        .prepare("DELETE FROM snapshots WHERE COALESCE(opened_at, taken_at) < ? OR taken_at < ?")
        .run(notOpenedSince ?? null, takenBefore ?? null).changes,
    );
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Snapshots in one SQLite file (node:sqlite or better-sqlite3: sqlite-driver.ts), opened on first use, never at import (`next build` imports routes). Rules: snapshot-rules.ts. */
export class SqliteSnapshotStore extends RuledSnapshotStore {
  constructor(
    readonly file: string,
    limits: number | StoreLimits,
  ) {
    super(
      async () => {
        mkdirSync(dirname(file), { recursive: true });
        const db = await openSqlite(file);
        db.exec("PRAGMA journal_mode = WAL");
        db.exec("CREATE TABLE IF NOT EXISTS snapshots (id TEXT PRIMARY KEY, taken_at TEXT NOT NULL, body TEXT NOT NULL) STRICT");
        // Added for quotas and retention; older databases get the columns on first open.
        const columns = (db.prepare("PRAGMA table_info(snapshots)").all() as { name: string }[]).map((c) => c.name);
        if (!columns.includes("bytes"))
          db.exec(
            "ALTER TABLE snapshots ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0; UPDATE snapshots SET bytes = length(CAST(body AS BLOB));",
          );
        if (!columns.includes("opened_at")) db.exec("ALTER TABLE snapshots ADD COLUMN opened_at TEXT");
        // Who shared it, as a keyed hash (ownerKey in snapshot-rules.ts); NULL for rows from before, which count for nobody.
        if (!columns.includes("owner")) db.exec("ALTER TABLE snapshots ADD COLUMN owner TEXT");
        db.exec("CREATE INDEX IF NOT EXISTS snapshots_owner ON snapshots (owner)");
        db.exec("CREATE TABLE IF NOT EXISTS snapshot_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT");
        db.prepare("INSERT INTO snapshot_meta (key, value) VALUES ('owner_secret', ?) ON CONFLICT(key) DO NOTHING").run(
          randomBytes(32).toString("base64url"),
        );
        const secret = (db.prepare("SELECT value FROM snapshot_meta WHERE key = 'owner_secret'").get() as { value: string }).value;
        return new SqliteBackend(db, secret);
      },
      typeof limits === "number" ? { maxBytes: limits } : limits,
    );
  }
}

type ClosableStore = SnapshotStore & { close(): Promise<void> };

/** One per process, whatever the bundle (Next.js gives route handlers and pages separate module copies). */
const storeSlot = () => processSingleton<{ store?: ClosableStore }>("snapshotStore", () => ({}));

/**
 * The process's snapshot store: PostgreSQL when DATABASE_URL is set (several instances share it), else
 * `snapshots.sqlite` under TOOLSCOPE_DATA_DIR. One connection pool and one hourly prune per process; nothing
 * connects until first used.
 */
export function snapshotStore(): SnapshotStore {
  const slot = storeSlot();
  return (slot.store ??= (() => {
    onStop(closeSnapshotStore);
    const c = config();
    const limits: StoreLimits = {
      maxBytes: c.maxSnapshotBytes,
      // Store size, retention and age hold whether or not per-client limits are on: a local disk fills up too.
      maxTotalBytes: c.limits.snapshotStoreMaxBytes,
      retentionDays: c.limits.snapshotRetentionDays,
      maxAgeDays: c.limits.snapshotMaxAgeDays,
      // A share per client only with the abuse limits: locally every Share comes from the one person at the machine.
      maxClientBytes: c.limits.enabled ? c.limits.snapshotClientMaxBytes : undefined,
      backoffMs: c.snapshotStoreBackoffMs,
      // Connecting, then one statement (a put's transaction is a few), and a little for the answer to travel.
      operationTimeoutMs: c.databaseUrl ? c.databaseConnectTimeoutMs + 2 * c.databaseStatementTimeoutMs : undefined,
    };
    return c.databaseUrl
      ? new PostgresSnapshotStore(c.databaseUrl, limits, {
          connectTimeoutMs: c.databaseConnectTimeoutMs,
          statementTimeoutMs: c.databaseStatementTimeoutMs,
        })
      : new SqliteSnapshotStore(join(resolve(c.dataDir), "snapshots.sqlite"), limits);
  })());
}

/** Close the process's snapshot store (its pool or file), e.g. on shutdown once requests have drained. */
export async function closeSnapshotStore(): Promise<void> {
  const slot = storeSlot();
  const open = slot.store;
  slot.store = undefined;
  await open?.close();
}

/** The snapshot for a route's `id` parameter (already URL-decoded by Next), or undefined. */
export function loadSnapshot(id: string): Promise<Snapshot | undefined> {
  return snapshotStore().get(id);
}
