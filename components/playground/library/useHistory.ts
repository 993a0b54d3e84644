"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import {
  createIndexedDbHistoryStore,
  createMemoryHistoryStore,
  type HistoryEntry,
  type HistoryStore,
} from "@/lib/playground/stores/history-store";
import { withFallback } from "@/lib/playground/stores/idb";

/** The history store and its entries (newest first), reloaded after each change. */
export function useHistory() {
  // IndexedDB when it works, else memory (private modes): a failing store falls back once, silently.
  const store = useMemo<HistoryStore>(
    () =>
      typeof indexedDB === "undefined"
        ? createMemoryHistoryStore()
        : withFallback(createIndexedDbHistoryStore(), createMemoryHistoryStore()),
    [],
  );
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
