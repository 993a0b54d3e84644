"use client";

import { useMemo, useSyncExternalStore } from "react";
import { decodeShare, isShareFragment, ShareLinkError, type SharedExperiment } from "@/lib/share/share-codec";
import { Playground } from "./Playground";

interface Props {
  server: string;
  tool?: string;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

/**
 * The playground page island. A URL fragment `#v1.…` is a share link: decoded here (untrusted input, typed and
 * checked), it opens its server with the request in the editor and sends nothing. The fragment is read only in
 * the browser (it never reaches the server), so the first render waits for it.
 */
export function PlaygroundShell({ server, tool }: Props) {
  const hash = useSyncExternalStore(
    subscribe,
    () => window.location.hash,
    () => null,
  );
  const shared = useMemo((): { exp: SharedExperiment } | { error: string } | null => {
    if (!hash || !isShareFragment(hash)) return null;
    try {
      return { exp: decodeShare(hash) };
    } catch (err) {
      return { error: err instanceof ShareLinkError ? err.message : String(err) };
    }
  }, [hash]);
  if (hash === null)
    return (
      <p className="text-sm text-zinc-500" data-testid="playground-loading">
        Loading the playground…
      </p>
    );
  if (shared && "error" in shared) {
    return (
      <div className="space-y-4">
        <p
          role="alert"
          data-testid="share-error"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
        >
          This share link could not be opened: {shared.error}
        </p>
        <Playground key={`${server}|${tool ?? ""}`} server={server} tool={tool} />
      </div>
    );
  }
  if (shared) {
    const { exp } = shared;
    return (
      <div className="space-y-2">
        <p className="text-xs text-zinc-500" data-testid="share-banner">
          Opened from a share link: <span className="font-mono">{exp.server}</span>
          {exp.era ? ` (${exp.era})` : ""}. Nothing has been sent.
        </p>
        <Playground
          key={hash}
          server={exp.server}
          initial={{ era: exp.era, request: exp.request, ...(exp.response !== undefined ? { response: exp.response } : {}) }}
        />
      </div>
    );
  }
  return <Playground key={`${server}|${tool ?? ""}`} server={server} tool={tool} />;
}
