/**
 * The playground's one IndexedDB database, `toolscope`, shared by the history and the saved requests: one opener
 * (so both object stores are created by the same versioned upgrade) and promise wrappers for requests and
 * transactions. Kept thin on purpose: the logic of each store is pure and tested without a browser.
 */

export const DB_NAME = "toolscope";
/** 1: `history`. 2: + `saved`. */
export const DB_VERSION = 2;
export const HISTORY_STORE = "history";
export const SAVED_STORE = "saved";

/** Open the database, creating whichever object stores an older version lacks. */
export function openToolscopeDb(factory: IDBFactory = globalThis.indexedDB): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(DB_NAME, DB_VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(HISTORY_STORE)) db.createObjectStore(HISTORY_STORE, { keyPath: "id" }).createIndex("at", "at");
      if (!db.objectStoreNames.contains(SAVED_STORE)) db.createObjectStore(SAVED_STORE, { keyPath: "id" });
    };
    req.onsuccess = () => {
      // A newer version opened in another tab: let it upgrade (this tab's stores fall back to memory on the next error).
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    };
    req.onerror = () => reject(req.error);
    req.onblocked = () =>
      reject(new Error("Toolscope's browser database is blocked by another tab; close other Toolscope tabs and reload."));
  });
}

/** A lazily opened, shared connection (each store keeps one). */
export function lazyDb(factory: IDBFactory = globalThis.indexedDB): () => Promise<IDBDatabase> {
  let opening: Promise<IDBDatabase> | undefined;
  return () => (opening ??= openToolscopeDb(factory));
}

export function promised<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * A store that uses `primary` (IndexedDB) until one of its calls fails (private modes, a blocked upgrade), then
 * `fallback` (memory) for the rest of the page, once and silently. Every method must return a promise.
 */
export function withFallback<S extends object>(primary: S, fallback: S): S {
  let active = primary;
  return new Proxy(fallback, {
    get(target, key) {
      // Only the store's methods are wrapped: anything else (e.g. `then`, probed by await) stays undefined.
      if (typeof target[key as keyof S] !== "function") return undefined;
      return (...args: unknown[]) => {
        const call = (s: S) => (s[key as keyof S] as (...a: unknown[]) => Promise<unknown>)(...args);
        return call(active).catch(() => {
          active = fallback;
          return call(fallback);
        });
      };
    },
  });
}
