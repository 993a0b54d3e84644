"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { createIndexedDbHistoryStore, createMemoryHistoryStore, type HistoryEntry, type HistoryStore } from "@/lib/playground/history-store";

/** IndexedDB when it works, else memory (private modes): a failing store falls back once, silently. */
function resilientStore(): HistoryStore {
  const memory = createMemoryHistoryStore();
  if (typeof indexedDB === "undefined") return memory;
  let active: HistoryStore = createIndexedDbHistoryStore();
  const guard = <T,>(f: (s: HistoryStore) => Promise<T>): Promise<T> =>
    f(active).catch(() => {
      active = memory;
      return f(memory);
    });
  return {
    add: (e) => guard((s) => s.add(e)),
    list: () => guard((s) => s.list()),
    get: (id) => guard((s) => s.get(id)),
    remove: (id) => guard((s) => s.remove(id)),
    clear: () => guard((s) => s.clear()),
  };
}

/** The history store and its entries (newest first), reloaded after each change. */
export function useHistory() {
  const store = useMemo(() => (typeof window === "undefined" ? createMemoryHistoryStore() : resilientStore()), []);
  const [entries, setEntries] = useState<HistoryEntry[]>([]);
  const reload = useCallback(() => store.list().then(setEntries), [store]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const add = useCallback((e: HistoryEntry) => store.add(e).then(reload), [store, reload]);
  const remove = useCallback((id: string) => store.remove(id).then(reload), [store, reload]);
  const clear = useCallback(() => store.clear().then(reload), [store, reload]);
  return { entries, add, remove, clear };
}
