import type { EraChoice } from "../../mcp/contract.ts";
import { ERA_CHOICES } from "../../mcp/contract.ts";
import { isObject } from "../../json/guards.ts";

/**
 * The servers used lately in this browser (localStorage), most recent first: shown in the playground's server switcher
 * and under the home page's connect form. Only the *names* of the headers used are kept, never their values: those
 * stay in this browser tab's sessionStorage (session-store.ts), and this list outlives the tab.
 */
export interface RecentServer {
  url: string;
  era: EraChoice;
  /** The server's title or name as it reported it. */
  name?: string;
  /** Epoch milliseconds of the last use. */
  at: number;
  /** The names of the headers used with it (e.g. "Authorization"). */
  headerNames: string[];
}

/** At most this many servers are remembered; the oldest goes first. */
export const MAX_RECENT_SERVERS = 12;
const MAX_NAME_CHARS = 120;
const MAX_HEADER_NAMES = 20;

export const RECENT_KEY = "toolscope.recent-servers.v1";

export type RecentStorage = Pick<Storage, "getItem" | "setItem">;

function readEntry(v: unknown): RecentServer | null {
  if (!isObject(v) || typeof v.url !== "string" || !v.url || typeof v.at !== "number" || !Number.isFinite(v.at)) return null;
  const era = (ERA_CHOICES as readonly unknown[]).includes(v.era) ? (v.era as EraChoice) : "auto";
  const headerNames = Array.isArray(v.headerNames)
    ? v.headerNames.filter((h): h is string => typeof h === "string").slice(0, MAX_HEADER_NAMES)
    : [];
  return {
    url: v.url,
    era,
    ...(typeof v.name === "string" && v.name ? { name: v.name.slice(0, MAX_NAME_CHARS) } : {}),
    at: v.at,
    headerNames,
  };
}

/** The remembered servers, most recent first; anything malformed is skipped. */
export function loadRecent(storage: Pick<Storage, "getItem"> | undefined): RecentServer[] {
  try {
    const raw = storage?.getItem(RECENT_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return [];
    return parsed
      .map(readEntry)
      .filter((e): e is RecentServer => e !== null)
      .sort((a, b) => b.at - a.at)
      .slice(0, MAX_RECENT_SERVERS);
  } catch {
    return [];
  }
}

function write(storage: RecentStorage | undefined, list: RecentServer[]): { list: RecentServer[]; error?: string } {
  try {
    if (!storage) throw Object.assign(new Error("no storage"), { name: "no local storage" });
    storage.setItem(RECENT_KEY, JSON.stringify(list));
    return { list };
  } catch (err) {
    return { list, error: `Recent servers could not be saved in this browser (${(err as Error).name || "storage error"}).` };
  }
}

/** What to remember of one use: the header *values* are dropped here, so no caller can store them by mistake. */
export interface ServerUse {
  url: string;
  era: EraChoice;
  name?: string;
  headers?: Record<string, string>;
}

/** Remember a use of a server: it moves to the top (one entry per URL), and the list stays within its limit. */
export function rememberServer(
  storage: RecentStorage | undefined,
  use: ServerUse,
  now = Date.now(),
): { list: RecentServer[]; error?: string } {
  const previous = loadRecent(storage).filter((e) => e.url !== use.url);
  const entry: RecentServer = {
    url: use.url,
    era: use.era,
    ...(use.name ? { name: use.name.slice(0, MAX_NAME_CHARS) } : {}),
    at: now,
    headerNames: Object.keys(use.headers ?? {}).slice(0, MAX_HEADER_NAMES),
  };
  return write(storage, [entry, ...previous].slice(0, MAX_RECENT_SERVERS));
}

/** Forget one server. */
export function forgetServer(storage: RecentStorage | undefined, url: string): { list: RecentServer[]; error?: string } {
  return write(
    storage,
    loadRecent(storage).filter((e) => e.url !== url),
  );
}

/** Forget them all. */
export function clearRecent(storage: RecentStorage | undefined): { list: RecentServer[]; error?: string } {
  return write(storage, []);
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": when a server was last used. */
export function lastUsedLabel(at: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  return d === 1 ? "yesterday" : `${d} days ago`;
}
