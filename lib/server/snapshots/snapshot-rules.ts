import "server-only";
import { createHmac } from "node:crypto";
import { LimitError } from "../limits/abuse-limits.ts";
import { log } from "../../log/log.ts";
import { ProxyError } from "@/lib/upstream/policy";
import { isSnapshotId, snapshotId } from "./snapshot-id.ts";
import type { Snapshot, SnapshotDefinitions, SnapshotStore, StoreLimits } from "./snapshot-types.ts";

/**
 * The rules every snapshot store follows, whatever holds the rows (SQLite, PostgreSQL): content-addressed,
 * idempotent put; the per-snapshot size cap (413 `too-large`); each client's share of the store and the total-size
 * cap (429 LimitError, an existing snapshot is still accepted); retention of snapshots nobody opened, with the "last
 * opened" time refreshed at most hourly, a hard age cap that no opening extends, and the prune run at most hourly;
 * after a storage failure, a short spell of answering 503 at once instead of waiting on a store that is down.
 * A backend only stores and finds rows.
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
  /** The sharer's owner key (ownerKey below): a keyed hash, never the address itself. */
  owner: string | null;
}

/** What one owner holds: bytes, and the oldest "last opened" and "taken" times among its snapshots (for when room frees up). */
export interface OwnerUsage {
  bytes: number;
  oldestOpenedAt?: string;
  oldestTakenAt?: string;
}

/** What a put may do while it holds the table (other writers wait). */
export interface SnapshotWriter {
  exists(id: string): Promise<boolean>;
  /** Bytes of all stored snapshots together. */
  totalBytes(): Promise<number>;
  /** What the snapshots of one owner take. */
  ownerUsage(owner: string): Promise<OwnerUsage>;
  /** Store the row unless its id is stored already (then nothing changes). */
  insert(row: NewSnapshotRow): Promise<void>;
}

/** One storage engine's snapshot table. */
export interface SnapshotBackend {
  /** A random key made once per store and kept in it (shared by every instance): owner keys are HMACs under it. */
  readonly ownerSecret: string;
  /**
   * Run `fn` with every other writer of the table held off, so "is there room?" and the insert are one step for
   * all the processes the backend serves (a transaction with an advisory lock; in-process, a queue).
   */
  exclusive<T>(fn: (writer: SnapshotWriter) => Promise<T>): Promise<T>;
  read(id: string): Promise<SnapshotRow | undefined>;
  markOpened(id: string, at: string): Promise<void>;
  /**
   * Remove the snapshots last opened (or, never opened, taken) before `notOpenedSince`, and those taken before
   * `takenBefore` (either may be undefined: no such rule); returns how many went.
   */
  deleteExpired(notOpenedSince: string | undefined, takenBefore: string | undefined): Promise<number>;
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

/** "in 3 h", "in 12 days": when a wait ends, roughly. */
function roughly(seconds: number): string {
  return seconds < 2 * 86_400 ? `${Math.max(1, Math.ceil(seconds / 3600))} h` : `${Math.ceil(seconds / 86_400)} days`;
}

/**
 * This client's share of the store is used up: 429 naming the setting, retry when its oldest snapshot can expire
 * (never sooner than the hourly prune). Other clients are not affected.
 */
export function clientShareError(held: number, bytes: number, share: number, retryAfterSeconds: number | undefined): LimitError {
  const wait = retryAfterSeconds ?? 86_400;
  return new LimitError(
    `Your snapshots already take ${held} bytes and this one ${bytes}; one client may keep at most ${share} bytes of snapshots (TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES).`,
    wait,
    retryAfterSeconds === undefined
      ? "Share the live docs link instead; snapshots are kept forever here, so raise TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES when running your own Toolscope."
      : `Share the live docs link instead, or try again in ${roughly(wait)}, when your oldest snapshot may have expired; when running your own Toolscope, raise TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES.`,
  );
}

/**
 * A failure of the storage itself (database down, disk full), as the API should report it: 503 `unavailable`,
 * about the snapshot store, with when to ask again. Left as it was, a driver's ECONNREFUSED would read as the MCP
 * server being down.
 */
export function storeUnavailableError(retryAfterSeconds?: number): ProxyError {
  return new ProxyError(
    "unavailable",
    "The snapshot store (where Share keeps snapshots) cannot be reached right now.",
    "Try again in a moment; a live docs link works without it. An operator can check DATABASE_URL and the database (TOOLSCOPE_SNAPSHOT_STORE_BACKOFF_MS sets how long Toolscope waits before trying it again).",
    undefined,
    retryAfterSeconds,
  );
}

/**
 * The key a snapshot's owner is stored under: HMAC-SHA-256 of the client identity (an address or an IPv6 /64,
 * client-identity.ts) with the store's own random key, base64url, 22 characters. Equal for every instance sharing
 * the store; the address itself is never stored, and without the store's key the keys cannot be tried against
 * addresses.
 */
export function ownerKey(secret: string, identity: string): string {
  return createHmac("sha256", secret).update(identity).digest("base64url").slice(0, 22);
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
  /** Until this time (the store's clock) the storage is taken as down: every operation answers 503 at once. */
  #downUntil = -Infinity;

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

  /**
   * Run a storage operation within `operationTimeoutMs`; a failure that is not one of ours is logged, becomes
   * `unavailable`, and for `backoffMs` every later operation gets that answer at once (a database that is down
   * would otherwise cost every Share its full connect timeout, and pile up waiters on the pool).
   */
  async #storage<T>(op: string, fn: () => Promise<T>): Promise<T> {
    const backoffMs = this.limits.backoffMs ?? 0;
    const left = this.#downUntil - this.#now();
    if (left > 0) throw storeUnavailableError(Math.ceil(left / 1000));
    let timer: NodeJS.Timeout | undefined;
    const deadline = this.limits.operationTimeoutMs;
    try {
      const run = fn();
      if (deadline === undefined) return await run;
      return await Promise.race([
        run,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${deadline} ms`)), deadline);
        }),
      ]);
    } catch (err) {
      if (err instanceof ProxyError) throw err;
      if (backoffMs > 0) this.#downUntil = this.#now() + backoffMs;
      // The driver's own words (host and port at most; connection strings are never part of its messages).
      log.error("snapshot store failed", { op, error: (err as Error).message?.replace(/\/\/[^@/\s]*@/g, "//") });
      throw storeUnavailableError(backoffMs > 0 ? Math.ceil(backoffMs / 1000) : undefined);
    } finally {
      clearTimeout(timer);
    }
  }

  put(definitions: SnapshotDefinitions, owner?: string): Promise<string> {
    // The body keeps the server's key order (parameter order is part of the docs); the id uses canonical JSON.
    const body = JSON.stringify(definitions);
    const bytes = Buffer.byteLength(body);
    if (bytes > this.limits.maxBytes) return Promise.reject(tooLargeError(bytes, this.limits.maxBytes));
    return this.#storage("put", () => this.#put(definitions, body, bytes, owner));
  }

  get(id: string): Promise<Snapshot | undefined> {
    if (!isSnapshotId(id)) return Promise.resolve(undefined);
    return this.#storage("get", () => this.#get(id));
  }

  /** Remove snapshots not opened within the retention period; returns how many went. */
  prune(): Promise<number> {
    return this.#storage("prune", async () => this.#prune(await this.#open()));
  }

  async #put(definitions: SnapshotDefinitions, body: string, bytes: number, identity: string | undefined): Promise<string> {
    const id = snapshotId(definitions);
    const backend = await this.#open();
    await this.#pruneIfDue(backend);
    const owner = identity === undefined ? null : ownerKey(backend.ownerSecret, identity);
    return backend.exclusive(async (w) => {
      if (await w.exists(id)) return id;
      // The client's own share first: a client over it is told so, whether or not the store has room.
      const share = this.limits.maxClientBytes;
      if (share !== undefined && owner !== null) {
        const usage = await w.ownerUsage(owner);
        if (usage.bytes + bytes > share) throw clientShareError(usage.bytes, bytes, share, this.#secondsUntilRoom(usage));
      }
      const cap = this.limits.maxTotalBytes;
      if (cap !== undefined) {
        const total = await w.totalBytes();
        if (total + bytes > cap) throw storeFullError(total, cap, this.limits.retentionDays);
      }
      const now = new Date(this.#now()).toISOString();
      await w.insert({ id, takenAt: now, body, bytes, openedAt: now, owner });
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

  /** Seconds until the owner's first snapshot can expire (at least the hourly prune), or undefined: never. */
  #secondsUntilRoom(usage: OwnerUsage): number | undefined {
    const retention = this.limits.retentionDays ?? 0;
    const maxAge = this.limits.maxAgeDays ?? 0;
    const ends: number[] = [];
    if (retention > 0 && usage.oldestOpenedAt) ends.push(Date.parse(usage.oldestOpenedAt) + retention * DAY_MS);
    if (maxAge > 0 && usage.oldestTakenAt) ends.push(Date.parse(usage.oldestTakenAt) + maxAge * DAY_MS);
    if (ends.length === 0) return undefined;
    return Math.max(PRUNE_EVERY_MS / 1000, Math.ceil((Math.min(...ends) - this.#now()) / 1000));
  }

  async #prune(backend: SnapshotBackend): Promise<number> {
    this.#lastPrune = this.#now();
    const cutoff = (days: number | undefined) => (days && days > 0 ? new Date(this.#now() - days * DAY_MS).toISOString() : undefined);
    const notOpenedSince = cutoff(this.limits.retentionDays);
    // However often a snapshot is opened (its sharer can open it too), it goes this long after it was taken.
    const takenBefore = cutoff(this.limits.maxAgeDays);
    if (!notOpenedSince && !takenBefore) return 0;
    return backend.deleteExpired(notOpenedSince, takenBefore);
  }

  /** Close the backend (tests, shutdown); the next use opens it again. */
  async close(): Promise<void> {
    const backend = this.#backend;
    this.#backend = undefined;
    await (await backend?.catch(() => undefined))?.close();
  }
}
