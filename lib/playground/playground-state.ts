/**
 * The playground's own UI state as one reducer: the editor text, its diagnostics and parse error, the destructive-call
 * confirmation, which overlay (palette, templates, help, share, save, copy as code) is open, the history and saved
 * panels, header overrides, notices and the remembered preferences.
 *
 * Pure: no React, no DOM, no storage. The component (components/playground/Playground.tsx) holds it with
 * `useReducer(reduce, …)` and does the side effects (sending, persisting preferences, navigating) around it.
 * The exchange in flight, MRTR rounds and server requests are not here: they live in `useExchangeRunner`.
 */
import type { Era, Tool } from "../mcp/contract.ts";
import type { EditorDiagnostic } from "../editor/request-diagnostics.ts";
import { isEffectivelyDestructive } from "../docs/annotations.ts";
import type { PlaygroundPrefs } from "./stores/prefs-store.ts";
import type { OverrideDraft } from "./send-preview.ts";
import type { ParsedMessage, SendBlock } from "./parse-message.ts";

/** The languages "Copy as code" offers (the same union as copy-as-code's `CodeLanguage`). */
export type CopyLanguage = "curl" | "fetch" | "typescript";

/** The one overlay open at a time over the playground, or none. */
export type Overlay = { kind: "palette" | "templates" | "help" | "share" | "save" } | { kind: "copy"; language: CopyLanguage } | null;

/** A tools/call to a destructive tool, held until the user confirms it. */
export interface PendingCall {
  message: Record<string, unknown>;
  /** The editor text it was parsed from (what history records). */
  text: string;
  tool: Tool;
}

export interface PlaygroundState {
  /** What the user (or a template, replay, next page, "write into the request") put in the editor; null until then, when the editor shows the default request. */
  edited: string | null;
  diagnostics: EditorDiagnostic[];
  /** Why the last Send refused the text; cleared by the next Send that parses, a replay or a next page. */
  parseError: string | null;
  /** When Send last refused the text (ms); the result shown is then the previous send's ({@link isPreviousResult}). */
  refusedAt: number | null;
  prefs: PlaygroundPrefs;
  confirming: PendingCall | null;
  overlay: Overlay;
  showHistory: boolean;
  showSaved: boolean;
  /** The Tests panel (the server's collection of calls with expectations). */
  showTests: boolean;
  overrideDrafts: OverrideDraft[];
  /** Said after the tool list was fetched again. */
  toolsNotice: string | null;
  /** Said in the saved panel after a save; `at` makes a repeated identical notice a new one. */
  savedNotice: { text: string; at: number } | null;
}

/** What a Send does with the text: refuse it, ask first (destructive tool), or run it. */
export type SendPlan =
  | { kind: "invalid"; error: string; block: SendBlock }
  | { kind: "confirm"; pending: PendingCall }
  | { kind: "run"; message: Record<string, unknown>; text: string };

export type PlaygroundAction =
  /** The editor text changed: typing, a template, "write into the request". The parse error stays until the next Send. */
  | { type: "edit"; text: string }
  | { type: "diagnostics"; diagnostics: EditorDiagnostic[] }
  /** Send pressed (button, Ctrl/Cmd+Enter, palette), with the plan `planSend` made; the component runs a `run` plan. */
  | { type: "send"; plan: SendPlan; at: number }
  /** The request for a list result's next page goes in the editor (and may be sent at once by the component). */
  | { type: "next-page"; text: string }
  /** A history or saved entry for this server goes in the editor. */
  | { type: "replay"; text: string }
  /** The destructive-call dialog: Cancel, or Confirm (the component runs the pending call it read before). */
  | { type: "confirm-cancel" }
  | { type: "confirm-accept" }
  | { type: "overlay-open"; overlay: Exclude<Overlay, null> }
  | { type: "overlay-close" }
  | { type: "history-toggle" }
  | { type: "saved-toggle" }
  | { type: "tests-toggle" }
  /** A collection arrived from a link: the Tests panel opens to show it. */
  | { type: "tests-open" }
  /** The save dialog saved (or replaced) an entry: it closes, the saved panel opens with a notice. */
  | { type: "saved"; text: string; at: number }
  | { type: "tools-notice"; text: string }
  | { type: "overrides"; drafts: OverrideDraft[] }
  /** Preferences as persisted (savePrefs returns the whole). */
  | { type: "prefs"; prefs: PlaygroundPrefs };

export function initialState(input: { edited: string | null; prefs: PlaygroundPrefs }): PlaygroundState {
  return {
    edited: input.edited,
    diagnostics: [],
    parseError: null,
    refusedAt: null,
    prefs: input.prefs,
    confirming: null,
    overlay: null,
    showHistory: false,
    showSaved: false,
    showTests: false,
    overrideDrafts: [],
    toolsNotice: null,
    savedNotice: null,
  };
}

export function reduce(state: PlaygroundState, action: PlaygroundAction): PlaygroundState {
  switch (action.type) {
    case "edit":
      return state.edited === action.text ? state : { ...state, edited: action.text };
    case "diagnostics":
      return { ...state, diagnostics: action.diagnostics };
    case "send": {
      const { plan } = action;
      if (plan.kind === "invalid") return { ...state, parseError: plan.error, refusedAt: action.at };
      return { ...state, parseError: null, confirming: plan.kind === "confirm" ? plan.pending : state.confirming };
    }
    case "next-page":
    case "replay":
      return { ...state, edited: action.text, parseError: null };
    case "confirm-cancel":
    case "confirm-accept":
      return { ...state, confirming: null };
    case "overlay-open":
      return { ...state, overlay: action.overlay };
    case "overlay-close":
      return state.overlay === null ? state : { ...state, overlay: null };
    case "history-toggle":
      return { ...state, showHistory: !state.showHistory };
    case "saved-toggle":
      return { ...state, showSaved: !state.showSaved };
    case "tests-toggle":
      return { ...state, showTests: !state.showTests };
    case "tests-open":
      return state.showTests ? state : { ...state, showTests: true };
    case "saved":
      return { ...state, overlay: null, savedNotice: { text: action.text, at: action.at }, showSaved: true };
    case "tools-notice":
      return { ...state, toolsNotice: action.text };
    case "overrides":
      return { ...state, overrideDrafts: action.drafts };
    case "prefs":
      return { ...state, prefs: action.prefs };
  }
  return state;
}

// ---- selectors ----

/** The editor text: what was edited, else the default request (null while the tool list is not there yet). */
export function selectText(state: Pick<PlaygroundState, "edited">, defaultText: string | null): string | null {
  return state.edited ?? defaultText;
}

export { lineColumn, parseMessage, sendBlockMessage, STILL_SENDABLE, type ParsedMessage, type SendBlock } from "./parse-message.ts";

/** The listed tool a tools/call message names, if any. */
export function calledTool(message: Record<string, unknown>, tools: readonly Tool[] | null | undefined): Tool | undefined {
  if (message.method !== "tools/call") return undefined;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  return tools?.find((t) => t.name === name);
}

/** What Send does with the parsed text: a destructive tool asks first while the preference says so. */
export function planSend(
  text: string,
  parsed: ParsedMessage,
  tools: readonly Tool[] | null | undefined,
  confirmDestructive: boolean,
): SendPlan {
  if (!parsed.ok) return { kind: "invalid", error: parsed.error, block: parsed.block };
  const target = calledTool(parsed.value, tools);
  if (target && confirmDestructive && isEffectivelyDestructive(target))
    return { kind: "confirm", pending: { message: parsed.value, text, tool: target } };
  return { kind: "run", message: parsed.value, text };
}

/**
 * Whether the result on screen (of an exchange started at `startedAt`) is the previous send's: Send refused the text
 * since, so it must not pass for the answer to what the editor holds. Any exchange started later is current again.
 */
export function isPreviousResult(state: Pick<PlaygroundState, "refusedAt">, startedAt: number): boolean {
  return state.refusedAt !== null && state.refusedAt >= startedAt;
}

/** How many of the editor's diagnostics are errors (the "This request has N problems" line). */
export function errorCount(state: Pick<PlaygroundState, "diagnostics">): number {
  return state.diagnostics.filter((d) => d.severity === "error").length;
}

/** Where replaying a history or saved entry goes: this editor, another server's playground through the tab (stdio), or a share link. */
export type ReplayTarget = { kind: "here" } | { kind: "hand-off" } | { kind: "share" };

export function replayTarget(entry: { server: string; era?: Era }, server: string): ReplayTarget {
  if (entry.server === server) return { kind: "here" };
  // A share link cannot name a stdio server: the request waits in this tab for that server's playground.
  if (entry.server.startsWith("stdio:")) return { kind: "hand-off" };
  return { kind: "share" };
}
