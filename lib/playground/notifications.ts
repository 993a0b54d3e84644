import { META_LOG_LEVEL } from "../mcp/meta.ts";
import { isObject } from "../json/guards.ts";

/** What the notifications of one request say, for the progress bar and the log list. */
export interface ProgressState {
  progress: number;
  total?: number;
  message?: string;
}

export interface LogLine {
  level: string;
  logger?: string;
  text: string;
}

/** The latest `notifications/progress` (progress must increase, so the last one is the furthest). */
export function latestProgress(notifications: readonly Record<string, unknown>[]): ProgressState | undefined {
  let out: ProgressState | undefined;
  for (const n of notifications) {
    if (n.method !== "notifications/progress" || !isObject(n.params) || typeof n.params.progress !== "number") continue;
    out = {
      progress: n.params.progress,
      ...(typeof n.params.total === "number" ? { total: n.params.total } : {}),
      ...(typeof n.params.message === "string" ? { message: n.params.message } : {}),
    };
  }
  return out;
}

/** The `notifications/message` log lines, in arrival order; non-string data is shown as JSON. */
export function logLines(notifications: readonly Record<string, unknown>[]): LogLine[] {
  return notifications
    .filter((n) => n.method === "notifications/message" && isObject(n.params))
    .map((n) => {
      const p = n.params as Record<string, unknown>;
      return {
        level: typeof p.level === "string" ? p.level : "info",
        ...(typeof p.logger === "string" ? { logger: p.logger } : {}),
        text: typeof p.data === "string" ? p.data : JSON.stringify(p.data),
      };
    });
}

/** Progress as a fraction 0–1 when a total is known. */
export function progressFraction(p: ProgressState): number | undefined {
  if (p.total === undefined || !(p.total > 0)) return undefined;
  return Math.min(1, Math.max(0, p.progress / p.total));
}

/** Raw JSON longer than this is cut in the JSON tab, with "show all" and a download. */
export const MAX_RAW_JSON_CHARS = 200_000;

/** The text to show: all of it, or its first `max` characters and how many were cut. */
export function truncateText(text: string, max = MAX_RAW_JSON_CHARS): { shown: string; cut: number } {
  return text.length <= max ? { shown: text, cut: 0 } : { shown: text.slice(0, max), cut: text.length - max };
}

/** Per-request log levels (server/utilities/logging.mdx), least to most severe; "off" asks for none. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevelChoice = "off" | (typeof LOG_LEVELS)[number];

/** What the playground added to a message, as the proxy reports its own additions. */
export interface MetaAddition {
  where: "body";
  name: string;
  value: unknown;
}

/**
 * The message with what the playground asks for, when the user did not write it: on a tools/call,
 * `_meta.progressToken` (so `notifications/progress` come back); on any modern request, the log level the user
 * picked as `_meta`'s `io.modelcontextprotocol/logLevel` (off by default: servers then send no
 * `notifications/message`). Anything written wins.
 */
export function withPlaygroundMeta(
  message: Record<string, unknown>,
  era: "modern" | "legacy",
  logLevel: LogLevelChoice = "off",
): { message: Record<string, unknown>; added: MetaAddition[] } {
  const method = message.method;
  if (typeof method !== "string" || method.startsWith("notifications/") || (message.params !== undefined && !isObject(message.params)))
    return { message, added: [] };
  const params = isObject(message.params) ? message.params : {};
  const meta: Record<string, unknown> = isObject(params._meta) ? { ...params._meta } : {};
  const added: MetaAddition[] = [];
  if (method === "tools/call" && !("progressToken" in meta)) {
    meta.progressToken = `toolscope-${String(message.id ?? "call")}`;
    added.push({ where: "body", name: "/params/_meta/progressToken", value: meta.progressToken });
  }
  if (era === "modern" && logLevel !== "off" && !(META_LOG_LEVEL in meta)) {
    meta[META_LOG_LEVEL] = logLevel;
    added.push({ where: "body", name: "/params/_meta/io.modelcontextprotocol~1logLevel", value: logLevel });
  }
  if (added.length === 0) return { message, added };
  return { message: { ...message, params: { ...params, _meta: meta } }, added };
}
