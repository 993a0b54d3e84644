import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";

/** The tool list as a snapshot keeps it: definitions and cache metadata, never the connection or anything of the user. */
export type SnapshotList = Pick<ToolsResponse, "tools" | "excluded" | "ttlMs" | "cacheScope" | "fetchedAt" | "pages" | "warnings">;

/** What a snapshot stores: a server's public definitions. No headers, tokens or session ids. */
export interface SnapshotDefinitions {
  /** The server as the user named it: an http(s) URL or `builtin:<id>`. */
  source: string;
  server: ServerSummary;
  list: SnapshotList;
}

/** A stored snapshot, as read back. */
export interface Snapshot extends SnapshotDefinitions {
  id: string;
  /** ISO time the snapshot was first stored (sharing the same definitions again keeps the first time). */
  takenAt: string;
}

/**
 * Where snapshots live. Async so a network database (Postgres) can stand in for SQLite.
 * `put` is idempotent: the id is derived from the content, so the same definitions give the same id.
 */
export interface SnapshotStore {
  /**
   * Store the definitions (if not stored yet) and return their id. Throws a `too-large` ProxyError over the size
   * cap, a LimitError over the sharer's share or the store's total. `owner`: the sharer's client identity
   * (client-identity.ts); only a keyed hash of it is stored.
   */
  put(definitions: SnapshotDefinitions, owner?: string): Promise<string>;
  /** The snapshot with this id, or undefined (also for strings that cannot be ids). */
  get(id: string): Promise<Snapshot | undefined>;
}

/** How the store bounds itself: each snapshot, all of them together, and how long an unopened one is kept. */
export interface StoreLimits {
  /** Largest snapshot, in bytes (TOOLSCOPE_MAX_SNAPSHOT_BYTES). */
  maxBytes: number;
  /** All snapshots together, in bytes (TOOLSCOPE_SNAPSHOT_STORE_MAX_BYTES); undefined: unbounded. */
  maxTotalBytes?: number;
  /** Snapshots not opened for this many days are removed (TOOLSCOPE_SNAPSHOT_RETENTION_DAYS); 0: kept forever. */
  retentionDays?: number;
  /** Bytes of snapshots one owner may hold (TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES); undefined: no per-owner share. */
  maxClientBytes?: number;
  /** Snapshots are removed this many days after they were taken, opened or not (TOOLSCOPE_SNAPSHOT_MAX_AGE_DAYS); 0: no cap. */
  maxAgeDays?: number;
  /** After a storage failure, answer 503 at once for this long, in ms (TOOLSCOPE_SNAPSHOT_STORE_BACKOFF_MS); 0: retry every time. */
  backoffMs?: number;
  /** One storage operation (put, get, prune) waits at most this long, in ms; undefined: as long as the driver does. */
  operationTimeoutMs?: number;
  /** The clock (tests move it). */
  now?: () => number;
}
