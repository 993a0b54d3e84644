import "server-only";
import type { PriorDiscovery } from "@modelcontextprotocol/client";

/**
 * The era verdict cache: which protocol era a server spoke at its last anonymous `auto` connect,
 * replayed as the SDK's `connect({ prior })` so the next connect skips the `server/discover` probe
 * (modern: zero round trips) or goes straight to `initialize` (legacy).
 *
 * Only connects without user headers read or write it (a verdict may depend on credentials), only
 * successes are stored, and entries are short-lived: a stale modern verdict fails at the first request
 * (we then drop it), a stale legacy verdict would succeed silently forever, so it must age out.
 */

/** How long a verdict is reused by default (TOOLSCOPE_ERA_CACHE_TTL_MS; 0 disables the cache). */
export const ERA_CACHE_TTL_MS = 5 * 60 * 1000;
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
export const eraVerdictStore: EraVerdictStore = new MemoryEraVerdictStore();

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
