/**
 * The Tests panel's collection, kept in this browser (localStorage) per server, as the file text itself
 * (writeCollection), so what is stored is what Export gives and Import reads. Bounded: a collection over
 * `MAX_STORED_COLLECTION_BYTES` is not stored (the panel says so and keeps it for the page's life); all of them
 * together stay within `MAX_STORED_COLLECTIONS` servers and `MAX_STORED_COLLECTIONS_BYTES`, the least recently saved
 * others dropped to make room, and named, so the panel can say so; a stored text that no longer parses is dropped,
 * never half-read. Header values are never part of a collection.
 */
import { parseCollection, writeCollection, type Collection } from "../index.ts";

export const COLLECTION_STORAGE_KEY = "toolscope.collections.v1";
/** The largest collection text kept in the browser (UTF-16 code units, as localStorage counts). */
export const MAX_STORED_COLLECTION_BYTES = 512 * 1024;
/** Servers whose collections are kept; the least recently saved goes first. */
export const MAX_STORED_COLLECTIONS = 20;
/**
 * The whole store's size (the item under COLLECTION_STORAGE_KEY, in UTF-16 code units as localStorage counts it):
 * 20 collections of 512 KB would be 10 MB, twice the ~5 MB a browser gives an origin, which the history, saved
 * requests and settings share. Four collections at the largest fit; the least recently saved others go first.
 */
export const MAX_STORED_COLLECTIONS_BYTES = 2 * 1024 * 1024;

interface Stored {
  /** server → { text, at } */
  [server: string]: { text: string; at: number };
}

function readAll(storage: Storage): Stored {
  try {
    const raw = storage.getItem(COLLECTION_STORAGE_KEY);
    const value: unknown = raw ? JSON.parse(raw) : {};
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    // Only well-formed entries: a damaged one is dropped, never a reason to fail every later save.
    const out: Stored = {};
    for (const [server, entry] of Object.entries(value as Record<string, unknown>)) {
      const e = entry as { text?: unknown; at?: unknown } | null;
      if (e && typeof e === "object" && typeof e.text === "string" && typeof e.at === "number") out[server] = { text: e.text, at: e.at };
    }
    return out;
  } catch {
    return {};
  }
}

/** The collection kept for `server`, if any still parses. */
export function loadCollection(storage: Storage, server: string): Collection | undefined {
  const entry = readAll(storage)[server];
  if (!entry || typeof entry.text !== "string") return undefined;
  const parsed = parseCollection(entry.text);
  return parsed.ok ? parsed.collection : undefined;
}

/** An entry's share of the stored JSON: `"server":{"text":…,"at":…}` and the comma after it. */
const entrySize = (server: string, entry: { text: string; at: number }): number => JSON.stringify({ [server]: entry }).length - 1;

/**
 * Keep `c` for `server`; an error says why it was not kept (too large, storage full). `evicted` names the servers
 * whose collections were dropped to stay within the bounds (least recently saved first; empty when none were), so
 * the panel can say so rather than lose them silently. The one being saved is never dropped.
 */
export function saveCollection(
  storage: Storage,
  server: string,
  c: Collection,
  now = Date.now(),
): { ok: true; evicted: string[] } | { ok: false; error: string } {
  const text = writeCollection(c);
  if (text.length > MAX_STORED_COLLECTION_BYTES)
    return {
      ok: false,
      error: `The collection is ${Math.ceil(text.length / 1024)} KB, over the ${MAX_STORED_COLLECTION_BYTES / 1024} KB this browser keeps: Export it to keep it.`,
    };
  const all = readAll(storage);
  all[server] = { text, at: now };
  // The one just saved always stays (even with a clock set back); the least recently saved others go first.
  const others = Object.keys(all)
    .filter((s) => s !== server)
    .sort((a, b) => all[a].at - all[b].at);
  // `{` and `}` around the entries, less the comma the last one does not have: JSON.stringify(all).length.
  let size = 1 + Object.entries(all).reduce((sum, [s, e]) => sum + entrySize(s, e), 0);
  const evicted: string[] = [];
  for (const old of others) {
    if (others.length - evicted.length < MAX_STORED_COLLECTIONS && size <= MAX_STORED_COLLECTIONS_BYTES) break;
    size -= entrySize(old, all[old]);
    delete all[old];
    evicted.push(old);
  }
  try {
    storage.setItem(COLLECTION_STORAGE_KEY, JSON.stringify(all));
    return { ok: true, evicted };
  } catch {
    return { ok: false, error: "This browser's storage is full: the collection was not kept. Export it to keep it." };
  }
}

export function forgetCollection(storage: Storage, server: string): void {
  const all = readAll(storage);
  if (!(server in all)) return;
  delete all[server];
  try {
    storage.setItem(COLLECTION_STORAGE_KEY, JSON.stringify(all));
  } catch {
    // Smaller than before: a storage that refuses it has bigger problems, and nothing is lost by leaving it.
  }
}
