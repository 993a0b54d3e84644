"use client";

import { useState } from "react";
import { shareSnapshot } from "@/lib/playground/share-snapshot";

/** Props for {@link ShareButton}. */
interface Props {
  /** The server whose docs to snapshot: its URL or `builtin:<id>` (the server loads the definitions itself). */
  server: string;
}

type State =
  { status: "idle" | "busy" } | { status: "done"; url: string; copied: boolean; fetchedAt?: string } | { status: "error"; message: string };

/** "Share": stores a snapshot of the server's definitions and shows the permanent link, copied when the browser allows. */
export function ShareButton({ server }: Props) {
  const [state, setState] = useState<State>({ status: "idle" });

  async function share() {
    setState({ status: "busy" });
    const shared = await shareSnapshot(server);
    if (!shared.ok) return setState({ status: "error", message: shared.message });
    let copied = false;
    try {
      await navigator.clipboard.writeText(shared.url);
      copied = true;
    } catch {
      // No clipboard permission (or an insecure origin): the link is shown for copying by hand.
    }
    setState({ status: "done", url: shared.url, copied, fetchedAt: shared.fetchedAt });
  }

  return (
    <div className="flex flex-col items-end gap-1 text-sm" data-testid="share">
      <button
        type="button"
        onClick={share}
        disabled={state.status === "busy"}
        data-testid="share-button"
        className="rounded-md bg-accent-600 px-3 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60"
      >
        {state.status === "busy" ? "Sharing…" : "Share"}
      </button>
      {state.status === "done" && (
        <p className="flex flex-wrap items-center justify-end gap-2" role="status">
          <label className="sr-only" htmlFor="share-link">
            Permanent link
          </label>
          <input
            id="share-link"
            readOnly
            value={state.url}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="share-link"
            className="w-72 rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-900"
          />
          <a href={state.url} className="text-accent-600 underline dark:text-accent-100">
            Open
          </a>
          <span className="text-xs text-zinc-500">{state.copied ? "Copied." : "Copy the link."}</span>
        </p>
      )}
      {state.status === "done" && state.fetchedAt && (
        <p className="text-right text-xs text-zinc-500" data-testid="share-fetched-at">
          Tool list fetched <time dateTime={state.fetchedAt}>{new Date(state.fetchedAt).toUTCString()}</time>
        </p>
      )}
      {state.status === "error" && (
        <p role="alert" className="max-w-sm text-right text-red-700 dark:text-red-300">
          {state.message}
        </p>
      )}
    </div>
  );
}
