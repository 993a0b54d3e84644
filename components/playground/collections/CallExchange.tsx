"use client";

import { useState } from "react";
import type { CallReport } from "@/lib/collections";
import { RawJsonView } from "../results/RawJsonView";
import { ReadOnlyJson } from "../results/ReadOnlyJson";
import { ServerRequestsLog } from "../server-requests/ServerRequestsLog";
import { HttpExchangeView } from "../wire/HttpExchangeView";
import type { RunRound } from "./useCollectionRun";

const tab = "rounded px-2 py-0.5 text-xs aria-selected:bg-zinc-200 aria-selected:font-semibold dark:aria-selected:bg-zinc-700";

/**
 * A run's call as it went: the request as sent (variables filled in), the answer, and each round's wire exchange,
 * server requests and the proxy's notes — the same views the editor's Send shows.
 */
export function CallExchange({ call }: { call: CallReport }) {
  const rounds = (call.exchanges ?? []) as RunRound[];
  const [view, setView] = useState<"json" | "http">("json");
  return (
    <div className="space-y-2" data-testid="run-exchange">
      <div role="tablist" aria-label={`${call.name}: exchange`} className="flex gap-1">
        <button type="button" role="tab" aria-selected={view === "json"} className={tab} onClick={() => setView("json")}>
          Request and answer
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={view === "http"}
          className={tab}
          onClick={() => setView("http")}
          disabled={rounds.length === 0}
        >
          HTTP{rounds.length > 1 ? ` (${rounds.length} rounds)` : ""}
        </button>
      </div>
      {view === "json" && (
        <div className="grid gap-2 min-[900px]:grid-cols-2">
          <ReadOnlyJson value={call.request ?? "(not sent)"} label={`${call.name}: request as sent`} className="max-h-72" />
          {/* The server's answer may be huge: the raw view cuts it (with "show all" and a download), as the editor's does. */}
          <div className="max-h-72 overflow-auto" aria-label={`${call.name}: answer`}>
            <RawJsonView value={call.response === undefined ? "(no answer)" : call.response} fileName={`${call.name}.json`} />
          </div>
        </div>
      )}
      {view === "http" &&
        rounds.map((round, i) => (
          <section key={i} className="space-y-2" aria-label={`Round ${i + 1}`}>
            {rounds.length > 1 && <h4 className="text-xs font-semibold">Round {i + 1}</h4>}
            {round.notes?.map((note) => (
              <p key={note} className="text-xs text-zinc-600 dark:text-zinc-400">
                {note}
              </p>
            ))}
            <HttpExchangeView exchanges={round.exchanges} added={round.added} />
            {round.serverRequests && <ServerRequestsLog records={round.serverRequests} />}
          </section>
        ))}
    </div>
  );
}
