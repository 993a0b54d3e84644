"use client";

import { SearchInput } from "@/components/ui/SearchInput";
import { useMemo, useState } from "react";
import { searchHistory, type HistoryEntry } from "@/lib/playground/stores/history-store";
import { ResponseDiffView } from "../results/ResponseDiffView";

interface Props {
  entries: HistoryEntry[];
  /** Put an entry's request back in the editor (nothing is sent). */
  onReplay: (entry: HistoryEntry) => void;
  onRemove: (id: string) => void;
  onClear: () => void;
}

function time(at: number): string {
  return new Date(at).toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** Past exchanges in this browser: search, replay into the editor, compare two responses side by side. */
export function HistoryPanel({ entries, onReplay, onRemove, onClear }: Props) {
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const shown = useMemo(() => searchHistory(entries, query), [entries, query]);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  const pair = picked.map((id) => entries.find((e) => e.id === id)).filter((e): e is HistoryEntry => Boolean(e));
  return (
    <section aria-label="History" data-testid="history-panel" className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-sm font-semibold">History</h2>
        <span className="text-xs text-zinc-500">{entries.length} in this browser</span>
        <SearchInput
          value={query}
          onChange={setQuery}
          placeholder="Search: words, tool:name, method:tools/call"
          label="Search history"
          testId="history-search"
        />
        {entries.length > 0 && (
          <button
            type="button"
            onClick={() => {
              if (confirm("Delete all history in this browser?")) onClear();
            }}
            className="text-xs text-zinc-500 underline"
          >
            Clear all
          </button>
        )}
      </div>
      {entries.length === 0 && (
        <p className="text-sm text-zinc-500">Nothing yet: every exchange you send is kept here (in this browser only).</p>
      )}
      {entries.length > 0 && shown.length === 0 && <p className="text-sm text-zinc-500">No exchange matches.</p>}
      <ul className="max-h-80 divide-y divide-zinc-100 overflow-auto rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800">
        {shown.map((e) => (
          <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-2 py-1.5 text-sm" data-testid="history-entry">
            <label className="flex items-center gap-1 text-xs text-zinc-500" title="Pick two to compare">
              <input
                type="checkbox"
                checked={picked.includes(e.id)}
                onChange={() => toggle(e.id)}
                data-testid="history-compare"
                aria-label={`Compare the response of ${e.tool ?? e.method} at ${time(e.at)}`}
              />
            </label>
            <span className="font-mono text-xs">{e.method}</span>
            {e.tool && <span className="font-mono text-xs font-semibold">{e.tool}</span>}
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {e.outcome}
              {e.rounds > 1 ? ` · ${e.rounds} rounds` : ""}
            </span>
            {/* Time, Replay and × wrap as one group: on a narrow screen the × never ends up alone on a line. */}
            <span className="ml-auto flex shrink-0 items-center gap-2">
              <span className="text-xs text-zinc-500">
                {time(e.at)} · {Math.round(e.durationMs)} ms
              </span>
              <button
                type="button"
                onClick={() => onReplay(e)}
                className="rounded border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
                data-testid="history-replay"
              >
                Replay
              </button>
              <button
                type="button"
                onClick={() => onRemove(e.id)}
                className="rounded px-1 text-xs text-zinc-500 hover:text-red-700 dark:hover:text-red-400"
                aria-label={`Delete the entry ${e.tool ?? e.method} at ${time(e.at)}`}
                title="Delete this entry"
              >
                ×
              </button>
            </span>
          </li>
        ))}
      </ul>
      {pair.length === 1 && <p className="text-xs text-zinc-500">Pick one more exchange to compare the responses.</p>}
      {pair.length === 2 && (
        <ResponseDiffView
          left={pair[0].response}
          right={pair[1].response}
          leftLabel={`${pair[0].tool ?? pair[0].method} · ${time(pair[0].at)}`}
          rightLabel={`${pair[1].tool ?? pair[1].method} · ${time(pair[1].at)}`}
        />
      )}
    </section>
  );
}
