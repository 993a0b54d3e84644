// Health probes on a port of their own, answered by a worker thread (TOOLSCOPE_HEALTH_PORT). Node takes at most one
// new connection from the listening socket per turn of its event loop, and a loaded instance's turn lasts as long as
// the work it runs (issue 25: a probe opened beside a burst of 200 connections waited 6–21 s in the accept queue,
// whatever the app did to answer it fast). A worker thread has an event loop of its own that runs no requests, so
// its port takes a probe's connection at once. It answers from what the main thread publishes into shared memory
// every HEARTBEAT_MS — the time of its last turn, whether it is draining, its loop delay and requests in flight — so
// the answer is about the instance and not the worker: a main loop that has not turned for
// TOOLSCOPE_HEALTH_STALL_MS is reported stalled (503), which a supervisor should restart.
// Plain Node, tested against a real worker (health-listener.test.ts) without a build.
import { Worker } from "node:worker_threads";
import { int } from "./settings.mjs";

const SETTINGS = {
  port: ["TOOLSCOPE_HEALTH_PORT", 0, 0, 65_535],
  stallMs: ["TOOLSCOPE_HEALTH_STALL_MS", 30_000, 100, 3_600_000],
};
/** How often the main thread publishes its state. */
const HEARTBEAT_MS = 100;
/** Slots of the shared state (Int32Array). */
export const SLOT = { beat: 0, draining: 1, loopDelayMs: 2, inflight: 3, limit: 4 };

/** The settings from the environment; throws naming the variable on an invalid value. Port 0: no health listener. */
export function healthListenerSettings(env) {
  return Object.fromEntries(Object.entries(SETTINGS).map(([key, spec]) => [key, int(env, spec)]));
}

/**
 * Start the worker listening on `host`:`s.port` (nothing when the port is 0). `stats()` is read each heartbeat (the
 * overload guard's loop delay and requests in flight). Resolves once the port is open, or rejects with the reason
 * (a port in use is a start-up error, not a silent probe failure).
 */
export async function startHealthListener(s, { host = "127.0.0.1", stats = () => ({}) } = {}) {
  if (!s.port) return { port: 0, draining() {}, stop: async () => {} };
  const shared = new Int32Array(new SharedArrayBuffer(4 * Object.keys(SLOT).length));
  // Milliseconds since `epoch`, so they fit an Int32 slot for 24 days between restarts of the clock's base.
  const epoch = Date.now();
  const publish = () => {
    Atomics.store(shared, SLOT.beat, Date.now() - epoch);
    const now = stats();
    Atomics.store(shared, SLOT.loopDelayMs, now.loopDelayMs ?? 0);
    Atomics.store(shared, SLOT.inflight, now.inflight ?? 0);
    Atomics.store(shared, SLOT.limit, now.limit ?? 0);
  };
  publish();
  const heartbeat = setInterval(publish, HEARTBEAT_MS);
  heartbeat.unref();
  const worker = new Worker(new URL("./health-worker.mjs", import.meta.url), {
    workerData: { shared, epoch, host, port: s.port, stallMs: s.stallMs },
  });
  const port = await new Promise((resolve, reject) => {
    worker.once("message", (m) => (m.listening ? resolve(m.port) : reject(new Error(m.error))));
    worker.once("error", reject);
  });
  // The worker never keeps the process alive: the server's shutdown decides when it ends.
  worker.unref();
  return {
    port,
    /** Readiness turns false from now on (the shutdown has begun). */
    draining: () => Atomics.store(shared, SLOT.draining, 1),
    stop: async () => {
      clearInterval(heartbeat);
      await worker.terminate();
    },
  };
}
