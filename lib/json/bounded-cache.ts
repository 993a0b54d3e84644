/** The count and byte caps of a {@link BoundedCache}. */
export interface BoundedCacheLimits {
  maxEntries: number;
  maxBytes: number;
}

/** Counted per entry beside its value and key, so a flood of tiny entries is bounded by bytes as well as by count. */
const ENTRY_OVERHEAD_BYTES = 256;

interface Slot<V> {
  value: V;
  bytes: number;
  expiresAt: number;
}

/**
 * A bounded in-memory cache by string key: each entry has its own lifetime (Infinity for none), and past either
 * cap the least recently used entries go first (a Map keeps insertion order; a hit re-inserts). The caller says
 * what an entry weighs, so the byte cap means what it says for any kind of value. Used by the icon proxy and the
 * Markdown renderer alike.
 */
export class BoundedCache<V> {
  private readonly slots = new Map<string, Slot<V>>();
  private used = 0;

  constructor(
    private readonly limits: BoundedCacheLimits,
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
  set(key: string, value: V, size: number, ttlMs = Infinity): void {
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
