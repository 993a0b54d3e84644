import { done, HISTORY_STORE, lazyDb, promised } from "./idb.ts";

/**
 * The browser's memory of exchanges: every press of Send (all its MRTR rounds as one entry), newest first,
 * bounded to {@link MAX_HISTORY_ENTRIES}. Behind {@link HistoryStore}: IndexedDB in the browser, an in-memory
 * store for tests and for browsers without IndexedDB (private modes). No header values are ever stored.
 */

export interface HistoryEntry {
  /** The exchange id. */
  id: string;
  /** When Send was pressed (ms since the epoch). */
  at: number;
  /** The server key: its URL or `builtin:<id>`. */
  server: string;
  era: "modern" | "legacy";
  method: string;
  tool?: string;
  /** The request text as it was in the editor. */
  request: string;
  /** The final response (null when none came); cut to a marker past {@link MAX_STORED_RESPONSE_CHARS}. */
  response: unknown;
  responseTruncated?: boolean;
  rounds: number;
  /** A short verdict: "result", "tool error", "error -32602 Invalid params", "cancelled"… */
  outcome: string;
  durationMs: number;
}

export interface HistoryStore {
  /** Add (or replace by id) an entry; the oldest entries beyond the limit are dropped. */
  add(entry: HistoryEntry): Promise<void>;
  /** All entries, newest first. */
  list(): Promise<HistoryEntry[]>;
  get(id: string): Promise<HistoryEntry | undefined>;
  remove(id: string): Promise<void>;
  clear(): Promise<void>;
}

export const MAX_HISTORY_ENTRIES = 500;
/** Responses longer than this (as JSON text) are not kept whole. */
export const MAX_STORED_RESPONSE_CHARS = 200_000;

/** The entry as stored: a response too large to keep is replaced by a note (the request is always kept). */
export function storableEntry(entry: HistoryEntry): HistoryEntry {
  const text = JSON.stringify(entry.response) ?? "null";
  if (text.length <= MAX_STORED_RESPONSE_CHARS) return entry;
  return {
    ...entry,
    response: { note: `The response was ${text.length.toLocaleString("en")} characters, too large to keep in history.` },
    responseTruncated: true,
  };
}

function newestFirst(a: HistoryEntry, b: HistoryEntry): number {
  return b.at - a.at || (a.id < b.id ? 1 : -1);
}

/** An in-memory store (tests; fallback when IndexedDB is unavailable). */
export function createMemoryHistoryStore(limit = MAX_HISTORY_ENTRIES): HistoryStore {
  let entries: HistoryEntry[] = [];
  return {
    async add(entry) {
      entries = [storableEntry(entry), ...entries.filter((e) => e.id !== entry.id)].sort(newestFirst).slice(0, limit);
    },
    async list() {
      return [...entries];
    },
    async get(id) {
      return entries.find((e) => e.id === id);
    },
    async remove(id) {
      entries = entries.filter((e) => e.id !== id);
    },
    async clear() {
      entries = [];
    },
  };
}

/** The IndexedDB store: database `toolscope`, object store `history` keyed by id, indexed by time. */
export function createIndexedDbHistoryStore(factory: IDBFactory = globalThis.indexedDB, limit = MAX_HISTORY_ENTRIES): HistoryStore {
  const db = lazyDb(factory);
  return {
    async add(entry) {
      const tx = (await db()).transaction(HISTORY_STORE, "readwrite");
      const store = tx.objectStore(HISTORY_STORE);
      store.put(storableEntry(entry));
      const count = await promised(store.count());
      if (count > limit) {
        // Drop the oldest beyond the limit, walking the time index from the oldest.
        let excess = count - limit;
        const cursorReq = store.index("at").openCursor();
        cursorReq.onsuccess = () => {
          const cursor = cursorReq.result;
          if (!cursor || excess <= 0) return;
          cursor.delete();
          excess--;
          cursor.continue();
        };
      }
      await done(tx);
    },
    async list() {
      const tx = (await db()).transaction(HISTORY_STORE, "readonly");
      const all = await promised(tx.objectStore(HISTORY_STORE).getAll() as IDBRequest<HistoryEntry[]>);
      return all.sort(newestFirst);
    },
    async get(id) {
      const tx = (await db()).transaction(HISTORY_STORE, "readonly");
      return (await promised(tx.objectStore(HISTORY_STORE).get(id) as IDBRequest<HistoryEntry | undefined>)) ?? undefined;
    },
    async remove(id) {
      const tx = (await db()).transaction(HISTORY_STORE, "readwrite");
      tx.objectStore(HISTORY_STORE).delete(id);
      await done(tx);
    },
    async clear() {
      const tx = (await db()).transaction(HISTORY_STORE, "readwrite");
      tx.objectStore(HISTORY_STORE).clear();
      await done(tx);
    },
  };
}

export interface HistoryQuery {
  tool?: string;
  method?: string;
  server?: string;
  /** Free words, all of which must appear (case-insensitive) in the request, response, tool, method or outcome. */
  words: string[];
}

/** Parse "tool:search_issues method:tools/call login timeout" into filters and words. */
export function parseHistoryQuery(query: string): HistoryQuery {
  const q: HistoryQuery = { words: [] };
  for (const part of query.trim().split(/\s+/).filter(Boolean)) {
    const m = /^(tool|method|server):(.+)$/i.exec(part);
    if (m) q[m[1].toLowerCase() as "tool" | "method" | "server"] = m[2].toLowerCase();
    else q.words.push(part.toLowerCase());
  }
  return q;
}

/** The entries matching a query (tool/method/server filters match by substring), keeping their order. */
export function searchHistory(entries: readonly HistoryEntry[], query: string): HistoryEntry[] {
  const q = parseHistoryQuery(query);
  if (!q.tool && !q.method && !q.server && q.words.length === 0) return [...entries];
  return entries.filter((e) => {
    if (q.tool && !(e.tool ?? "").toLowerCase().includes(q.tool)) return false;
    if (q.method && !e.method.toLowerCase().includes(q.method)) return false;
    if (q.server && !e.server.toLowerCase().includes(q.server)) return false;
    if (q.words.length === 0) return true;
    const haystack = `${e.tool ?? ""}\n${e.method}\n${e.outcome}\n${e.request}\n${JSON.stringify(e.response)}`.toLowerCase();
    return q.words.every((w) => haystack.includes(w));
  });
}
