// `npm start` runs npm → sh -c → scripts/start.mjs → scripts/server.mjs. A SIGTERM to npm (kill, pm2, a plain
// supervisor) ends npm and its sh, but not the node processes under them: they were reparented and kept serving on the
// port. So the supervisor (start.mjs) ends its server when its own parent goes away, and the server ends when its
// supervisor does (the IPC channel between them closes, even on a SIGKILL). Started by hand in a shell, start.mjs
// follows that shell too; `npm run serve` (scripts/server.mjs alone) follows nothing.
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** How often the supervisor looks whether its parent is still there. */
const PARENT_POLL_MS = 500;

/**
 * Run `script` (a Node file) as the one child of this process: signals are passed on (SIGHUP as SIGTERM, so a closed
 * terminal still drains), the child is told to stop when this process's parent goes away, it is killed when it has
 * not stopped `killAfterMs` after being told, and this process exits with the child's status.
 */
export function superviseChild(script, { args = [], env = process.env, killAfterMs = 15_000, pollMs = PARENT_POLL_MS } = {}) {
  // The fourth stdio entry is the IPC channel the child watches (onSupervisorGone); nothing is sent on it.
  const child = spawn(process.execPath, [script, ...args], { stdio: ["inherit", "inherit", "inherit", "ipc"], env });
  let killTimer;
  const stop = (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    killTimer ??= setTimeout(() => child.kill("SIGKILL"), killAfterMs);
  };
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
  process.on("SIGHUP", () => stop("SIGTERM"));
  const parent = process.ppid;
  const watch = setInterval(() => {
    // Reparented (to init or a subreaper): whoever started us is gone, and so is whoever would have stopped us.
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop("SIGTERM");
  }, pollMs);
  // A supervisor restarts on a non-zero status: a crash or a kill of the server must not look like a clean exit.
  child.on("exit", (code, signal) => {
    clearInterval(watch);
    clearTimeout(killTimer);
    process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1));
  });
  return child;
}

/**
 * In a child of superviseChild(): run `onGone` when the supervisor has gone (its IPC channel closed: it exited or
 * was killed). Without a channel (started some other way) this does nothing.
 */
export function onSupervisorGone(onGone) {
  if (!process.channel) return;
  // The channel must not keep the process alive by itself.
  process.channel.unref();
  process.once("disconnect", onGone);
}
