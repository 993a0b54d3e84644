import type { RootEntry } from "../server-requests/mrtr.ts";
import { LOG_LEVELS, type LogLevelChoice } from "../notifications.ts";

/**
 * The playground's remembered preferences (localStorage; no secrets): roots offered to `roots/list`
 * input requests, whether destructive tools ask before sending, the editor/result split, whether the "Will be sent"
 * preview is open.
 */
export interface PlaygroundPrefs {
  roots: RootEntry[];
  /** Ask before sending a tools/call to an effectively destructive tool. */
  confirmDestructive: boolean;
  /** Share of the width the editor takes in the side-by-side layout, 0.2–0.8. */
  split: number;
  /** The "Will be sent" preview under the editor is expanded. */
  previewOpen: boolean;
  /** The per-request log level asked of modern servers (`_meta` io.modelcontextprotocol/logLevel); `debug` by default. */
  logLevel: LogLevelChoice;
  /** The explorer (tools, resources, prompts) beside the editor is expanded. */
  explorerOpen: boolean;
  /** The notifications pane under the editor and result is expanded. */
  notificationsOpen: boolean;
  /** The arguments form above the editor (tools/call, prompts/get) is expanded. */
  formOpen: boolean;
  /** Connections declare the MCP Apps extension (`io.modelcontextprotocol/ui`); off shows a host without apps. */
  apps: boolean;
  /** Calls declare the tasks extension (2026-07-28), so a server may answer with a task, followed to its end. */
  tasks: boolean;
}

const KEY = "toolscope.playground-prefs.v1";

export const DEFAULT_PREFS: PlaygroundPrefs = {
  roots: [],
  confirmDestructive: true,
  split: 0.5,
  previewOpen: true,
  // debug: a 2026-07-28 server sends no log message unless the request asks for a level, so "off" hid everything a
  // server logs (the demo's reindex showed none); the playground is where people watch what a server does.
  logLevel: "debug",
  explorerOpen: true,
  notificationsOpen: false,
  formOpen: true,
  apps: true,
  tasks: true,
};

/** Clamp the split to a usable range. */
export function clampSplit(value: number): number {
  return Number.isFinite(value) ? Math.min(0.8, Math.max(0.2, value)) : DEFAULT_PREFS.split;
}

/** Read the preferences, falling back to defaults for anything missing or malformed. */
export function loadPrefs(storage: Pick<Storage, "getItem"> | undefined = globalThis.localStorage): PlaygroundPrefs {
  try {
    const raw = storage?.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as Partial<PlaygroundPrefs>) : {};
    const roots = Array.isArray(v.roots)
      ? v.roots
          .filter((r): r is RootEntry => typeof r?.uri === "string")
          .map((r) => (typeof r.name === "string" ? { uri: r.uri, name: r.name } : { uri: r.uri }))
      : [];
    return {
      roots,
      confirmDestructive: typeof v.confirmDestructive === "boolean" ? v.confirmDestructive : DEFAULT_PREFS.confirmDestructive,
      split: typeof v.split === "number" ? clampSplit(v.split) : DEFAULT_PREFS.split,
      previewOpen: typeof v.previewOpen === "boolean" ? v.previewOpen : DEFAULT_PREFS.previewOpen,
      logLevel:
        v.logLevel === "off" || (LOG_LEVELS as readonly unknown[]).includes(v.logLevel)
          ? (v.logLevel as LogLevelChoice)
          : DEFAULT_PREFS.logLevel,
      explorerOpen: typeof v.explorerOpen === "boolean" ? v.explorerOpen : DEFAULT_PREFS.explorerOpen,
      notificationsOpen: typeof v.notificationsOpen === "boolean" ? v.notificationsOpen : DEFAULT_PREFS.notificationsOpen,
      formOpen: typeof v.formOpen === "boolean" ? v.formOpen : DEFAULT_PREFS.formOpen,
      apps: typeof v.apps === "boolean" ? v.apps : DEFAULT_PREFS.apps,
      tasks: typeof v.tasks === "boolean" ? v.tasks : DEFAULT_PREFS.tasks,
    };
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

/** Change some preferences and persist them; returns the new whole. */
export function savePrefs(
  patch: Partial<PlaygroundPrefs>,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.localStorage,
): PlaygroundPrefs {
  const next = { ...loadPrefs(storage), ...patch };
  try {
    storage?.setItem(KEY, JSON.stringify(next));
  } catch {
    // Storage full or denied (private mode): the preference lasts for this page only.
  }
  return next;
}
