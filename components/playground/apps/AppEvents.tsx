"use client";

import type { AppEvent } from "@/lib/playground/apps/app-host";

/**
 * What passed between the host and an MCP App's view, oldest first: every message both ways (the lifecycle, the tool
 * input and result, the view's requests and their answers) and what the host did for the view (links opened or
 * refused, calls allowed or refused). There is no conversation here, so what a view sends for the model (ui/message,
 * ui/update-model-context) and its log lines are shown as they came.
 */
export function AppEvents({ events }: { events: readonly AppEvent[] }) {
  return (
    <details className="mt-2 text-xs" data-testid="app-events">
      <summary className="cursor-pointer font-medium">App events ({events.length})</summary>
      <ol className="mt-1 max-h-72 space-y-1 overflow-auto">
        {events.map((e) => (
          <li
            key={e.n}
            className="rounded border border-zinc-200 p-1 dark:border-zinc-800"
            data-testid="app-event"
            data-direction={e.direction}
            data-label={e.label}
          >
            <span className="font-mono text-zinc-500">{e.direction}</span> <span className="font-mono">{e.label}</span>
            {e.message !== undefined && (
              <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-[11px] text-zinc-600 dark:text-zinc-400">
                {JSON.stringify(e.message, null, 1).slice(0, 4_000)}
              </pre>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
