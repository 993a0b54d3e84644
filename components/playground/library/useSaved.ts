"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { withFallback } from "@/lib/playground/stores/idb";
import {
  createIndexedDbSavedStore,
  createMemorySavedStore,
  planRename,
  planSave,
  type SaveDraft,
  type SavedRequest,
  type SavedStore,
  type SaveOutcome,
} from "@/lib/playground/stores/saved-store";
import { importReport, parseSavedImport, planMerge, type ConflictPolicy } from "@/lib/playground/stores/saved-transfer";

/** randomUUID exists only in secure contexts (https, localhost); a plain-http deployment gets a random enough id. */
function newId(): string {
  return typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

/** The saved requests of this browser and what can be done with them; every change is written, then the list reloaded. */
export function useSaved() {
  const store = useMemo<SavedStore>(
    () =>
      typeof indexedDB === "undefined" ? createMemorySavedStore() : withFallback(createIndexedDbSavedStore(), createMemorySavedStore()),
    [],
  );
  const [entries, setEntries] = useState<SavedRequest[]>([]);
  const reload = useCallback(() => store.list().then(setEntries), [store]);
  useEffect(() => {
    void reload();
  }, [reload]);

  /** Save a draft; a name taken on the same server answers "exists" unless `overwrite`. */
  const save = useCallback(
    async (draft: SaveDraft, overwrite = false): Promise<SaveOutcome> => {
      const outcome = planSave(await store.list(), draft, { overwrite, now: Date.now(), newId });
      if (outcome.kind === "saved") await store.write([outcome.entry]).then(reload);
      return outcome;
    },
    [store, reload],
  );
  /** Rename; returns why not, or null when done. */
  const rename = useCallback(
    async (id: string, name: string): Promise<string | null> => {
      const plan = planRename(await store.list(), id, name, Date.now());
      if (!plan.ok) return plan.error;
      await store.write([plan.entry]).then(reload);
      return null;
    },
    [store, reload],
  );
  const remove = useCallback((ids: readonly string[]) => store.write([], ids).then(reload), [store, reload]);
  /** Put deleted entries back as they were (undo). */
  const restore = useCallback((list: readonly SavedRequest[]) => store.write(list).then(reload), [store, reload]);
  /** Import a file's text; returns the report line, or throws SavedImportError (nothing changed). */
  const importText = useCallback(
    async (text: string, policy: ConflictPolicy): Promise<string> => {
      const parsed = parseSavedImport(text, { now: Date.now(), newId });
      const plan = planMerge(await store.list(), parsed.requests, policy);
      await store.write(plan.put, plan.remove).then(reload);
      return importReport(parsed, plan);
    },
    [store, reload],
  );
  return { entries, save, rename, remove, restore, importText };
}

export type SavedRequests = ReturnType<typeof useSaved>;
