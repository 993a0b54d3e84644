import { processSingleton } from "./process-singleton.ts";

/**
 * The process's life: scripts/server.mjs emits this event on SIGTERM/SIGINT (or when its supervisor is gone) as it
 * starts to drain, so open streams can end with an event the browser understands and readiness turns false while
 * accepted requests finish. Requests arriving after it are answered 503 by scripts/http-limits.mjs before the app.
 */
export const SHUTDOWN_EVENT = "toolscope:shutdown";

interface Lifecycle {
  shuttingDown: boolean;
  listeners: Set<() => void>;
}

function lifecycle(): Lifecycle {
  return processSingleton("lifecycle", () => {
    const state: Lifecycle = { shuttingDown: false, listeners: new Set() };
    process.once(SHUTDOWN_EVENT, () => {
      state.shuttingDown = true;
      for (const fn of [...state.listeners]) {
        try {
          fn();
        } catch {
          // one stream failing to end must not keep the others open
        }
      }
      state.listeners.clear();
    });
    return state;
  });
}

/** True once the server has been told to stop. */
export function isShuttingDown(): boolean {
  return lifecycle().shuttingDown;
}

/** Run `fn` when shutdown starts (at once if it already has); the result unregisters it. */
export function onShutdown(fn: () => void): () => void {
  const state = lifecycle();
  if (state.shuttingDown) {
    fn();
    return () => {};
  }
  state.listeners.add(fn);
  return () => state.listeners.delete(fn);
}

/** Where scripts/server.mjs finds what to close once requests have drained (shared across module graphs). */
const STOP_HOOKS = Symbol.for("toolscope.stopHooks");

/**
 * Close `fn`'s resource (a database pool, a Redis connection) when the server stops, after in-flight requests
 * have finished. scripts/server.mjs awaits these (for a bounded time) before it exits.
 */
export function onStop(fn: () => Promise<void>): void {
  const g = globalThis as unknown as Record<symbol, Set<() => Promise<void>> | undefined>;
  (g[STOP_HOOKS] ??= new Set()).add(fn);
}
