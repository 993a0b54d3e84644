"use client";

import { useMemo, useState } from "react";
import {
  FEED_KIND_LABELS,
  FEED_KINDS,
  feedTime,
  filterFeed,
  MAX_FEED_ENTRIES,
  type FeedKind,
  type FeedSource,
  type FeedState,
} from "@/lib/playground/notification-feed";
import type { ListenState } from "../useNotificationFeed";

interface Props {
  feed: FeedState;
  listen: ListenState;
  open: boolean;
  onOpen: (open: boolean) => void;
  /** Opening the pane shows what arrived meanwhile: the unseen count goes. */
  onSeen: () => void;
  onClear: () => void;
  /** Open the listen stream (a page opened from a link waits for this). */
  onListen?: () => void;
}

const SOURCE_LABELS: Record<FeedSource, string> = {
  call: "call",
  session: "session",
  listen: "listen",
};

const KIND_DOT: Record<FeedKind, string> = {
  "list-changes": "bg-sky-500",
  logs: "bg-zinc-500",
  resources: "bg-violet-500",
  progress: "bg-emerald-500",
  other: "bg-amber-500",
};

function listenText(s: ListenState): string {
  switch (s.state) {
    case "off":
      return s.reason;
    case "connecting":
      return "Listening: connecting…";
    case "subscribed":
      return `Listening for ${Object.keys(s.acknowledged)
        .map((k) => k.replace(/ListChanged$/, ""))
        .join(", ")} list changes.`;
    case "reconnecting":
      return `Listen stream lost (${s.reason}); again in ${Math.max(1, Math.ceil(s.inMs / 1000))} s.`;
    case "closed":
      return s.reason === "graceful" ? "The server ended the listen stream." : `Listen stream closed${s.message ? `: ${s.message}` : "."}`;
  }
}

const chip =
  "rounded-full border px-2 py-0.5 text-xs focus-visible:outline-2 focus-visible:outline-accent-600 aria-pressed:border-accent-600 aria-pressed:bg-accent-50 aria-pressed:text-accent-700 dark:aria-pressed:bg-accent-700/30 dark:aria-pressed:text-accent-100 border-zinc-300 dark:border-zinc-700";

/**
 * Everything the server sent outside a call's result, newest first: a collapsible strip with an unseen count, kind
 * chips and a text filter, each message with its local time, method and one-line summary, its JSON on expand.
 */
export function NotificationsPane({ feed, listen, open, onOpen, onSeen, onClear, onListen }: Props) {
  const [kinds, setKinds] = useState<FeedKind[]>([]);
  const [text, setText] = useState("");
  const shown = useMemo(() => filterFeed(feed.entries, { kinds, text }), [feed.entries, kinds, text]);
  const toggleKind = (k: FeedKind) => setKinds((old) => (old.includes(k) ? old.filter((x) => x !== k) : [...old, k]));
  const filtered = kinds.length > 0 || text.trim() !== "";

  return (
    <section
      aria-label="Notifications"
      data-testid="notifications-pane"
      className="mb-3 rounded-md border border-zinc-200 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2 px-2 py-1.5">
        <button
          type="button"
          onClick={() => {
            if (!open) onSeen();
            onOpen(!open);
          }}
          aria-expanded={open}
          aria-controls="playground-notifications"
          data-testid="notifications-toggle"
          className="flex items-center gap-1.5 rounded px-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-accent-600"
        >
          <span aria-hidden className="text-xs">
            {open ? "▾" : "▸"}
          </span>
          Notifications
          <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">({feed.entries.length})</span>
          {!open && feed.unseen > 0 && (
            <span
              className="rounded-full bg-accent-600 px-1.5 text-xs font-semibold text-white"
              data-testid="notifications-unseen"
              aria-label={`${feed.unseen} new`}
            >
              {feed.unseen}
            </span>
          )}
        </button>
        <span
          className="min-w-0 flex-1 truncate text-xs text-zinc-600 dark:text-zinc-400"
          data-testid="notifications-listen"
          data-state={listen.state}
          title={listenText(listen)}
        >
          {listenText(listen)}
        </span>
        {listen.state === "off" && listen.startable && onListen && (
          <button
            type="button"
            onClick={onListen}
            className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 dark:border-zinc-700 dark:hover:bg-zinc-900"
            data-testid="notifications-listen-start"
          >
            Listen
          </button>
        )}
      </div>
      {open && (
        <div id="playground-notifications" className="border-t border-zinc-200 px-2 py-2 dark:border-zinc-800">
          <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Filter notifications">
            {FEED_KINDS.map((k) => (
              <button
                key={k}
                type="button"
                aria-pressed={kinds.includes(k)}
                onClick={() => toggleKind(k)}
                className={chip}
                data-testid={`notifications-kind-${k}`}
              >
                <span aria-hidden className={`mr-1 inline-block size-1.5 rounded-full align-middle ${KIND_DOT[k]}`} />
                {FEED_KIND_LABELS[k]}
              </button>
            ))}
            <input
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Filter by text"
              aria-label="Filter notifications by text"
              data-testid="notifications-filter"
              className="min-w-0 flex-1 basis-40 rounded-md border border-zinc-300 bg-white px-2 py-0.5 text-sm focus-visible:outline-2 focus-visible:outline-accent-600 dark:border-zinc-700 dark:bg-zinc-900"
            />
            <button
              type="button"
              onClick={onClear}
              disabled={feed.entries.length === 0}
              className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-accent-600 disabled:opacity-60 dark:border-zinc-700 dark:hover:bg-zinc-900"
              data-testid="notifications-clear"
            >
              Clear
            </button>
          </div>
          {feed.dropped > 0 && (
            <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="notifications-dropped">
              Only the newest {MAX_FEED_ENTRIES} are kept: {feed.dropped} older notification{feed.dropped === 1 ? " was" : "s were"}{" "}
              dropped.
            </p>
          )}
          {feed.entries.length === 0 ? (
            <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">
              Nothing yet. Log messages, progress and list changes the server sends show up here, newest first.
            </p>
          ) : shown.length === 0 ? (
            <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">No notification matches the filter.</p>
          ) : (
            <ol className="mt-2 max-h-80 space-y-0.5 overflow-y-auto" aria-label={filtered ? "Matching notifications" : "Notifications"}>
              {shown.map((e) => (
                <li key={e.id} data-testid="notification-entry" data-kind={e.kind}>
                  <details className="group rounded hover:bg-zinc-50 dark:hover:bg-zinc-900">
                    <summary className="flex cursor-pointer items-baseline gap-2 rounded px-1 py-0.5 text-xs focus-visible:outline-2 focus-visible:outline-accent-600">
                      <time
                        className="shrink-0 font-mono text-zinc-600 tabular-nums dark:text-zinc-400"
                        dateTime={new Date(e.at).toISOString()}
                      >
                        {feedTime(e.at)}
                      </time>
                      <span aria-hidden className={`inline-block size-1.5 shrink-0 self-center rounded-full ${KIND_DOT[e.kind]}`} />
                      <code className="shrink-0 font-semibold">{e.method}</code>
                      <span className="min-w-0 flex-1 truncate text-zinc-700 dark:text-zinc-300">{e.summary}</span>
                      <span className="shrink-0 text-[0.65rem] text-zinc-600 dark:text-zinc-400" title="Where it arrived">
                        {SOURCE_LABELS[e.source]}
                      </span>
                    </summary>
                    <pre className="mx-1 mb-1 max-h-60 overflow-auto rounded bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-900">
                      {JSON.stringify(e.message, null, 2)}
                    </pre>
                  </details>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
