"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ConnectResponse, UserHeaders } from "@/lib/mcp/contract";
import { openListen, type ListenFilter, type ListenStatus } from "@/lib/client/listen-client";
import { isObject } from "@/lib/json/guards";
import { isShareFragment } from "@/lib/share/share-codec";
import {
  addToFeed,
  changedList,
  clearFeed,
  EMPTY_FEED,
  markSeen,
  type FeedSource,
  type FeedState,
} from "@/lib/playground/notification-feed";

/**
 * Whether this page was opened from a share link (its fragment is one): such a page promises that nothing goes to
 * the server until the user asks, so the explorer's lists and the listen stream wait for a click. Read once.
 */
export function useOpenedFromShareLink(): boolean {
  const [fromLink] = useState(() => typeof window !== "undefined" && isShareFragment(window.location.hash));
  return fromLink;
}

/** How long a tools list_changed waits for others before the tool list is fetched again. */
const TOOLS_REFRESH_DELAY_MS = 150;

/** Whether the listen stream is open, and if not, why. */
export type ListenState = ListenStatus | { state: "off"; reason: string; startable?: boolean };

/** The list changes a server announces (`capabilities.<list>.listChanged`), as a listen filter. */
export function listenFilterFor(capabilities: Record<string, unknown>): ListenFilter {
  const announces = (key: string) => isObject(capabilities[key]) && capabilities[key].listChanged === true;
  return {
    ...(announces("tools") ? { toolsListChanged: true } : {}),
    ...(announces("resources") ? { resourcesListChanged: true } : {}),
    ...(announces("prompts") ? { promptsListChanged: true } : {}),
  };
}

interface Options {
  conn: ConnectResponse | null;
  headers: UserHeaders;
  /** The pane is open: what arrives is seen at once. */
  open: boolean;
  /** A `notifications/tools/list_changed` was heard (in a call or on the listen stream). */
  onToolsChanged: () => void;
  /**
   * Open the listen stream only when asked (`start`): the page came from a share link, which promises that nothing
   * goes to the server until the user asks.
   */
  deferred?: boolean;
}

/**
 * The notifications pane's feed: messages handed over by the exchange runner (`add`) and those a
 * `subscriptions/listen` stream hears while the playground is open (2026-07-28 servers that announce list changes;
 * closed on unmount or when the server changes). List changes bump `versions` and refresh the tool list.
 */
export function useNotificationFeed({ conn, headers, open, onToolsChanged, deferred = false }: Options) {
  const [feed, setFeed] = useState<FeedState>(EMPTY_FEED);
  const [versions, setVersions] = useState({ resources: 0, prompts: 0 });
  const [status, setStatus] = useState<ListenStatus>({ state: "connecting", attempt: 1 });
  const [started, setStarted] = useState(!deferred);
  const latest = useRef({ open, onToolsChanged });
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(refreshTimer.current), []);
  useEffect(() => {
    latest.current = { open, onToolsChanged };
  });

  const add = useCallback((messages: Record<string, unknown>[], source: FeedSource) => {
    setFeed((f) => addToFeed(f, messages, source, Date.now(), { seen: latest.current.open }));
    const lists = new Set(messages.map(changedList));
    // A call's stream and the listen stream may both carry the same change: one fetch for a burst of them.
    if (lists.has("tools") && refreshTimer.current === undefined)
      refreshTimer.current = setTimeout(() => {
        refreshTimer.current = undefined;
        latest.current.onToolsChanged();
      }, TOOLS_REFRESH_DELAY_MS);
    if (lists.has("resources") || lists.has("prompts"))
      setVersions((v) => ({
        resources: v.resources + (lists.has("resources") ? 1 : 0),
        prompts: v.prompts + (lists.has("prompts") ? 1 : 0),
      }));
  }, []);

  // One listen stream per server (the descriptor object may be replaced without the server changing).
  const era = conn?.server.era;
  const capabilities = conn?.server.capabilities;
  const connectionRef = useRef(conn?.connection);
  useEffect(() => {
    connectionRef.current = conn?.connection;
  });
  const url = conn?.connection.url;
  const filterKey = capabilities ? JSON.stringify(listenFilterFor(capabilities)) : "";
  useEffect(() => {
    const connection = connectionRef.current;
    const filter = JSON.parse(filterKey || "{}") as ListenFilter;
    if (!started || !connection || era !== "modern" || Object.keys(filter).length === 0) return;
    const handle = openListen({
      connection,
      filter,
      headers,
      onStatus: setStatus,
      onNotification: (message) => add([message], "listen"),
    });
    return () => handle.close();
  }, [started, url, era, filterKey, headers, add]);

  const listen: ListenState = !era
    ? { state: "off", reason: "Not connected yet." }
    : era !== "modern"
      ? { state: "off", reason: "subscriptions/listen is a 2026-07-28 method: a legacy server's messages show up with calls." }
      : filterKey === "{}"
        ? { state: "off", reason: "The server announces no list changes (no listChanged capability), so no listen stream is open." }
        : !started
          ? { state: "off", reason: "Not listening: this page came from a link, so nothing is sent until you ask.", startable: true }
          : status;
  const clear = useCallback(() => setFeed(clearFeed), []);
  /** The pane was opened: what it shows is seen. */
  const seen = useCallback(() => setFeed(markSeen), []);
  /** Open the listen stream of a page that waited (see `deferred`). */
  const start = useCallback(() => setStarted(true), []);
  return { feed, add, clear, seen, start, versions, listen };
}
