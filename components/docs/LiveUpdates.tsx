"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import type { Era } from "@/lib/mcp/contract";
import { ApiError, api } from "@/lib/client/api-client";
import { backoffDelay, openListen, type ListenHandle, type ListenStatus } from "@/lib/client/listen-client";

/** Props for {@link LiveUpdates}. */
interface Props {
  /** The server the page documents: its URL or `builtin:<id>`. */
  server: string;
  /** The server's era, from the page's snapshot: only 2026-07-28 servers have `subscriptions/listen`. */
  era: Era;
}

type ChipState = ListenStatus | { state: "unsupported" } | { state: "declined" };

/** How long the "Tool list changed — refreshed" notice stays once the refresh has finished. */
const NOTICE_MS = 6_000;

function chipText(s: ChipState): string {
  switch (s.state) {
    case "connecting":
      return s.attempt > 1 ? "Live: connecting again…" : "Live: connecting…";
    case "subscribed":
      return `Live: listening for tool changes (subscription ${String(s.subscriptionId)})`;
    case "reconnecting":
      return `Live: connection lost, reconnecting in ${Math.max(1, Math.ceil(s.inMs / 1000))} s`;
    case "declined":
      return "Live updates: this server does not announce tool changes";
    case "unsupported":
      return "Live updates need a 2026-07-28 server";
    case "closed":
      return s.reason === "graceful"
        ? "Live: the server ended the subscription"
        : s.reason === "failed"
          ? "Live updates unavailable"
          : "Live: stopped";
  }
}

function dotClass(s: ChipState): string {
  if (s.state === "subscribed") return "bg-emerald-500 motion-safe:animate-pulse";
  if (s.state === "connecting" || s.state === "reconnecting") return "bg-amber-500";
  if (s.state === "closed" && s.reason === "failed") return "bg-red-500";
  return "bg-zinc-400 dark:bg-zinc-500";
}

function chipTitle(s: ChipState): string | undefined {
  if (s.state === "subscribed") {
    const honoured = Object.keys(s.acknowledged).join(", ") || "nothing";
    return `subscriptions/listen acknowledged: subscriptionId ${JSON.stringify(s.subscriptionId)}, honoured filter: ${honoured}. The page re-renders when the server announces notifications/tools/list_changed.`;
  }
  if (s.state === "reconnecting") return s.reason;
  if (s.state === "closed") return s.message;
  if (s.state === "unsupported") return "Legacy (2025) servers have no subscriptions/listen; reload the page to see changes.";
  return undefined;
}

/**
 * Keeps a server-rendered docs page current: opens a `subscriptions/listen` stream for tool list changes through
 * the proxy and, on `notifications/tools/list_changed`, re-renders the page (the proxy has already dropped its
 * cached list). Shows the subscription's state as a small chip.
 */
export function LiveUpdates({ server, era }: Props) {
  const router = useRouter();
  const [status, setStatus] = useState<ChipState>(era === "modern" ? { state: "connecting", attempt: 1 } : { state: "unsupported" });
  const [notice, setNotice] = useState<string | null>(null);
  const [refreshing, startRefresh] = useTransition();

  // The notice goes away a while after the re-render finished (a slow server can take seconds to list its tools).
  useEffect(() => {
    if (!notice || refreshing) return;
    const timer = setTimeout(() => setNotice(null), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice, refreshing]);

  useEffect(() => {
    if (era !== "modern") return;
    let stopped = false;
    let handle: ListenHandle | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const abort = new AbortController();

    const refresh = (message: string) => {
      startRefresh(() => router.refresh());
      setNotice(message);
    };

    const start = async (attempt: number): Promise<void> => {
      setStatus({ state: "connecting", attempt });
      let connection;
      try {
        ({ connection } = await api.connect({ url: server, era: "modern" }, abort.signal));
      } catch (err) {
        if (stopped) return;
        const transient = !(err instanceof ApiError) || err.status === 0 || err.status >= 500 || err.status === 429;
        if (!transient) return setStatus({ state: "closed", reason: "failed", message: err.message });
        const inMs = backoffDelay(attempt);
        setStatus({ state: "reconnecting", attempt, inMs, reason: (err as Error).message });
        retry = setTimeout(() => void start(attempt + 1), inMs);
        return;
      }
      if (stopped) return;
      handle = openListen({
        connection,
        filter: { toolsListChanged: true },
        onStatus: (s) => {
          if (stopped) return;
          if (s.state === "subscribed" && s.declined.includes("toolsListChanged")) {
            setStatus({ state: "declined" });
            handle?.close();
            return;
          }
          // Not the first subscription: changes may have been announced while we were away.
          if (s.state === "subscribed" && s.subscriptions > 1) refresh("Reconnected");
          if (s.state === "closed" && s.reason === "stopped") return;
          setStatus(s);
        },
        onNotification: (message) => {
          if (message.method === "notifications/tools/list_changed") refresh("Tool list changed");
        },
      });
    };

    void start(1);
    return () => {
      stopped = true;
      abort.abort();
      clearTimeout(retry);
      handle?.close();
    };
  }, [server, era, router]);

  return (
    <div className="flex flex-col items-end gap-1 text-xs">
      <p
        data-testid="live-updates"
        data-state={status.state}
        title={chipTitle(status)}
        className="inline-flex max-w-xs items-center gap-1.5 rounded-full border border-zinc-300 bg-white px-2.5 py-1 text-zinc-700 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-300"
      >
        <span aria-hidden="true" className={`inline-block size-2 shrink-0 rounded-full ${dotClass(status)}`} />
        <span>{chipText(status)}</span>
      </p>
      {status.state === "closed" && status.reason === "failed" && status.message && (
        <p className="max-w-xs text-right text-red-700 dark:text-red-300">{status.message}</p>
      )}
      <p role="status" aria-live="polite" data-testid="live-notice" className="min-h-4 text-emerald-700 dark:text-emerald-300">
        {notice ? `${notice} — ${refreshing ? "refreshing…" : "refreshed"}` : ""}
      </p>
    </div>
  );
}
