import "server-only";
import { processSingleton } from "@/lib/runtime/process-singleton";
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { ConnectionDescriptor, ToolListCacheInfo, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import { config } from "../platform/config.ts";
import { normaliseServerUrl } from "@/lib/upstream";
import { firstConnect, REDIS_KEY_PREFIX, sharedRedis, warnLog, type RedisLog } from "../platform/redis.ts";

/**
 * The `tools/list` cache, per the server's `ttlMs` and `cacheScope` (server/utilities/caching.mdx):
 *
 * - `public` entries are keyed by the server only and shared across users, but they are stored only
 *   from fetches made WITHOUT user headers and served only to callers without user headers: a caller
 *   whose headers could change the answer (credentials) never gets an answer fetched for someone else.
 * - `private` entries (and lists with no `cacheScope`: no safe default, so private) are keyed by the
 *   server plus the SHA-256 of the caller's header set; the headers themselves are never kept.
 * - `ttlMs` absent, negative or 0 means "not cached"; it is capped at 24 h.
 *
 * Keys also carry the era and protocol version: a list fetched under one revision is not served under another.
 */

/** Longest any list is kept, whatever the server says (the spec's 24 h cap). */
export const MAX_TOOL_LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** Entries kept per process. */
export const MAX_TOOL_LIST_ENTRIES = 500;
/** Total size of the kept lists (as JSON characters), and the largest single list that is kept at all. */
export const MAX_TOOL_LIST_CACHE_CHARS = 50_000_000;
export const MAX_TOOL_LIST_ENTRY_CHARS = 5_000_000;

type MaybePromise<T> = T | Promise<T>;

export interface ToolListEntry {
  value: ToolsResponse;
  /** Epoch ms. */
  storedAt: number;
  expiresAt: number;
}

/**
 * Where lists are kept: one bucket per server URL, entries by variant (scope, era, header hash).
 * Small on purpose so Redis can replace it (a hash per URL, or keys `url|variant` plus a SCAN to invalidate).
 */
export interface ToolListStore {
  get(url: string, variant: string): MaybePromise<ToolListEntry | undefined>;
  set(url: string, variant: string, entry: ToolListEntry): MaybePromise<void>;
  /** Drop every entry of the server. */
  invalidate(url: string): MaybePromise<void>;
}

export class MemoryToolListStore implements ToolListStore {
  private readonly entries = new Map<string, { url: string; entry: ToolListEntry; chars: number }>();
  private chars = 0;

  constructor(
    private readonly limits: { maxEntries: number; maxChars: number; maxEntryChars: number } = {
      maxEntries: MAX_TOOL_LIST_ENTRIES,
      maxChars: MAX_TOOL_LIST_CACHE_CHARS,
      maxEntryChars: MAX_TOOL_LIST_ENTRY_CHARS,
    },
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  private static key(url: string, variant: string): string {
    return `${url}\n${variant}`;
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.chars -= e.chars;
    this.entries.delete(key);
  }

  get(url: string, variant: string): ToolListEntry | undefined {
    const key = MemoryToolListStore.key(url, variant);
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.entry.expiresAt <= this.now()) {
      this.remove(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, e); // most recently used last
    return e.entry;
  }

  set(url: string, variant: string, entry: ToolListEntry): void {
    const key = MemoryToolListStore.key(url, variant);
    this.remove(key);
    if (entry.expiresAt <= this.now()) return;
    const chars = JSON.stringify(entry.value).length;
    if (chars > this.limits.maxEntryChars) return;
    while (this.entries.size > 0 && (this.entries.size >= this.limits.maxEntries || this.chars + chars > this.limits.maxChars)) {
      this.remove(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { url, entry, chars });
    this.chars += chars;
  }

  invalidate(url: string): void {
    for (const [key, e] of this.entries) if (e.url === url) this.remove(key);
  }
}

/**
 * Lists in Redis, shared by every instance: one hash per server (`toolscope:tools:<sha256 of the URL>`, so no
 * address or credential appears in key names), a field per variant holding `{ value, storedAt, expiresAt }`.
 * Freshness is decided on read by `expiresAt` (the hash itself expires with its longest-lived entry), and a
 * server's lists are dropped with one DEL, whichever instance saw its list_changed.
 *
 * While Redis is away, lookups miss and nothing is kept (every request goes to the server, as with a server that
 * says ttlMs 0): a per-instance copy could outlive a list_changed that another instance saw. One warning per outage.
 * Entry size is capped as in memory (MAX_TOOL_LIST_ENTRY_CHARS); total size is Redis's `maxmemory` (keys expire
 * within 24 h; use an eviction policy such as volatile-lru).
 */
export class RedisToolListStore implements ToolListStore {
  #failing = false;
  #connected: Promise<void> | undefined;

  constructor(
    private readonly client: Redis,
    private readonly options: { keyPrefix?: string; maxEntryChars?: number; now?: () => number; log?: RedisLog } = {},
  ) {}

  private key(url: string): string {
    return `${this.options.keyPrefix ?? `${REDIS_KEY_PREFIX}tools:`}${createHash("sha256").update(url).digest("base64url")}`;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private failed(op: string, err: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    (this.options.log ?? warnLog)("tool-list cache unavailable, lists are fetched from the servers", { op, error: (err as Error).message });
  }

  private answered(): void {
    this.#failing = false;
  }

  /** The first use waits for the lazy connection (bounded by its connect timeout); later ones never wait. */
  private ready(): Promise<void> {
    return (this.#connected ??= firstConnect(this.client));
  }

  async get(url: string, variant: string): Promise<ToolListEntry | undefined> {
    await this.ready();
    let raw: string | null;
    try {
      raw = await this.client.hget(this.key(url), variant);
      this.answered();
    } catch (err) {
      this.failed("get", err);
      return undefined;
    }
    if (raw === null) return undefined;
    let entry: ToolListEntry;
    try {
      entry = JSON.parse(raw) as ToolListEntry;
    } catch {
      entry = { value: undefined as never, storedAt: 0, expiresAt: 0 }; // unreadable: dropped below, like an expired one
    }
    if (!(entry.expiresAt > this.now())) {
      await this.client.hdel(this.key(url), variant).catch(() => undefined);
      return undefined;
    }
    return entry;
  }

  async set(url: string, variant: string, entry: ToolListEntry): Promise<void> {
    await this.ready();
    const key = this.key(url);
    const ttl = entry.expiresAt - this.now();
    const json = JSON.stringify(entry);
    try {
      if (ttl <= 0 || JSON.stringify(entry.value).length > (this.options.maxEntryChars ?? MAX_TOOL_LIST_ENTRY_CHARS)) {
        await this.client.hdel(key, variant);
        return;
      }
      // The hash lives as long as its longest-lived entry: NX sets a first expiry, GT only ever extends it.
      await this.client.multi().hset(key, variant, json).pexpire(key, ttl, "NX").pexpire(key, ttl, "GT").exec();
      this.answered();
    } catch (err) {
      this.failed("set", err);
    }
  }

  async invalidate(url: string): Promise<void> {
    await this.ready();
    // Not swallowed: the caller reports a list_changed that could not be applied.
    await this.client.del(this.key(url));
  }
}

/** Servers that live inside this process (builtin:, stdio:) have per-process state: their lists are kept per process. */
function isRemoteServer(url: string): boolean {
  return url.startsWith("https://") || url.startsWith("http://");
}

/**
 * The process's store, chosen on first use (never at import: `next build` imports routes): Redis for http(s)
 * servers when REDIS_URL is set, memory otherwise and for in-process servers.
 */
export class ConfiguredToolListStore implements ToolListStore {
  #redis: ToolListStore | null | undefined;
  readonly memory: MemoryToolListStore;

  constructor(
    private readonly redisUrl: () => string | undefined = () => config().redisUrl,
    memory: MemoryToolListStore = new MemoryToolListStore(),
  ) {
    this.memory = memory;
  }

  private pick(url: string): ToolListStore {
    if (!isRemoteServer(url)) return this.memory;
    if (this.#redis === undefined) {
      const redisUrl = this.redisUrl();
      this.#redis = redisUrl ? new RedisToolListStore(sharedRedis(redisUrl)) : null;
    }
    return this.#redis ?? this.memory;
  }

  get(url: string, variant: string) {
    return this.pick(url).get(url, variant);
  }

  set(url: string, variant: string, entry: ToolListEntry) {
    return this.pick(url).set(url, variant, entry);
  }

  invalidate(url: string) {
    return this.pick(url).invalidate(url);
  }
}

/** The effective TTL of a list: absent, non-finite or negative → 0 (not cached); at most 24 h. */
export function effectiveTtlMs(ttlMs: unknown): number {
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) return 0;
  return Math.min(Math.floor(ttlMs), MAX_TOOL_LIST_TTL_MS);
}

/** SHA-256 of a header set, names case-folded and sorted: the private cache partition. Never the headers themselves. */
export function headerSetHash(headers: UserHeaders): string {
  // Most calls carry no headers: their hash is the same every time, and hashing showed up in the proxy's profile.
  if (Object.keys(headers).length === 0) return (emptyHeaderSetHash ??= hashPairs([]));
  const pairs = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hashPairs(pairs);
}

let emptyHeaderSetHash: string | undefined;

function hashPairs(pairs: (readonly [string, string])[]): string {
  return createHash("sha256").update(JSON.stringify(pairs)).digest("base64url");
}

function hasHeaders(headers: UserHeaders): boolean {
  return Object.keys(headers).length > 0;
}

function variantOf(
  scope: "public" | "private",
  descriptor: Pick<ConnectionDescriptor, "era" | "protocolVersion" | "apps">,
  headers: UserHeaders,
): string {
  // A server may list other tools to a host without MCP Apps (the playground's switch): a list of its own.
  const base = `${scope}|${descriptor.era}|${descriptor.protocolVersion}${descriptor.apps === false ? "|no-apps" : ""}`;
  return scope === "public" ? base : `${base}|${headerSetHash(headers)}`;
}

export interface CachedToolList {
  list: ToolsResponse;
  cache: ToolListCacheInfo;
}

export class ToolListCache {
  constructor(
    readonly store: ToolListStore = new MemoryToolListStore(),
    private readonly now: () => number = Date.now,
  ) {}

  private static info(hit: boolean, entry?: ToolListEntry): ToolListCacheInfo {
    return {
      hit,
      ...(entry ? { storedAt: new Date(entry.storedAt).toISOString(), expiresAt: new Date(entry.expiresAt).toISOString() } : {}),
    };
  }

  /** A fresh entry this caller may be served: their own private one, else (callers without headers only) the public one. */
  async lookup(
    descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion" | "apps">,
    headers: UserHeaders,
  ): Promise<CachedToolList | undefined> {
    const entry = await this.freshEntry(descriptor, headers);
    return entry && { list: entry.value, cache: ToolListCache.info(true, entry) };
  }

  /** Only the list `lookup` would serve, without its cache dates: what a proxied call is judged by, on every call. */
  async freshList(
    descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion" | "apps">,
    headers: UserHeaders,
  ): Promise<ToolsResponse | undefined> {
    return (await this.freshEntry(descriptor, headers))?.value;
  }

  private async freshEntry(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion" | "apps">, headers: UserHeaders) {
    const url = normaliseServerUrl(descriptor.url);
    // The public variant only when the private one is not fresh, and never for a caller with headers.
    for (const scope of hasHeaders(headers) ? (["private"] as const) : (["private", "public"] as const)) {
      const entry = await this.store.get(url, variantOf(scope, descriptor, headers));
      if (entry && entry.expiresAt > this.now()) return entry;
    }
    return undefined;
  }

  /** Keep a freshly fetched list as its hints allow; says where it went (or that it was not kept). */
  async put(
    descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion" | "apps">,
    headers: UserHeaders,
    list: ToolsResponse,
  ): Promise<ToolListCacheInfo> {
    const ttlMs = effectiveTtlMs(list.ttlMs);
    if (ttlMs === 0) return ToolListCache.info(false);
    // Public only when nobody's headers could have shaped the answer; otherwise the caller's own partition.
    const scope = list.cacheScope === "public" && !hasHeaders(headers) ? "public" : "private";
    const storedAt = this.now();
    const entry: ToolListEntry = { value: list, storedAt, expiresAt: storedAt + ttlMs };
    const url = normaliseServerUrl(descriptor.url);
    await this.store.set(url, variantOf(scope, descriptor, headers), entry);
    const kept = await this.store.get(url, variantOf(scope, descriptor, headers));
    return ToolListCache.info(false, kept ? entry : undefined);
  }

  /** Drop every cached list of a server (e.g. on `notifications/tools/list_changed`). */
  async invalidate(url: string): Promise<void> {
    await this.store.invalidate(normaliseServerUrl(url));
  }
}

/** The process-wide cache: in Redis when REDIS_URL is set (decided on first use), else in memory. */
export const toolListCache = processSingleton("tool-list-cache", () => new ToolListCache(new ConfiguredToolListStore()));
