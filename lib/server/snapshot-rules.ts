import "server-only";
import { LimitError } from "./abuse-limits.ts";
import { log } from "./log.ts";
import { ProxyError } from "./proxy-error.ts";
import { isSnapshotId, snapshotId } from "./snapshot-id.ts";
import type { Snapshot, SnapshotDefinitions, SnapshotStore, StoreLimits } from "./snapshot-store.ts";

/**
 * The rules every snapshot store follows, whatever holds the rows (SQLite, PostgreSQL): content-addressed,
 * idempotent put; the per-snapshot size cap (413 `too-large`); the total-size cap (429 LimitError, an existing
 * snapshot is still accepted); retention of snapshots nobody opened, with the "last opened" time refreshed at most
 * hourly and the prune run at most hourly. A backend only stores and finds rows.
 *
 * This module uses what it imports only when called, never while loading, so the import cycle with
 * snapshot-store.ts (whose factory picks a backend) is harmless in any load order.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Opening a snapshot refreshes its "last opened" time at most this often (a popular link is not a write per view). */
export const OPENED_RESOLUTION_MS = 60 * 60 * 1000;
/** Retention runs at most this often (on a write or a read), not on every request. */
export const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** A stored snapshot as read back. Times are ISO 8601 (UTC, milliseconds). */
export interface SnapshotRow {
  takenAt: string;
  body: string;
  /** Null for rows stored before opening was tracked: they count as last opened when taken. */
  openedAt: string | null;
}

export interface NewSnapshotRow {
  id: string;
  takenAt: string;
  body: string;
  bytes: number;
  openedAt: string;
}

/** What a put may do while it holds the table (other writers wait). */
export interface SnapshotWriter {
  exists(id: string): Promise<boolean>;
  /** Bytes of all stored snapshots together. */
  totalBytes(): Promise<number>;
  /** Store the row unless its id is stored already (then nothing changes). */
  insert(row: NewSnapshotRow): Promise<void>;
}

/** One storage engine's snapshot table. */
export interface SnapshotBackend {
  /**
   * Run `fn` with every other writer of the table held off, so "is there room?" and the insert are one step for
   * all the processes the backend serves (a transaction with an advisory lock; in-process, a queue).
   */
  exclusive<T>(fn: (writer: SnapshotWriter) => Promise<T>): Promise<T>;
  read(id: string): Promise<SnapshotRow | undefined>;
  markOpened(id: string, at: string): Promise<void>;
  /** Remove the snapshots last opened (or, never opened, taken) before `cutoff`; returns how many went. */
  deleteNotOpenedSince(cutoff: string): Promise<number>;
  close(): Promise<void>;
}

/** Too big for one snapshot: 413 naming the setting. */
export function tooLargeError(bytes: number, maxBytes: number): ProxyError {
  return new ProxyError(
    "too-large",
    `These definitions take ${bytes} bytes; a snapshot may take at most ${maxBytes} (TOOLSCOPE_MAX_SNAPSHOT_BYTES).`,
    "Share a smaller server, or raise TOOLSCOPE_MAX_SNAPSHOT_BYTES when running your own Toolscope.",
  );
}

/** The store is full: 429 naming the setting, retry in an hour (retention runs hourly). */
export function storeFullError(total: number, cap: number, retentionDays: number | undefined): LimitError {
  return new LimitError(
    `The snapshot store is full (${total} of ${cap} bytes, TOOLSCOPE_SNAPSHOT_STORE_MAX_BYTES); snapshots nobody opens are removed after ${retentionDays || "—"} days.`,
    3600,
    "Share the live docs link instead, or try again later.",
  );
}

/**
 * A failure of the storage itself (database down, disk full), as the API should report it: 503 `unavailable`,
 * about the snapshot store. Left as it was, a driver's ECONNREFUSED would read as the MCP server being down.
 */
export function storeUnavailableError(): ProxyError {
  return new ProxyError(
    "unavailable",
    "The snapshot store cannot be reached right now.",
    "Try again in a moment; a live docs link works without it.",
  );
}

/** Runs async functions one at a time, in call order (an in-process stand-in for a table lock). */
export function serialised(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const result = tail.then(fn, fn);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * A SnapshotStore made of the rules above and a backend, opened on first use, never at import (`next build`
 * imports routes). A failed open (database down, permissions) is retried on the next request.
 */
export class RuledSnapshotStore implements SnapshotStore {
  #backend: Promise<SnapshotBackend> | undefined;
  #lastPrune = -Infinity;

  constructor(
    private readonly openBackend: () => Promise<SnapshotBackend>,
    readonly limits: StoreLimits,
  ) {}

  /** Largest snapshot, in bytes. */
  get maxBytes(): number {
    return this.limits.maxBytes;
  }

  #now(): number {
    return (this.limits.now ?? Date.now)();
  }

  #open(): Promise<SnapshotBackend> {
    return (this.#backend ??= this.openBackend().catch((err: unknown) => {
      this.#backend = undefined;
      throw err;
    }));
  }

  /** Run a storage operation; a failure that is not one of ours is logged and becomes `unavailable`. */
  async #storage<T>(op: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ProxyError) throw err;
      // The driver's own words (host and port at most; connection strings are never part of its messages).
      log.error("snapshot store failed", { op, error: (err as Error).message?.replace(/\/\/[^@/\s]*@/g, "//") });
      throw storeUnavailableError();
    }
  }

  put(definitions: SnapshotDefinitions): Promise<string> {
    // The body keeps the server's key order (parameter order is part of the docs); the id uses canonical JSON.
    const body = JSON.stringify(definitions);
    const bytes = Buffer.byteLength(body);
    if (bytes > this.limits.maxBytes) return Promise.reject(tooLargeError(bytes, this.limits.maxBytes));
    return this.#storage("put", () => this.#put(definitions, body, bytes));
  }

  get(id: string): Promise<Snapshot | undefined> {
    if (!isSnapshotId(id)) return Promise.resolve(undefined);
    return this.#storage("get", () => this.#get(id));
  }

  /** Remove snapshots not opened within the retention period; returns how many went. */
  prune(): Promise<number> {
    return this.#storage("prune", async () => this.#prune(await this.#open()));
  }

  async #put(definitions: SnapshotDefinitions, body: string, bytes: number): Promise<string> {
    const id = snapshotId(definitions);
    const backend = await this.#open();
    await this.#pruneIfDue(backend);
    return backend.exclusive(async (w) => {
      if (await w.exists(id)) return id;
      const cap = this.limits.maxTotalBytes;
      if (cap !== undefined) {
        const total = await w.totalBytes();
        if (total + bytes > cap) throw storeFullError(total, cap, this.limits.retentionDays);
      }
      const now = new Date(this.#now()).toISOString();
      await w.insert({ id, takenAt: now, body, bytes, openedAt: now });
      return id;
    });
  }

  async #get(id: string): Promise<Snapshot | undefined> {
    const backend = await this.#open();
    await this.#pruneIfDue(backend);
    const row = await backend.read(id);
    if (!row) return undefined;
    const now = this.#now();
    const opened = Date.parse(row.openedAt ?? row.takenAt);
    if (!(now - opened < OPENED_RESOLUTION_MS)) await backend.markOpened(id, new Date(now).toISOString());
    return { ...(JSON.parse(row.body) as SnapshotDefinitions), id, takenAt: row.takenAt };
  }

  async #pruneIfDue(backend: SnapshotBackend): Promise<void> {
    if (this.#now() - this.#lastPrune >= PRUNE_EVERY_MS) await this.#prune(backend);
  }

  async #prune(backend: SnapshotBackend): Promise<number> {
    this.#lastPrune = this.#now();
    const days = this.limits.retentionDays ?? 0;
    if (days <= 0) return 0;
    return backend.deleteNotOpenedSince(new Date(this.#now() - days * DAY_MS).toISOString());
  }

  /** Close the backend (tests, shutdown); the next use opens it again. */
  async close(): Promise<void> {
    const backend = this.#backend;
    this.#backend = undefined;
    await (await backend?.catch(() => undefined))?.close();
  }
}
