import "server-only";
import { BoundedCache, type BoundedCacheLimits } from "@/lib/json/bounded-cache";

/** Icon answers kept per process, at most. */
export const MAX_ICON_CACHE_ENTRIES = 1_000;
/** Their total size, at most (an icon is at most TOOLSCOPE_ICON_MAX_BYTES, 256 KB by default). */
export const MAX_ICON_CACHE_BYTES = 32 * 1024 * 1024;

/** The count and byte caps of an {@link IconCache}. */
export type IconCacheLimits = BoundedCacheLimits;

/** Icon answers by URL, each for its own lifetime, within the caps above unless told otherwise. */
export class IconCache<V> extends BoundedCache<V> {
  constructor(
    limits: IconCacheLimits = { maxEntries: MAX_ICON_CACHE_ENTRIES, maxBytes: MAX_ICON_CACHE_BYTES },
    now: () => number = Date.now,
  ) {
    super(limits, now);
  }
}
