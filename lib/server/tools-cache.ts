import "server-only";
import { createHash } from "node:crypto";
import type { ConnectionDescriptor, ToolListCacheInfo, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import { normaliseServerUrl } from "./era-cache.ts";

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
    private readonly limits: { maxEntries: number; maxChars: number; maxEntryChars: number } = { maxEntries: MAX_TOOL_LIST_ENTRIES, maxChars: MAX_TOOL_LIST_CACHE_CHARS, maxEntryChars: MAX_TOOL_LIST_ENTRY_CHARS },
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

/** The effective TTL of a list: absent, non-finite or negative → 0 (not cached); at most 24 h. */
export function effectiveTtlMs(ttlMs: unknown): number {
  if (typeof ttlMs !== "number" || !Number.isFinite(ttlMs) || ttlMs <= 0) return 0;
  return Math.min(Math.floor(ttlMs), MAX_TOOL_LIST_TTL_MS);
}

/** SHA-256 of a header set, names case-folded and sorted: the private cache partition. Never the headers themselves. */
export function headerSetHash(headers: UserHeaders): string {
  const pairs = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256").update(JSON.stringify(pairs)).digest("base64url");
}

function hasHeaders(headers: UserHeaders): boolean {
  return Object.keys(headers).length > 0;
}

function variantOf(scope: "public" | "private", descriptor: Pick<ConnectionDescriptor, "era" | "protocolVersion">, headers: UserHeaders): string {
  const base = `${scope}|${descriptor.era}|${descriptor.protocolVersion}`;
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
    return { hit, ...(entry ? { storedAt: new Date(entry.storedAt).toISOString(), expiresAt: new Date(entry.expiresAt).toISOString() } : {}) };
  }

  /** A fresh entry this caller may be served: their own private one, else (callers without headers only) the public one. */
  async lookup(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion">, headers: UserHeaders): Promise<CachedToolList | undefined> {
    const url = normaliseServerUrl(descriptor.url);
    const variants = [variantOf("private", descriptor, headers), ...(hasHeaders(headers) ? [] : [variantOf("public", descriptor, headers)])];
    for (const variant of variants) {
      const entry = await this.store.get(url, variant);
      if (entry && entry.expiresAt > this.now()) return { list: entry.value, cache: ToolListCache.info(true, entry) };
    }
    return undefined;
  }

  /** Keep a freshly fetched list as its hints allow; says where it went (or that it was not kept). */
  async put(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "protocolVersion">, headers: UserHeaders, list: ToolsResponse): Promise<ToolListCacheInfo> {
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

/** The process-wide cache. */
export const toolListCache = new ToolListCache();
