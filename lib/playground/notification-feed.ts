/**
 * The notifications pane's store: everything a server sent outside a call's result (list changes, log messages,
 * resource updates, progress, the legacy session's own messages, what the listen stream heard), newest first,
 * bounded, with an unseen count and a filter. Pure: the pane and its hook hold the state.
 */
import { isObject } from "../json/guards.ts";
import { shortJson } from "../docs/format-value.ts";

/** Entries kept; older ones are dropped (and counted, so the pane can say so). */
export const MAX_FEED_ENTRIES = 500;

export const FEED_KINDS = ["list-changes", "logs", "resources", "progress", "other"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

export const FEED_KIND_LABELS: Readonly<Record<FeedKind, string>> = {
  "list-changes": "List changes",
  logs: "Logs",
  resources: "Resources",
  progress: "Progress",
  other: "Other",
};

/** Where a message came from: a call's stream, the legacy session's stream during a call, or the listen stream. */
export type FeedSource = "call" | "session" | "listen";

export interface FeedEntry {
  /** Unique within the feed (a counter). */
  id: number;
  /** Epoch ms when the browser received it. */
  at: number;
  method: string;
  kind: FeedKind;
  source: FeedSource;
  summary: string;
  message: Record<string, unknown>;
}

export interface FeedState {
  /** Newest first. */
  entries: FeedEntry[];
  /** How many old entries were dropped to stay within the limit. */
  dropped: number;
  /** Received since the pane was last looked at (open). */
  unseen: number;
  nextId: number;
}

export const EMPTY_FEED: FeedState = { entries: [], dropped: 0, unseen: 0, nextId: 1 };

const LIST_CHANGED = /^notifications\/(tools|resources|prompts)\/list_changed$/;

/** The filter group of a notification method. */
export function feedKind(method: string): FeedKind {
  if (LIST_CHANGED.test(method)) return "list-changes";
  if (method === "notifications/message") return "logs";
  if (method === "notifications/resources/updated") return "resources";
  if (method === "notifications/progress") return "progress";
  return "other";
}

/** `notifications/tools/list_changed`: the tool list the playground holds is out of date. */
export function isToolsListChanged(message: Record<string, unknown>): boolean {
  return message.method === "notifications/tools/list_changed";
}

/** Which list a list_changed names ("tools", "resources", "prompts"), if it is one. */
export function changedList(message: Record<string, unknown>): "tools" | "resources" | "prompts" | undefined {
  const m = typeof message.method === "string" ? LIST_CHANGED.exec(message.method) : null;
  return m ? (m[1] as "tools" | "resources" | "prompts") : undefined;
}

/** One line saying what the notification says. */
export function feedSummary(message: Record<string, unknown>): string {
  const method = typeof message.method === "string" ? message.method : "";
  const p = isObject(message.params) ? message.params : {};
  const list = changedList(message);
  if (list) return `The server's ${list === "tools" ? "tool" : list === "resources" ? "resource" : "prompt"} list changed.`;
  switch (method) {
    case "notifications/message": {
      const level = typeof p.level === "string" ? p.level : "info";
      const logger = typeof p.logger === "string" ? ` ${p.logger}` : "";
      const data = typeof p.data === "string" ? p.data : shortJson(p.data);
      return `[${level}${logger}] ${data}`;
    }
    case "notifications/resources/updated":
      return `Resource updated: ${typeof p.uri === "string" ? p.uri : "(no uri)"}`;
    case "notifications/progress": {
      const of = typeof p.total === "number" ? `/${p.total}` : "";
      const text = typeof p.message === "string" ? ` — ${p.message}` : "";
      return `Progress ${shortJson(p.progress)}${of}${text} (token ${shortJson(p.progressToken)})`;
    }
    default:
      return Object.keys(p).length ? shortJson(p) : "(no params)";
  }
}

/** Add messages (oldest first, as they arrived) to the feed; `seen` when the pane is open and shows them. */
export function addToFeed(
  state: FeedState,
  messages: readonly Record<string, unknown>[],
  source: FeedSource,
  at: number,
  { seen = false, limit = MAX_FEED_ENTRIES }: { seen?: boolean; limit?: number } = {},
): FeedState {
  if (messages.length === 0) return state;
  let nextId = state.nextId;
  const fresh = messages.map((message): FeedEntry => {
    const method = typeof message.method === "string" ? message.method : "(no method)";
    return { id: nextId++, at, method, kind: feedKind(method), source, summary: feedSummary(message), message };
  });
  const all = [...fresh.reverse(), ...state.entries];
  const kept = all.slice(0, limit);
  return {
    entries: kept,
    dropped: state.dropped + (all.length - kept.length),
    unseen: seen ? 0 : Math.min(kept.length, state.unseen + fresh.length),
    nextId,
  };
}

export function markSeen(state: FeedState): FeedState {
  return state.unseen === 0 ? state : { ...state, unseen: 0 };
}

export function clearFeed(state: FeedState): FeedState {
  return { ...EMPTY_FEED, nextId: state.nextId };
}

export interface FeedFilter {
  /** Kinds shown; all when empty. */
  kinds: readonly FeedKind[];
  /** Words that must all appear in the method, summary or JSON (case-insensitive). */
  text: string;
}

/** The entries the filter lets through, newest first. */
export function filterFeed(entries: readonly FeedEntry[], filter: FeedFilter): FeedEntry[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return entries.filter((e) => {
    if (filter.kinds.length > 0 && !filter.kinds.includes(e.kind)) return false;
    if (words.length === 0) return true;
    const hay = `${e.method}\n${e.summary}\n${JSON.stringify(e.message)}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** Local time with milliseconds, e.g. "14:03:07.042". */
export function feedTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}
