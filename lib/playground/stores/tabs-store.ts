import { ERA_CHOICES, type Era, type EraChoice } from "../../mcp/contract.ts";
import { isObject } from "../../json/guards.ts";

/**
 * The playground's tabs: several requests open at once, each with its own server, editor text and last result, kept
 * in this browser (localStorage) across reloads. Pure: the caller injects the storage and the ids, so every rule here
 * is tested without a browser. Header values never pass through here (they stay in sessionStorage, session-store.ts).
 */
export interface PlaygroundTab {
  id: string;
  /** An http(s) URL, `builtin:demo` or `stdio:<name>`. */
  server: string;
  /** The era pinned for this tab (as the user chose it); absent = auto. */
  era?: Exclude<EraChoice, "auto">;
  /** The user's name for the tab; absent = derived from its request and server ({@link tabTitle}). */
  name?: string;
  /** The tool whose call the editor opens with while the tab has no text yet. */
  tool?: string;
  /** The editor text, once the playground has reported it. */
  text?: string;
  /** The first text the tab had: a tab whose text is still this and that has no result is pristine. */
  baseText?: string;
  /** The last result (a JSON-RPC response or `{ proxyError }`), absent when none. */
  response?: unknown;
  /** Why the last result is not kept: "result too large to keep (N KB)". */
  responseNote?: string;
}

export interface TabsState {
  tabs: PlaygroundTab[];
  activeId: string | null;
}

/** At most this many tabs are open; opening one more says so instead. */
export const MAX_TABS = 20;
/** A tab's last result is kept in storage only up to this many bytes (of its JSON); above that, a note. */
export const MAX_TAB_RESULT_BYTES = 64 * 1024;
/** A tab's name is cut to this many characters. */
export const MAX_TAB_NAME_CHARS = 60;
/** The demo server: what the first tab opens. */
export const DEMO_SERVER = "builtin:demo";

export const STORAGE_KEY = "toolscope.playground-tabs.v1";

export const EMPTY_TABS: TabsState = { tabs: [], activeId: null };

/** A change that could not be made, with what to do instead. */
export type TabsResult = { state: TabsState; error?: string };

const tooMany = `At most ${MAX_TABS} tabs can be open: close one to open another.`;

export function activeTab(state: TabsState): PlaygroundTab | undefined {
  return state.tabs.find((t) => t.id === state.activeId);
}

/** Open a tab for `server` (with a tool to prefill, or a text and result from a share link) and make it active. */
export function openTab(state: TabsState, id: string, init: Omit<PlaygroundTab, "id">): TabsResult {
  if (state.tabs.length >= MAX_TABS) return { state, error: tooMany };
  const tab: PlaygroundTab = { id, ...init, ...(init.text !== undefined ? { baseText: init.text } : {}) };
  return { state: { tabs: [...state.tabs, tab], activeId: id } };
}

/** Close a tab; the active one hands over to its right neighbour, else its left. */
export function closeTab(state: TabsState, id: string): TabsState {
  const i = state.tabs.findIndex((t) => t.id === id);
  if (i < 0) return state;
  const tabs = state.tabs.filter((t) => t.id !== id);
  if (state.activeId !== id) return { tabs, activeId: state.activeId };
  return { tabs, activeId: (tabs[i] ?? tabs[i - 1])?.id ?? null };
}

export function selectTab(state: TabsState, id: string): TabsState {
  return state.tabs.some((t) => t.id === id) ? { ...state, activeId: id } : state;
}

/** Name a tab; a blank name goes back to the derived title. */
export function renameTab(state: TabsState, id: string, name: string): TabsState {
  const trimmed = name.trim().slice(0, MAX_TAB_NAME_CHARS);
  return mapTab(state, id, (t) => {
    const { name: _old, ...rest } = t;
    return trimmed ? { ...rest, name: trimmed } : rest;
  });
}

/** Move a tab `delta` places (clamped to the ends). */
export function moveTab(state: TabsState, id: string, delta: number): TabsState {
  const from = state.tabs.findIndex((t) => t.id === id);
  if (from < 0) return state;
  const to = Math.min(state.tabs.length - 1, Math.max(0, from + delta));
  if (to === from) return state;
  const tabs = [...state.tabs];
  const [tab] = tabs.splice(from, 1);
  tabs.splice(to, 0, tab!);
  return { ...state, tabs };
}

/**
 * What the playground reports: the editor text and the last result (undefined: none yet, so a kept result or note
 * stays). The first text reported becomes the tab's base text.
 */
export function reportTab(state: TabsState, id: string, text: string, response: unknown): TabsState {
  const tab = state.tabs.find((t) => t.id === id);
  if (!tab || (tab.text === text && (response === undefined || response === tab.response))) return state;
  return mapTab(state, id, (t) => {
    const base = { ...t, text, baseText: t.baseText ?? text };
    if (response === undefined) return base;
    const { responseNote: _note, ...rest } = base;
    return { ...rest, response };
  });
}

/** Put a tab on another server (the switcher), keeping its text. The result belonged to the old server: dropped. */
export function setTabServer(state: TabsState, id: string, server: string, era: EraChoice | undefined): TabsState {
  return mapTab(state, id, (t) => {
    const { era: _era, response: _response, responseNote: _note, ...rest } = t;
    return { ...rest, server, ...(era && era !== "auto" ? { era } : {}) };
  });
}

/** The protocol era a tab's connection must have (legacy HTTP+SSE is a legacy era); undefined = any (auto). */
export function pinnedEra(tab: Pick<PlaygroundTab, "era">): Era | undefined {
  return tab.era === "legacy-sse" ? "legacy" : tab.era;
}

/** A tab nobody has worked in yet: no result, and its text (if any) is still the one it opened with. */
export function isPristine(tab: PlaygroundTab): boolean {
  return tab.response === undefined && !tab.responseNote && (tab.text === undefined || tab.text === tab.baseText);
}

/** What the page's address asks for. */
export type Address =
  | { kind: "restore" }
  | { kind: "server"; server: string; tool?: string }
  | { kind: "share"; server: string; era?: Era; request: string; response?: unknown };

/**
 * Apply the page's address to the tabs. Nothing here overwrites the text of a tab someone worked in:
 * - restore (`/playground`): the tabs as they were, or one demo tab the first time;
 * - `?server=X[&tool=Y]`: a pristine tab for X is focused (and given the tool's call), else a new tab opens;
 * - a share link: always a new tab.
 */
export function applyAddress(state: TabsState, address: Address, newId: string): TabsResult {
  if (address.kind === "restore") return state.tabs.length ? { state } : openTab(state, newId, { server: DEMO_SERVER });
  if (address.kind === "share") {
    const { server, era, request, response } = address;
    return openTab(state, newId, { server, ...(era ? { era } : {}), text: request, ...(response !== undefined ? { response } : {}) });
  }
  const { server, tool } = address;
  const pristine = state.tabs.find((t) => t.server === server && isPristine(t));
  if (!pristine) return openTab(state, newId, { server, ...(tool ? { tool } : {}) });
  if (!tool || tool === pristine.tool) return { state: selectTab(state, pristine.id) };
  // Pristine: its text is only the one it opened with, so the tool's call may take its place.
  const next = mapTab(state, pristine.id, (t) => {
    const { text: _text, baseText: _base, ...rest } = t;
    return { ...rest, tool };
  });
  return { state: selectTab(next, pristine.id) };
}

/**
 * The address that means this tab: its server, and its tool while nobody has worked in it (so a reload or a copied link
 * opens the same call; after an edit the tool no longer says what the tab holds).
 */
export function tabAddress(tab: PlaygroundTab): string {
  const q = new URLSearchParams({ server: tab.server, ...(tab.tool && isPristine(tab) ? { tool: tab.tool } : {}) });
  return `/playground?${q}`;
}

/** A short name for a server: the demo, a stdio name, or a URL's host. */
export function serverShortName(server: string): string {
  if (server === DEMO_SERVER) return "demo";
  if (server.startsWith("stdio:")) return server.slice("stdio:".length);
  try {
    return new URL(server).host || server;
  } catch {
    return server;
  }
}

/** What a request text asks: the tool name of a tools/call, else the method; undefined when it cannot tell. */
export function requestLabel(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const msg: unknown = JSON.parse(text);
    if (!isObject(msg) || typeof msg.method !== "string") return undefined;
    const name = isObject(msg.params) ? msg.params.name : undefined;
    return msg.method === "tools/call" && typeof name === "string" && name ? name : msg.method;
  } catch {
    return undefined;
  }
}

/** The tab's title: the user's name, else what its request asks and the server's short name. */
export function tabTitle(tab: PlaygroundTab): string {
  if (tab.name) return tab.name;
  const what = requestLabel(tab.text) ?? tab.tool ?? "new request";
  return `${what} · ${serverShortName(tab.server)}`;
}

/** Minimal storage contract (localStorage, or a stand-in in tests). */
export type TabsStorage = Pick<Storage, "getItem" | "setItem">;

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A tab as stored: a result over {@link MAX_TAB_RESULT_BYTES} is replaced by a note saying how large it was. */
export function storedTab(tab: PlaygroundTab): PlaygroundTab {
  if (tab.response === undefined) return tab;
  const bytes = byteLength(JSON.stringify(tab.response) ?? "");
  if (bytes <= MAX_TAB_RESULT_BYTES) return tab;
  const { response: _response, ...rest } = tab;
  return { ...rest, responseNote: `result too large to keep (${Math.ceil(bytes / 1024)} KB)` };
}

/** Keep the tabs; a storage failure (full, denied) is returned as a message, never thrown. */
export function saveTabs(storage: TabsStorage | undefined, state: TabsState): { error?: string } {
  if (!storage) return { error: "Tabs cannot be kept: this browser gives the page no local storage." };
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ v: 1, activeId: state.activeId, tabs: state.tabs.map(storedTab) }));
    return {};
  } catch (err) {
    return {
      error: `Tabs could not be saved in this browser (${(err as Error).name || "storage error"}): close tabs with large results, or free space for this site.`,
    };
  }
}

function optionalString(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** One stored tab, checked (storage is untrusted: another version of the app or a person may have written it). */
function readTab(v: unknown): PlaygroundTab | null {
  if (!isObject(v) || typeof v.id !== "string" || !v.id || typeof v.server !== "string" || !v.server) return null;
  const tab: PlaygroundTab = { id: v.id, server: v.server };
  if (v.era !== "auto" && (ERA_CHOICES as readonly unknown[]).includes(v.era)) tab.era = v.era as Exclude<EraChoice, "auto">;
  for (const key of ["name", "tool", "text", "baseText", "responseNote"] as const) {
    const s = optionalString(v[key]);
    if (s !== undefined) tab[key] = s;
  }
  if ("response" in v && v.response !== undefined) tab.response = v.response;
  return tab;
}

/** The kept tabs; missing, malformed or unreadable storage gives none (and says why when it was unreadable). */
export function loadTabs(storage: Pick<Storage, "getItem"> | undefined): { state: TabsState; error?: string } {
  let raw: string | null;
  try {
    raw = storage?.getItem(STORAGE_KEY) ?? null;
  } catch (err) {
    return { state: EMPTY_TABS, error: `The kept tabs could not be read (${(err as Error).name || "storage error"}).` };
  }
  if (!raw) return { state: EMPTY_TABS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { state: EMPTY_TABS, error: "The kept tabs were damaged and could not be restored." };
  }
  if (!isObject(parsed) || !Array.isArray(parsed.tabs))
    return { state: EMPTY_TABS, error: "The kept tabs were damaged and could not be restored." };
  const seen = new Set<string>();
  const tabs = parsed.tabs
    .map(readTab)
    .filter((t): t is PlaygroundTab => t !== null && !seen.has(t.id) && Boolean(seen.add(t.id)))
    .slice(0, MAX_TABS);
  const activeId = tabs.some((t) => t.id === parsed.activeId) ? (parsed.activeId as string) : (tabs[0]?.id ?? null);
  return { state: { tabs, activeId } };
}

function mapTab(state: TabsState, id: string, f: (t: PlaygroundTab) => PlaygroundTab): TabsState {
  return { ...state, tabs: state.tabs.map((t) => (t.id === id ? f(t) : t)) };
}
