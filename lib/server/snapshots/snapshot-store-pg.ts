import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { Sql, TransactionSql } from "postgres";
import {
  RuledSnapshotStore,
  type NewSnapshotRow,
  type OwnerUsage,
  type SnapshotBackend,
  type SnapshotRow,
  type SnapshotWriter,
} from "./snapshot-rules.ts";
import type { StoreLimits } from "./snapshot-types.ts";

export interface PostgresStoreOptions {
  /** Table name (default `snapshots`); lower-case letters, digits and `_`. Tests use one per case. */
  table?: string;
  /** Connections per process (default 5): a put holds one for its transaction, a read for one query. */
  maxConnections?: number;
  /** Opening a connection (TCP, TLS, startup) may take this long, in ms (TOOLSCOPE_DATABASE_CONNECT_TIMEOUT_MS; default 2000). */
  connectTimeoutMs?: number;
  /** One statement may run this long on the server, in ms (TOOLSCOPE_DATABASE_STATEMENT_TIMEOUT_MS; default 5000). */
  statementTimeoutMs?: number;
}

const TABLE_NAME = /^[a-z_][a-z0-9_]{0,50}$/;

/** A 64-bit advisory lock key for the table, as text for `::bigint` (the same in every process and release). */
function lockKey(table: string): string {
  return BigInt.asIntN(
    64,
    BigInt(`0x${createHash("sha256").update(`toolscope.snapshots:${table}`).digest("hex").slice(0, 16)}`),
  ).toString();
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

/** The rows in PostgreSQL (the `postgres` package), for several instances sharing one database. */
class PostgresBackend implements SnapshotBackend {
  ownerSecret = "";

  constructor(
    private readonly sql: Sql,
    private readonly table: string,
    private readonly lock: string,
  ) {}

  /** Create the table if it is missing; one instance at a time (concurrent CREATE ... IF NOT EXISTS can collide). */
  async migrate(): Promise<void> {
    const { sql, table } = this;
    await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${this.lock}::bigint)`;
      // body is text, not jsonb: jsonb reorders keys, and parameter order is part of the docs.
      await tx`CREATE TABLE IF NOT EXISTS ${tx(table)} (
        id text PRIMARY KEY,
        taken_at timestamptz NOT NULL,
        body text NOT NULL,
        bytes bigint NOT NULL,
        opened_at timestamptz
      )`;
      // Who shared it, as a keyed hash (ownerKey in snapshot-rules.ts); NULL for rows from before, which count for nobody.
      await tx`ALTER TABLE ${tx(table)} ADD COLUMN IF NOT EXISTS owner text`;
      // Retention deletes by last opening and by age; the indexes keep those hourly DELETEs off a full scan.
      await tx`CREATE INDEX IF NOT EXISTS ${tx(`${table}_last_opened`)} ON ${tx(table)} ((COALESCE(opened_at, taken_at)))`;
      await tx`CREATE INDEX IF NOT EXISTS ${tx(`${table}_taken`)} ON ${tx(table)} (taken_at)`;
      await tx`CREATE INDEX IF NOT EXISTS ${tx(`${table}_owner`)} ON ${tx(table)} (owner)`;
      // One random key per table, made by the first instance and read by all: owner keys are HMACs under it.
      await tx`CREATE TABLE IF NOT EXISTS ${tx(`${table}_meta`)} (key text PRIMARY KEY, value text NOT NULL)`;
      await tx`INSERT INTO ${tx(`${table}_meta`)} (key, value) VALUES ('owner_secret', ${randomBytes(32).toString("base64url")}) ON CONFLICT (key) DO NOTHING`;
      const [row] = await tx`SELECT value FROM ${tx(`${table}_meta`)} WHERE key = 'owner_secret'`;
      this.ownerSecret = row.value as string;
    });
  }

  #writer(tx: TransactionSql): SnapshotWriter {
    const t = tx(this.table);
    return {
      exists: async (id) => (await tx`SELECT 1 FROM ${t} WHERE id = ${id}`).length > 0,
      totalBytes: async () => Number((await tx`SELECT COALESCE(SUM(bytes), 0)::float8 AS total FROM ${t}`)[0].total),
      ownerUsage: async (owner) => {
        const [row] = await tx`SELECT COALESCE(SUM(bytes), 0)::float8 AS bytes, MIN(COALESCE(opened_at, taken_at)) AS opened,
          MIN(taken_at) AS taken FROM ${t} WHERE owner = ${owner}`;
        const usage: OwnerUsage = { bytes: Number(row.bytes) };
        if (row.opened != null) usage.oldestOpenedAt = iso(row.opened);
        if (row.taken != null) usage.oldestTakenAt = iso(row.taken);
        return usage;
      },
      insert: async (r: NewSnapshotRow) => {
        await tx`INSERT INTO ${t} (id, taken_at, body, bytes, opened_at, owner)
          VALUES (${r.id}, ${r.takenAt}, ${r.body}, ${r.bytes}, ${r.openedAt}, ${r.owner}) ON CONFLICT (id) DO NOTHING`;
      },
    };
  }

  async exclusive<T>(fn: (writer: SnapshotWriter) => Promise<T>): Promise<T> {
    // The lock is held to the end of the transaction: two instances cannot both find room for the last slot.
    return (await this.sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${this.lock}::bigint)`;
      return fn(this.#writer(tx));
    })) as T;
  }

  async read(id: string): Promise<SnapshotRow | undefined> {
    const [row] = await this.sql`SELECT taken_at, body, opened_at FROM ${this.sql(this.table)} WHERE id = ${id}`;
    if (!row) return undefined;
    return { takenAt: iso(row.taken_at), body: row.body as string, openedAt: row.opened_at == null ? null : iso(row.opened_at) };
  }

  async markOpened(id: string, at: string): Promise<void> {
    await this.sql`UPDATE ${this.sql(this.table)} SET opened_at = ${at} WHERE id = ${id}`;
  }

  async deleteExpired(notOpenedSince: string | undefined, takenBefore: string | undefined): Promise<number> {
    // A NULL cutoff matches nothing.
    const res = await this.sql`DELETE FROM ${this.sql(this.table)}
      WHERE COALESCE(opened_at, taken_at) < ${notOpenedSince ?? null}::timestamptz OR taken_at < ${takenBefore ?? null}::timestamptz`;
    return res.count;
  }

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}

/**
 * Snapshots in PostgreSQL, for several stateless instances behind a load balancer (DATABASE_URL). Same rules as
 * the SQLite store (snapshot-rules.ts). Nothing connects before the first put or get: `next build` imports routes.
 */
export class PostgresSnapshotStore extends RuledSnapshotStore {
  readonly table: string;

  constructor(url: string, limits: number | StoreLimits, options: PostgresStoreOptions = {}) {
    const table = options.table ?? "snapshots";
    if (!TABLE_NAME.test(table))
      throw new Error(`Invalid snapshot table name ${JSON.stringify(table)}: use lower-case letters, digits and _.`);
    super(
      async () => {
        const { default: postgres } = await import("postgres");
        const statementTimeoutMs = options.statementTimeoutMs ?? 5_000;
        const sql = postgres(url, {
          max: options.maxConnections ?? 5,
          idle_timeout: 60,
          // Short: a database that does not answer (down host, blackhole) fails Share in seconds, not after a long wait.
          connect_timeout: (options.connectTimeoutMs ?? 2_000) / 1000,
          // "relation already exists, skipping" and the like are not worth a log line.
          onnotice: () => {},
          connection: {
            application_name: "toolscope",
            statement_timeout: statementTimeoutMs,
            idle_in_transaction_session_timeout: Math.max(30_000, 2 * statementTimeoutMs),
          },
        });
        const backend = new PostgresBackend(sql, table, lockKey(table));
        try {
          await backend.migrate();
        } catch (err) {
          await sql.end({ timeout: 1 }).catch(() => undefined);
          throw err;
        }
        return backend;
      },
      typeof limits === "number" ? { maxBytes: limits } : limits,
    );
    this.table = table;
  }
}
