/**
 * The host side of an MCP App in the playground, without React: what the host tells the view about itself and how
 * it bounds what the view asks for. ext-apps specification 2026-01-26, "Host Context" and "Container Dimensions".
 */
import type { Tool } from "../../mcp/contract.ts";

/** A view's height follows its size-changed messages, within these bounds (px). */
export const MIN_APP_HEIGHT = 60;
export const MAX_APP_HEIGHT = 1_600;
/** The height of a view before it says its size. */
export const INITIAL_APP_HEIGHT = 240;
/** How long a view has to send ui/notifications/initialized before the host gives up on it. */
export const APP_INIT_TIMEOUT_MS = 15_000;
/** How long the host waits for a view to answer ui/resource-teardown before removing it anyway. */
export const APP_TEARDOWN_TIMEOUT_MS = 1_000;
/** Entries kept in a view's event list (the oldest go first). */
export const MAX_APP_EVENTS = 500;

export type DisplayMode = "inline" | "fullscreen" | "pip";
/** The modes this host offers: no picture-in-picture, as there is no conversation for it to float over. */
export const AVAILABLE_DISPLAY_MODES: readonly DisplayMode[] = ["inline", "fullscreen"];

/** A height the view asked for, bounded; a value that is not a finite number keeps the current one. */
export function clampHeight(asked: unknown, current: number): number {
  if (typeof asked !== "number" || !Number.isFinite(asked)) return current;
  return Math.round(Math.min(MAX_APP_HEIGHT, Math.max(MIN_APP_HEIGHT, asked)));
}

/** The mode the host applies when the view asks for `asked`: an unavailable one keeps the current mode. */
export function appliedDisplayMode(asked: unknown, current: DisplayMode): DisplayMode {
  return AVAILABLE_DISPLAY_MODES.includes(asked as DisplayMode) ? (asked as DisplayMode) : current;
}

/** A link the host may open for the view (after the person agrees): http and https only, no credentials in it. */
export function openableLink(url: unknown): { ok: true; url: string } | { ok: false; reason: string } {
  if (typeof url !== "string") return { ok: false, reason: "the app sent no URL" };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: `"${url.slice(0, 200)}" is not a URL` };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
    return { ok: false, reason: `only http and https links are opened (this one is ${parsed.protocol.slice(0, 20)})` };
  if (parsed.username || parsed.password) return { ok: false, reason: "links with a user name or password are not opened" };
  return { ok: true, url: parsed.href };
}

export interface HostContextInput {
  theme: "light" | "dark";
  displayMode: DisplayMode;
  tool: Tool;
  locale: string;
  timeZone: string;
  maxHeight: number;
}

/** The host context sent in the ui/initialize answer and, in part, in host-context-changed. */
export function hostContext(input: HostContextInput) {
  return {
    theme: input.theme,
    displayMode: input.displayMode,
    availableDisplayModes: [...AVAILABLE_DISPLAY_MODES],
    containerDimensions: { maxHeight: input.maxHeight },
    locale: input.locale,
    timeZone: input.timeZone,
    platform: "web" as const,
    toolInfo: { tool: input.tool },
  };
}

/** One message between the host and the view, or something the host did for it, as the event list shows it. */
export interface AppEvent {
  n: number;
  at: number;
  direction: "app→host" | "host→app" | "host";
  /** The JSON-RPC method, or "response"/"error" for answers, or the host's own label. */
  label: string;
  message?: unknown;
}

/** What a JSON-RPC message is, for its event label. */
export function messageLabel(message: unknown): string {
  if (typeof message !== "object" || message === null) return "non-JSON-RPC message";
  const m = message as Record<string, unknown>;
  if (typeof m.method === "string") return m.method.slice(0, 100);
  if ("error" in m) return `error (id ${String(m.id).slice(0, 40)})`;
  if ("result" in m) return `response (id ${String(m.id).slice(0, 40)})`;
  return "non-JSON-RPC message";
}

/** Append an event, keeping at most MAX_APP_EVENTS. */
export function withEvent(events: readonly AppEvent[], event: Omit<AppEvent, "n" | "at">, at = Date.now()): AppEvent[] {
  const n = (events.at(-1)?.n ?? 0) + 1;
  const next = [...events, { ...event, n, at }];
  return next.length > MAX_APP_EVENTS ? next.slice(next.length - MAX_APP_EVENTS) : next;
}

/**
 * Who asks, as the input dialog names it (the spec wants the requester shown): the server's endpoint without its
 * query or fragment (a token there must not reach the screen), or a stdio server's name.
 */
export function serverLabel(url: string): string {
  if (url.startsWith("stdio:") || url.startsWith("builtin:")) return url;
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "the server";
  }
}
