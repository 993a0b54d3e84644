import { parseHistoryQuery } from "./history-store.ts";
import { done, lazyDb, promised, SAVED_STORE } from "./idb.ts";

/**
 * Saved requests: named request texts, grouped by the server they were written for, kept in this browser.
 * The rules (names, duplicates, grouping, search) are pure functions over a list; persistence is the small
 * {@link SavedStore} interface: IndexedDB in the browser, memory in tests and private modes. A saved request never
 * holds header values or tokens: only the request text the user wrote.
 */

export type SavedEra = "modern" | "legacy";

export interface SavedRequest {
  id: string;
  /** Shown and unique per server (trimmed; compared without regard to case). */
  name: string;
  /** The server key: an http(s) URL, `builtin:<id>` or `stdio:<name>`. */
  server: string;
  era?: SavedEra;
  /** The request text as it was in the editor (any text: an invalid request is a legitimate experiment). */
  request: string;
  createdAt: number;
  updatedAt: number;
  note?: string;
}

export interface SavedStore {
  /** All saved requests, in no particular order. */
  list(): Promise<SavedRequest[]>;
  /** Add or replace (by id) some requests, and remove others, in one step. */
  write(put: readonly SavedRequest[], remove?: readonly string[]): Promise<void>;
  clear(): Promise<void>;
}

export const MAX_SAVED_NAME_CHARS = 80;
export const MAX_SAVED_NOTE_CHARS = 500;
/** Largest request text kept (UTF-8 bytes), the same cap as a share link's whole payload. */
export const MAX_SAVED_REQUEST_BYTES = 256 * 1024;

/** Names are unique per server regardless of case and surrounding spaces: "Login" and " login" clash. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A usable name (trimmed) or why not. */
export function checkName(name: string): { ok: true; name: string } | { ok: false; error: string } {
  const trimmed = name.trim();
  if (!trimmed) return { ok: false, error: "Give the request a name." };
  if (trimmed.length > MAX_SAVED_NAME_CHARS)
    return { ok: false, error: `The name is ${trimmed.length} characters; at most ${MAX_SAVED_NAME_CHARS}.` };
  return { ok: true, name: trimmed };
}

/** A storable request text or why not. */
export function checkRequestText(text: string): string | null {
  if (!text.trim()) return "The editor is empty: there is nothing to save.";
  const bytes = byteLength(text);
  if (bytes > MAX_SAVED_REQUEST_BYTES)
    return `The request is ${Math.ceil(bytes / 1024)} KB; saved requests are at most ${MAX_SAVED_REQUEST_BYTES / 1024} KB.`;
  return null;
}

/** The saved request of a server with this name, if any (other than `exceptId`). */
export function findByName(all: readonly SavedRequest[], server: string, name: string, exceptId?: string): SavedRequest | undefined {
  const key = nameKey(name);
  return all.find((r) => r.server === server && nameKey(r.name) === key && r.id !== exceptId);
}

export interface SaveDraft {
  name: string;
  server: string;
  era?: SavedEra;
  request: string;
  note?: string;
}

export type SaveOutcome =
  | { kind: "saved"; entry: SavedRequest; replaced?: SavedRequest }
  | { kind: "exists"; existing: SavedRequest }
  | { kind: "invalid"; error: string };

/**
 * Plan a save. A name already used on the same server is never overwritten silently: without `overwrite` the
 * answer is "exists" (the dialog then offers Replace or another name); with it, the existing entry keeps its id and
 * creation time and takes the new text, era and note.
 */
export function planSave(
  all: readonly SavedRequest[],
  draft: SaveDraft,
  opts: { overwrite?: boolean; now: number; newId: () => string },
): SaveOutcome {
  const name = checkName(draft.name);
  if (!name.ok) return { kind: "invalid", error: name.error };
  const textError = checkRequestText(draft.request);
  if (textError) return { kind: "invalid", error: textError };
  const note = draft.note?.trim();
  if (note && note.length > MAX_SAVED_NOTE_CHARS)
    return { kind: "invalid", error: `The note is ${note.length} characters; at most ${MAX_SAVED_NOTE_CHARS}.` };
  const existing = findByName(all, draft.server, name.name);
  if (existing && !opts.overwrite) return { kind: "exists", existing };
  const entry: SavedRequest = {
    id: existing?.id ?? opts.newId(),
    name: name.name,
    server: draft.server,
    ...(draft.era ? { era: draft.era } : {}),
    request: draft.request,
    createdAt: existing?.createdAt ?? opts.now,
    updatedAt: opts.now,
    ...(note ? { note } : {}),
  };
  return existing ? { kind: "saved", entry, replaced: existing } : { kind: "saved", entry };
}

/** Rename a saved request; a name taken by another request of the same server is refused. */
export function planRename(
  all: readonly SavedRequest[],
  id: string,
  newName: string,
  now: number,
): { ok: true; entry: SavedRequest } | { ok: false; error: string } {
  const current = all.find((r) => r.id === id);
  if (!current) return { ok: false, error: "This saved request no longer exists." };
  const name = checkName(newName);
  if (!name.ok) return name;
  if (findByName(all, current.server, name.name, id))
    return { ok: false, error: `"${name.name}" is already saved for this server; pick another name.` };
  return { ok: true, entry: { ...current, name: name.name, updatedAt: now } };
}

export interface SavedGroup {
  server: string;
  requests: SavedRequest[];
}

const byName = (a: SavedRequest, b: SavedRequest) =>
  a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.createdAt - b.createdAt;

/** Groups by server: the current server first (even when empty, so it can be saved to), then the others by key; requests by name. */
export function groupByServer(all: readonly SavedRequest[], current?: string): SavedGroup[] {
  const groups = new Map<string, SavedRequest[]>();
  if (current !== undefined) groups.set(current, []);
  for (const r of all) groups.set(r.server, [...(groups.get(r.server) ?? []), r]);
  return [...groups.entries()]
    .map(([server, requests]) => ({ server, requests: requests.sort(byName) }))
    .sort((a, b) => (a.server === current ? -1 : b.server === current ? 1 : a.server.localeCompare(b.server, "en")));
}

/** The JSON-RPC method and called tool of a request text, when it parses. */
export function describeRequest(text: string): { method?: string; tool?: string } {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v)) return {};
    const { method, params } = v as { method?: unknown; params?: { name?: unknown } };
    if (typeof method !== "string") return {};
    const tool = method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
    return tool ? { method, tool } : { method };
  } catch {
    return {};
  }
}

/** Search like the history: `tool:`, `method:`, `server:` filters (substring) and free words in the name, note and text. */
export function searchSaved(all: readonly SavedRequest[], query: string): SavedRequest[] {
  const q = parseHistoryQuery(query);
  if (!q.tool && !q.method && !q.server && q.words.length === 0) return [...all];
  return all.filter((r) => {
    const { method = "", tool = "" } = describeRequest(r.request);
    if (q.tool && !tool.toLowerCase().includes(q.tool)) return false;
    if (q.method && !method.toLowerCase().includes(q.method)) return false;
    if (q.server && !r.server.toLowerCase().includes(q.server)) return false;
    const haystack = `${r.name}\n${r.note ?? ""}\n${method}\n${tool}\n${r.request}`.toLowerCase();
    return q.words.every((w) => haystack.includes(w));
  });
}

/** An in-memory store (tests; fallback when IndexedDB is unavailable). */
export function createMemorySavedStore(initial: readonly SavedRequest[] = []): SavedStore {
  const entries = new Map(initial.map((r) => [r.id, r]));
  return {
    async list() {
      return [...entries.values()];
    },
    async write(put, remove = []) {
      for (const id of remove) entries.delete(id);
      for (const r of put) entries.set(r.id, r);
    },
    async clear() {
      entries.clear();
    },
  };
}

/** The IndexedDB store: object store `saved` of the `toolscope` database, keyed by id. */
export function createIndexedDbSavedStore(factory: IDBFactory = globalThis.indexedDB): SavedStore {
  const db = lazyDb(factory);
  return {
    async list() {
      const tx = (await db()).transaction(SAVED_STORE, "readonly");
      return promised(tx.objectStore(SAVED_STORE).getAll() as IDBRequest<SavedRequest[]>);
    },
    async write(put, remove = []) {
      const tx = (await db()).transaction(SAVED_STORE, "readwrite");
      const store = tx.objectStore(SAVED_STORE);
      for (const id of remove) store.delete(id);
      for (const r of put) store.put(r);
      await done(tx);
    },
    async clear() {
      const tx = (await db()).transaction(SAVED_STORE, "readwrite");
      tx.objectStore(SAVED_STORE).clear();
      await done(tx);
    },
  };
}
