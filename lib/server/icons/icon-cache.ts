import "server-only";

/** Icon answers kept per process, at most. */
export const MAX_ICON_CACHE_ENTRIES = 1_000;
/** Their total size, at most (an icon is at most TOOLSCOPE_ICON_MAX_BYTES, 256 KB by default). */
export const MAX_ICON_CACHE_BYTES = 32 * 1024 * 1024;
/** Counted per entry beside its body and key, so a flood of tiny failures is bounded by bytes as well as by count. */
const ENTRY_OVERHEAD_BYTES = 256;

/** The count and byte caps of an {@link IconCache}. */
export interface IconCacheLimits {
  maxEntries: number;
  maxBytes: number;
}

interface Slot<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/**
 * A bounded in-memory cache of icon answers by URL: each entry has its own lifetime, and past either cap the
 * least recently used entries go first (a Map keeps insertion order; a hit re-inserts).
 */
export class IconCache<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private used = 0;

  constructor(
    private readonly limits: IconCacheLimits = { maxEntries: MAX_ICON_CACHE_ENTRIES, maxBytes: MAX_ICON_CACHE_BYTES },
    private readonly now: () => number = Date.now,
  ) {}

  /** Entries held (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.slots.size;
  }

  /** Bytes held, as counted against the byte cap. */
  get bytes(): number {
    return this.used;
  }

  /** The live value for `key`, which becomes the most recently used. */
  get(key: string): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.remove(key, slot);
    if (slot.expiresAt <= this.now()) return undefined;
    this.slots.set(key, slot);
    this.used += slot.bytes;
    return slot.value;
  }

  /** Keep `value` (of `size` bytes) for `ttlMs`; nothing is kept for a non-positive lifetime or an entry above the byte cap. */
  set(key: string, value: V, size: number, ttlMs: number): void {
    const existing = this.slots.get(key);
    if (existing) this.remove(key, existing);
    const bytes = size + key.length + ENTRY_OVERHEAD_BYTES;
    if (ttlMs <= 0 || bytes > this.limits.maxBytes) return;
    this.slots.set(key, { value, bytes, expiresAt: this.now() + ttlMs });
    this.used += bytes;
    for (const [oldKey, oldSlot] of this.slots) {
      if (this.slots.size <= this.limits.maxEntries && this.used <= this.limits.maxBytes) break;
      this.remove(oldKey, oldSlot);
    }
  }

  private remove(key: string, slot: Slot<V>): void {
    this.slots.delete(key);
    this.used -= slot.bytes;
  }
}
