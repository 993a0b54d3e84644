import { logSettings, shouldLog, type LogFields, type LogLevel } from "@/lib/log/format.mjs";
import { writeLog } from "@/lib/log/safe-write.mjs";

/** The request id scripts/server.mjs gives every request (also returned to the client in this response header). */
export const REQUEST_ID_HEADER = "x-request-id";

let settings: ReturnType<typeof logSettings> | undefined;

function current() {
  try {
    return (settings ??= logSettings(process.env));
  } catch {
    // A bad log setting is reported by config(); logging itself must never throw.
    return { level: "info" as const, format: "text" as const };
  }
}

function write(level: LogLevel, msg: string, fields?: LogFields): void {
  const { level: min, format } = current();
  // The guarded writer scripts/server.mjs uses too: a broken stdout or stderr degrades logging, never the process.
  if (shouldLog(level, min)) writeLog(level, msg, fields, format);
}

/** The app's log: one line per event, JSON (hosted) or text (local); fields must be safe to keep (no secrets). */
export const log = {
  debug: (msg: string, fields?: LogFields) => write("debug", msg, fields),
  info: (msg: string, fields?: LogFields) => write("info", msg, fields),
  warn: (msg: string, fields?: LogFields) => write("warn", msg, fields),
  error: (msg: string, fields?: LogFields) => write("error", msg, fields),
};
