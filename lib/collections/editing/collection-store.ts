/**
 * The Tests panel's collection, kept in this browser (localStorage) per server, as the file text itself
 * (writeCollection), so what is stored is what Export gives and Import reads. Bounded: a collection over
 * `MAX_STORED_COLLECTION_BYTES` is not stored (the panel says so and keeps it for the page's life); a stored text that
 * no longer parses is dropped, never half-read. Header values are never part of a collection.
 */
import { parseCollection, writeCollection, type Collection } from "../index.ts";

export const COLLECTION_STORAGE_KEY = "toolscope.collections.v1";
/** The largest collection text kept in the browser (UTF-16 code units, as localStorage counts). */
export const MAX_STORED_COLLECTION_BYTES = 512 * 1024;
/** Servers whose collections are kept; the least recently saved goes first. */
export const MAX_STORED_COLLECTIONS = 20;

interface Stored {
  /** server → { text, at } */
  [server: string]: { text: string; at: number };
}

function readAll(storage: Storage): Stored {
  try {
    const raw = storage.getItem(COLLECTION_STORAGE_KEY);
    const value: unknown = raw ? JSON.parse(raw) : {};
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Stored) : {};
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

/** Keep `c` for `server`; an error says why it was not kept (too large, storage full). */
export function saveCollection(
  storage: Storage,
  server: string,
  c: Collection,
  now = Date.now(),
): { ok: true } | { ok: false; error: string } {
  const text = writeCollection(c);
  if (text.length > MAX_STORED_COLLECTION_BYTES)
    return {
      ok: false,
      error: `The collection is ${Math.ceil(text.length / 1024)} KB, over the ${MAX_STORED_COLLECTION_BYTES / 1024} KB this browser keeps: Export it to keep it.`,
    };
  const all = readAll(storage);
  all[server] = { text, at: now };
  const servers = Object.keys(all).sort((a, b) => (all[b].at ?? 0) - (all[a].at ?? 0));
  for (const old of servers.slice(MAX_STORED_COLLECTIONS)) delete all[old];
  try {
    storage.setItem(COLLECTION_STORAGE_KEY, JSON.stringify(all));
    return { ok: true };
  } catch {
    return { ok: false, error: "This browser's storage is full: the collection was not kept. Export it to keep it." };
  }
}

export function forgetCollection(storage: Storage, server: string): void {
  const all = readAll(storage);
  if (!(server in all)) return;
  delete all[server];
  storage.setItem(COLLECTION_STORAGE_KEY, JSON.stringify(all));
}
