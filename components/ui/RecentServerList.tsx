"use client";

import { useCallback, useState, useSyncExternalStore } from "react";
import {
  clearRecent,
  forgetServer,
  lastUsedLabel,
  loadRecent,
  RECENT_KEY,
  rememberServer,
  type RecentServer,
  type ServerUse,
} from "@/lib/playground/stores/recent-servers";

const listeners = new Set<() => void>();
let cache: { raw: string | null; list: RecentServer[] } | null = null;
const NONE: RecentServer[] = [];

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener("storage", onChange); // another browser tab changed the list
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** The list as stored, parsed again only when the stored text changed (a snapshot must be stable). */
function snapshot(): RecentServer[] {
  let raw: string | null = null;
  try {
    raw = globalThis.localStorage?.getItem(RECENT_KEY) ?? null;
  } catch {
    raw = null;
  }
  if (!cache || cache.raw !== raw) cache = { raw, list: loadRecent(globalThis.localStorage) };
  return cache.list;
}

/** The recent servers of this browser (none while rendering on the server), with the changes that keep them. */
export function useRecentServers() {
  const list = useSyncExternalStore(subscribe, snapshot, () => NONE);
  const [error, setError] = useState<string | undefined>(undefined);
  const change = useCallback((r: { error?: string }) => {
    setError(r.error);
    listeners.forEach((l) => l());
  }, []);
  const remember = useCallback((use: ServerUse) => change(rememberServer(globalThis.localStorage, use)), [change]);
  const forget = useCallback((url: string) => change(forgetServer(globalThis.localStorage, url)), [change]);
  const clear = useCallback(() => change(clearRecent(globalThis.localStorage)), [change]);
  return { list, error, remember, forget, clear };
}

interface Props {
  list: RecentServer[];
  /** Use this server (fill a form, or connect). */
  onPick: (entry: RecentServer) => void;
  onRemove: (url: string) => void;
  onClear: () => void;
  /** What picking does, for the button's name: "Use" or "Open". */
  pickVerb?: string;
  /** A storage failure to show (the list still shows what was used). */
  error?: string;
  testId?: string;
}

/**
 * The servers used lately in this browser: name, URL, era, when, and the *names* of the headers used (their values
 * are never kept). Shared by the playground's server switcher and the home page's connect form.
 */
export function RecentServerList({ list, onPick, onRemove, onClear, pickVerb = "Use", error, testId = "recent-servers" }: Props) {
  if (!list.length && !error) return null;
  return (
    <section aria-label="Recent servers" data-testid={testId} className="text-sm">
      <div className="mb-1 flex items-center gap-2">
        <h3 className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">Recent</h3>
        {list.length > 0 && (
          <button
            type="button"
            onClick={onClear}
            data-testid="recent-clear"
            className="ml-auto rounded px-1.5 text-xs text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
          >
            Clear
          </button>
        )}
      </div>
      {error && (
        <p role="status" className="mb-1 text-xs text-amber-700 dark:text-amber-400">
          {error}
        </p>
      )}
      <ul className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {list.map((e) => (
          <li key={e.url} className="flex min-w-0 items-center gap-2 px-2 py-1.5" data-testid="recent-server">
            <button
              type="button"
              onClick={() => onPick(e)}
              aria-label={`${pickVerb} ${e.name ?? e.url} (${e.url})`}
              className="min-w-0 flex-1 rounded text-left hover:underline"
            >
              <span className="block truncate font-medium text-accent-700 dark:text-accent-100">{e.name ?? e.url}</span>
              <span className="block truncate font-mono text-xs text-zinc-500 dark:text-zinc-400">
                {e.name ? `${e.url} · ` : ""}
                {e.era} · {lastUsedLabel(e.at)}
                {e.headerNames.length ? ` · headers: ${e.headerNames.join(", ")}` : ""}
              </span>
            </button>
            <button
              type="button"
              onClick={() => onRemove(e.url)}
              aria-label={`Forget ${e.name ?? e.url}`}
              title="Forget this server"
              className="shrink-0 rounded px-1.5 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
