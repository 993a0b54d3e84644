"use client";

import { useSyncExternalStore } from "react";
import { loadTabs, saveTabs, type TabsState } from "@/lib/playground/stores/tabs-store";

/** What the tab strip and the shell show: the tabs, and what the page has to say about them. */
export interface TabsView {
  tabs: TabsState;
  /** A limit reached or a storage failure, said under the strip. */
  notice: string | null;
  /** A share link that could not be opened, and why. */
  shareError: string | null;
  /** The tab a share link opened and that link (its banner shows; the address keeps the link while it is active). */
  shared: { id: string; href: string; server: string; era?: string } | null;
  /** Bumped when a tab's connection changes under the same server (new headers): its playground connects afresh. */
  generation: number;
}

/** Typing is saved after this pause (and when the page goes away), not on every key. */
const SAVE_DELAY_MS = 300;

/**
 * The tabs of this page, held outside React (one per page, like localStorage itself): read from storage on first use
 * in the browser, changed through {@link updateTabs}, saved after a pause. Components read it with {@link useTabs}.
 */
let view: TabsView | null = null;
const listeners = new Set<() => void>();
let saveTimer: ReturnType<typeof setTimeout> | undefined;

function current(): TabsView {
  if (!view) {
    const loaded = loadTabs(globalThis.localStorage);
    view = { tabs: loaded.state, notice: loaded.error ?? null, shareError: null, shared: null, generation: 0 };
  }
  return view;
}

function save(): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  if (!view) return;
  const { error } = saveTabs(globalThis.localStorage, view.tabs);
  const stale = view.notice?.startsWith("Tabs could not be saved");
  if (error ? view.notice !== error : stale) {
    view = { ...view, notice: error ?? null };
    listeners.forEach((l) => l());
  }
}

/** Change the tabs view; a change of the tabs themselves is saved after {@link SAVE_DELAY_MS}. */
export function updateTabs(f: (v: TabsView) => Partial<TabsView>): void {
  const before = current();
  const patch = f(before);
  // Nothing changed (e.g. a report of the same text): no render, so no loop with the playground's effect.
  if ((Object.keys(patch) as (keyof TabsView)[]).every((k) => patch[k] === before[k])) return;
  view = { ...before, ...patch };
  if (patch.tabs && patch.tabs !== before.tabs && saveTimer === undefined) saveTimer = setTimeout(save, SAVE_DELAY_MS);
  listeners.forEach((l) => l());
}

/** The tabs as they are now (for event handlers that must not wait for a render). */
export function tabsNow(): TabsState {
  return current().tabs;
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (listeners.size === 1) window.addEventListener("pagehide", save);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) {
      window.removeEventListener("pagehide", save);
      save(); // leaving the playground (client-side navigation): keep the last keys typed
    }
  };
}

/** The tabs view; null while rendering on the server (the tabs live in the browser). */
export function useTabs(): TabsView | null {
  return useSyncExternalStore(subscribe, current, () => null);
}
