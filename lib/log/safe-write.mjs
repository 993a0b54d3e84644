// The one writer of Toolscope's log lines, shared by the HTTP server (scripts/server.mjs) and the app
// (lib/log/log.ts) in the same process. A stdout or stderr whose reader has gone (a pipe closed: EPIPE) must not
// take the process down: unguarded, every write fails, the failure is an uncaught exception, Next.js's handler writes
// it to stderr, which fails again — a loop at 100% CPU that starves the timers a graceful shutdown needs. Here a
// broken stream is detected once (its 'error' event or a failed write), never written to again, and its lines go to
// the other stream; when both are broken, lines are dropped and counted.
import { formatLogLine } from "./format.mjs";

/** Shared across module graphs: Next.js bundles its own copy of this file beside the one scripts/server.mjs loads. */
const STATE = Symbol.for("toolscope.logWriter");
const STREAMS = ["stdout", "stderr"];

/**
 * @typedef {{ broken: Record<string, string | undefined>, attempts: number, dropped: number, format: "json" | "text" }} WriterState
 * @returns {WriterState}
 */
function state() {
  const g = /** @type {Record<symbol, WriterState | undefined>} */ (globalThis);
  let s = g[STATE];
  if (s) return s;
  s = g[STATE] = { broken: {}, attempts: 0, dropped: 0, format: "text" };
  const installed = s;
  for (const name of STREAMS) process[name].on("error", (err) => markBroken(installed, name, err));
  return s;
}

/**
 * From now on `name` is not written: its own write is replaced by one that drops (and counts) what anyone writes,
 * console.* and libraries included, so nothing reaches the broken file descriptor or raises another error.
 */
function markBroken(s, name, err) {
  if (s.broken[name]) return;
  s.broken[name] = err?.code ?? "error";
  const stream = process[name];
  stream.write = function dropped(_chunk, encoding, cb) {
    s.dropped++;
    const done = typeof encoding === "function" ? encoding : cb;
    if (typeof done === "function") process.nextTick(done);
    return true;
  };
  const other = name === "stdout" ? "stderr" : "stdout";
  if (!s.broken[other]) {
    tryWrite(
      s,
      other,
      `${formatLogLine("warn", `${name} is broken (${s.broken[name]}): its log lines go to ${other} from now on`, undefined, s.format)}\n`,
    );
  }
}

/** One write that cannot throw; a failure marks the stream broken (the 'error' event may come later, or never). */
function tryWrite(s, name, text) {
  s.attempts++;
  try {
    process[name].write(text, (err) => {
      if (err) markBroken(s, name, err);
    });
    return true;
  } catch (err) {
    markBroken(s, name, err);
    return false;
  }
}

/**
 * Write one log line: warn and error to stderr, the rest to stdout; to the other one when that is broken; dropped
 * (and counted) when both are. Never throws.
 */
export function writeLog(level, msg, fields, format) {
  const s = state();
  s.format = format;
  const first = level === "warn" || level === "error" ? "stderr" : "stdout";
  const name = s.broken[first] ? (first === "stdout" ? "stderr" : "stdout") : first;
  if (s.broken[name]) {
    s.dropped++;
    return;
  }
  let line;
  try {
    line = formatLogLine(level, msg, fields, format);
  } catch {
    // A field that cannot be serialised (a cycle) must not cost the line.
    line = formatLogLine(level, msg, { fields: "unserialisable" }, format);
  }
  tryWrite(s, name, `${line}\n`);
}

/** What the writer did: lines written or tried, lines dropped, and the streams found broken (with their error code). */
export function logWriteStats() {
  const s = state();
  return { attempts: s.attempts, dropped: s.dropped, broken: { ...s.broken } };
}

// Guard the streams as soon as the process loads a logger, before any line is written by anyone.
state();
