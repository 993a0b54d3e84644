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

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
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

/**
 * The message with a `_meta.progressToken` when it is a tools/call without one, so the server's
 * `notifications/progress` come back for the progress bar. Returns the token it added, if any.
 */
export function withProgressToken(message: Record<string, unknown>): { message: Record<string, unknown>; token?: string } {
  if (message.method !== "tools/call" || !isObject(message.params)) return { message };
  const params = message.params;
  const meta = isObject(params._meta) ? params._meta : {};
  if ("progressToken" in meta) return { message };
  const token = `toolscope-${String(message.id ?? "call")}`;
  return { message: { ...message, params: { ...params, _meta: { ...meta, progressToken: token } } }, token };
}
