// Toolscope's log lines, shared by the HTTP server (scripts/server.mjs, plain Node) and the app (lib/log/log.ts):
// one line per event, JSON for machines (hosted) or short text for people (local). Callers pass only fields that
// are safe to keep: never headers, bodies, tokens or query strings.

/** Levels in order; a line below the configured level is not written. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"];

/**
 * The log settings from the environment: TOOLSCOPE_LOG_LEVEL (info) and TOOLSCOPE_LOG_FORMAT (json in hosted mode,
 * text locally). Throws with the variable's name on an invalid value.
 */
export function logSettings(env) {
  const level = (env.TOOLSCOPE_LOG_LEVEL ?? "").trim().toLowerCase() || "info";
  if (!LOG_LEVELS.includes(level)) throw new Error(`TOOLSCOPE_LOG_LEVEL=${level} is invalid: use one of ${LOG_LEVELS.join(", ")}.`);
  const hosted = (env.TOOLSCOPE_MODE ?? "local").trim().toLowerCase() === "hosted";
  const format = (env.TOOLSCOPE_LOG_FORMAT ?? "").trim().toLowerCase() || (hosted ? "json" : "text");
  if (format !== "json" && format !== "text") throw new Error(`TOOLSCOPE_LOG_FORMAT=${format} is invalid: use json or text.`);
  return { level, format };
}

/** Whether a line at `level` is written when the configured level is `min`. */
export function shouldLog(level, min) {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(min);
}

/** One log line (no trailing newline). Text keeps `msg` first, then `key=value` pairs; values never span lines. */
export function formatLogLine(level, msg, fields, format, now = new Date()) {
  const clean = Object.fromEntries(Object.entries(fields ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== ""));
  if (format === "json") return JSON.stringify({ time: now.toISOString(), level, msg, ...clean });
  const pairs = Object.entries(clean).map(([k, v]) => `${k}=${String(typeof v === "object" ? JSON.stringify(v) : v).replace(/\s+/g, " ")}`);
  return [`${now.toISOString().slice(11, 19)} ${level.toUpperCase().padEnd(5)} ${String(msg).replace(/\s+/g, " ")}`, ...pairs].join(" ");
}
