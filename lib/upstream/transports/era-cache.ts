import type { PriorDiscovery } from "@modelcontextprotocol/client";
import { processSingleton } from "../../runtime/process-singleton.ts";

/**
 * The era verdict cache: which protocol era a server spoke at its last anonymous `auto` connect,
 * replayed as the SDK's `connect({ prior })` so the next connect skips the `server/discover` probe
 * (modern: zero round trips) or goes straight to `initialize` (legacy).
 *
 * Only connects without user headers read or write it (a verdict may depend on credentials), only
 * successes are stored, and entries are short-lived: a stale modern verdict fails at the first request
 * (we then drop it), a stale legacy verdict would succeed silently forever, so it must age out.
 */

export { ERA_CACHE_TTL_MS } from "../settings.ts";
/** Verdicts kept per process; the least recently used one makes room. */
export const MAX_ERA_CACHE_ENTRIES = 1_000;

export type EraVerdict = PriorDiscovery;

type MaybePromise<T> = T | Promise<T>;

/** Where verdicts live. Small on purpose, so a shared store (Redis: GET / SET PX / DEL) can replace the in-memory one. */
export interface EraVerdictStore {
  get(key: string): MaybePromise<EraVerdict | undefined>;
  /** `ttlMs` > 0. */
  set(key: string, verdict: EraVerdict, ttlMs: number): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
}

export class MemoryEraVerdictStore implements EraVerdictStore {
  private readonly entries = new Map<string, { verdict: EraVerdict; expires: number }>();

  constructor(
    private readonly maxEntries = MAX_ERA_CACHE_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): EraVerdict | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Least recently used goes first: re-insert at the end.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.verdict;
  }

  set(key: string, verdict: EraVerdict, ttlMs: number): void {
    if (!(ttlMs > 0)) return;
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { verdict, expires: this.now() + ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

/** The process-wide store. */
export const eraVerdictStore: EraVerdictStore = processSingleton("era-verdicts", () => new MemoryEraVerdictStore());

/**
 * The cache key for a server: `builtin:<id>` as is; an http(s) URL parsed and re-serialised
 * (lower-case scheme and host, default port dropped, no fragment), so spellings of one endpoint share an entry.
 */
export function normaliseServerUrl(url: string): string {
  if (url.startsWith("builtin:")) return url;
  try {
    const u = new URL(url);
    u.hash = "";
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * How long to keep a verdict: the configured TTL, and for a modern verdict never longer than the
 * discover result's own `ttlMs` (it is a cacheable result; a negative or non-number `ttlMs` is ignored).
 */
export function verdictTtlMs(verdict: EraVerdict, configuredTtlMs: number): number {
  if (verdict.kind === "modern") {
    const own = (verdict.discover as { ttlMs?: unknown }).ttlMs;
    if (typeof own === "number" && Number.isFinite(own) && own >= 0) return Math.min(configuredTtlMs, own);
  }
  return configuredTtlMs;
}

/*
 * Retry holds: a server that answered an anonymous connect with a rate limit (429, or 503 with Retry-After) is not
 * asked again by anonymous connects until its Retry-After has passed (RFC 9110 §10.2.3), so docs pages viewed by many
 * people, and users pressing Connect again, do not keep knocking. Kept apart from the verdicts: a rate limit says
 * nothing about the era, and the era cache may be off. Connects with user headers neither read nor write holds (a
 * limit may be per credential).
 */

/** The longest a server's Retry-After holds anonymous connects back (a longer one is still reported as asked). */
export const MAX_RETRY_HOLD_MS = 5 * 60 * 1000;

export interface RetryHold {
  /** When the rate-limited answer came (epoch ms). */
  since: number;
  /** Until when nothing is sent (epoch ms). */
  until: number;
  /** The status of that answer (429, 503). */
  status: number;
}

/** Where holds live; as small as the verdict store, for the same reason. */
export interface RetryHoldStore {
  get(key: string): MaybePromise<RetryHold | undefined>;
  /** Hold `key` for `ms` (capped at MAX_RETRY_HOLD_MS; 0 or less: no hold). */
  set(key: string, hold: Omit<RetryHold, "until">, ms: number): MaybePromise<void>;
  delete(key: string): MaybePromise<void>;
}

export class MemoryRetryHolds implements RetryHoldStore {
  private readonly holds = new Map<string, RetryHold>();

  constructor(
    private readonly maxEntries = MAX_ERA_CACHE_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.holds.size;
  }

  get(key: string): RetryHold | undefined {
    const hold = this.holds.get(key);
    if (hold && hold.until <= this.now()) {
      this.holds.delete(key);
      return undefined;
    }
    return hold;
  }

  set(key: string, hold: Omit<RetryHold, "until">, ms: number): void {
    if (!(ms > 0)) return;
    this.holds.delete(key);
    while (this.holds.size >= this.maxEntries) this.holds.delete(this.holds.keys().next().value as string);
    this.holds.set(key, { ...hold, until: this.now() + Math.min(ms, MAX_RETRY_HOLD_MS) });
  }

  delete(key: string): void {
    this.holds.delete(key);
  }
}

/** The process-wide holds (API routes and docs pages load this module separately: one server, one hold). */
export function retryHolds(): RetryHoldStore {
  return processSingleton("era-cache.retry-holds", () => new MemoryRetryHolds());
}
