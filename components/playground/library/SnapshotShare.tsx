"use client";

import { useState } from "react";
import type { UserHeaders } from "@/lib/mcp/contract";
import { shareSnapshot } from "@/lib/playground/share-snapshot";
import { CopyButton } from "@/components/ui/CopyButton";

interface Props {
  server: string;
  /** The headers of the signed-in connection: the server fetches the definitions with them once, and stores none. */
  headers: UserHeaders;
  issuer?: string;
}

type State = { kind: "idle" | "confirming" | "busy" } | { kind: "done"; url: string } | { kind: "error"; message: string };

/**
 * A permanent docs snapshot of a server reached with a sign-in. Live docs pages carry no credentials, so this is the
 * one way to share its docs; it asks first, because the definitions came from an authenticated session (the server
 * may show a signed-in user more than the public). The snapshot holds the definitions only, never a token or header.
 */
export function SnapshotShare({ server, headers, issuer }: Props) {
  const [state, setState] = useState<State>({ kind: "idle" });

  async function share() {
    setState({ kind: "busy" });
    const shared = await shareSnapshot(server, headers);
    setState(shared.ok ? { kind: "done", url: shared.url } : { kind: "error", message: shared.message });
  }

  return (
    <section aria-labelledby="snapshot-share-title" className="mt-4 border-t border-zinc-200 pt-3 dark:border-zinc-800">
      <h3 id="snapshot-share-title" className="text-sm font-semibold">
        Docs snapshot
      </h3>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Live docs links carry no credentials, so this server&apos;s docs cannot be opened from a link. A snapshot stores its tool
        definitions under a permanent link instead.
      </p>
      {state.kind === "idle" && (
        <button
          type="button"
          onClick={() => setState({ kind: "confirming" })}
          className="mt-2 rounded-md border border-zinc-300 px-3 py-1.5 text-sm dark:border-zinc-700"
        >
          Share the definitions…
        </button>
      )}
      {(state.kind === "confirming" || state.kind === "busy") && (
        <div
          role="alertdialog"
          aria-labelledby="snapshot-confirm"
          className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40"
        >
          <p id="snapshot-confirm">
            These definitions come from an <strong>authenticated session</strong>
            {issuer ? ` (signed in to ${issuer})` : ""}: the server may show a signed-in user tools the public does not see. The snapshot
            stores the definitions only — never your token or headers — and anyone with its link can read them.
          </p>
          <div className="mt-2 flex gap-2">
            <button
              type="button"
              data-autofocus
              onClick={() => void share()}
              disabled={state.kind === "busy"}
              className="rounded-md bg-accent-600 px-3 py-1.5 font-medium text-white hover:bg-accent-700 disabled:opacity-60"
            >
              {state.kind === "busy" ? "Sharing…" : "Share definitions"}
            </button>
            <button
              type="button"
              onClick={() => setState({ kind: "idle" })}
              className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700"
            >
              Cancel
            </button>
          </div>
        </div>
      )}
      {state.kind === "done" && (
        <div className="mt-2 flex gap-2" role="status">
          <input
            readOnly
            value={state.url}
            aria-label="Snapshot link"
            onFocus={(e) => e.currentTarget.select()}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
          <CopyButton text={state.url} />
        </div>
      )}
      {state.kind === "error" && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {state.message}
        </p>
      )}
    </section>
  );
}
