// The render gate of Toolscope's HTTP server (scripts/server.mjs): page renders enter the app a few at a time.
//
// A page render is CPU work in long slices (React renders a page's whole tree, then streams it). Node takes every
// request at once, so under 120 docs views the event loop holds 120 renders' slices between two looks at its
// sockets: measured on the demo's docs page (issue 28), a liveness probe answered by scripts/server.mjs itself waited
// up to 7.8 s and /api/rpc calls 745 ms at the median, for no more pages a second. Rendering more pages at once than
// there are cores renders none of them sooner, so the others wait here, first come first served, holding no CPU and
// no memory beyond their socket, while API calls, probes and static files pass beside them.
//
// A render waiting on I/O (a live server's docs load, a stored snapshot) holds no CPU: a render counts against the
// gate for its first TOOLSCOPE_RENDER_SLOT_MS only, so a slow upstream server can delay other pages by that much at
// most, never hold the gate. The queue is bounded by count and by time; past either, a page is answered 503
// `unavailable` with Retry-After at once.
// Plain Node, tested against a real node:http server (render-gate.test.ts) without a build.
import { availableParallelism } from "node:os";
import { int } from "./settings.mjs";

const SETTINGS = {
  maxRenders: ["TOOLSCOPE_MAX_CONCURRENT_RENDERS", Math.max(4, 2 * availableParallelism()), 0, 10_000],
  slotMs: ["TOOLSCOPE_RENDER_SLOT_MS", 250, 10, 600_000],
  maxQueued: ["TOOLSCOPE_MAX_QUEUED_RENDERS", 1_000, 0, 1_000_000],
  queueTimeoutMs: ["TOOLSCOPE_RENDER_QUEUE_TIMEOUT_MS", 15_000, 100, 600_000],
};
/** What a refused page is told: the queue it met drains within about this long. */
export const RENDER_RETRY_AFTER_SECONDS = 2;
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/** The settings from the environment; throws naming the variable on an invalid value. 0 renders turns the gate off. */
export function renderGateSettings(env) {
  return Object.fromEntries(Object.entries(SETTINGS).map(([key, spec]) => [key, int(env, spec)]));
}

/** Files served at the root (app/icon.svg and the like): read, not rendered. Not any dot: tool names hold dots. */
const STATIC_FILE = /\.(?:svg|ico|png|txt|xml|webmanifest)$/i;

/** Whether a request is a page render: a GET or HEAD outside /api/ and /_next/ that is not a static file. */
export function isRender(method, path) {
  if (method !== "GET" && method !== "HEAD") return false;
  if (path.startsWith("/api/") || path.startsWith("/_next/")) return false;
  return !STATIC_FILE.test(path);
}

/**
 * `enter(req, res, path, go)` calls `go()` now, or later when a render slot frees up, or never (the request is
 * answered 503 here, or its client left while it waited). A slot is given back when the response is finished or
 * closed, or when the render has held it for `slotMs`, whichever comes first.
 */
export function createRenderGate(s, { now = () => performance.now(), log = () => {} } = {}) {
  let active = 0;
  /** Waiting renders in arrival order; a Set keeps that order and drops a departed one in O(1). */
  const queue = new Set();
  const counts = { rendered: 0, queued: 0, refused: 0, lent: 0 };

  function start(go, res) {
    active++;
    counts.rendered++;
    let held = true;
    const giveBack = () => {
      if (!held) return;
      held = false;
      clearTimeout(lend);
      active--;
      next();
    };
    // Past slotMs the render is waiting on I/O (or is one huge page): it stops counting, the next one starts.
    const lend = setTimeout(() => {
      if (held) counts.lent++;
      giveBack();
    }, s.slotMs);
    lend.unref();
    // Once the whole page is handed to the socket the render is done: a client reading it slowly holds no slot.
    res.once("finish", giveBack);
    res.once("close", giveBack);
    go();
  }

  function next() {
    while (active < s.maxRenders && queue.size > 0) {
      const waiter = queue.values().next().value;
      queue.delete(waiter);
      clearTimeout(waiter.timer);
      waiter.res.off("close", waiter.left);
      start(waiter.go, waiter.res);
    }
  }

  let lastLog = -Infinity;
  let refusedSinceLog = 0;

  function refuse(res, message, hint) {
    counts.refused++;
    refusedSinceLog++;
    // One line per interval, not one per refusal (scripts/server.mjs skips the request lines of refused pages).
    res.shed = true;
    if (now() - lastLog >= REFUSAL_LOG_INTERVAL_MS) {
      log("warn", "render queue refusing pages", { refused: refusedSinceLog, renders: active, renderQueue: queue.size });
      lastLog = now();
      refusedSinceLog = 0;
    }
    const body = JSON.stringify({ error: { kind: "unavailable", message, hint } });
    res.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
      "retry-after": String(RENDER_RETRY_AFTER_SECONDS),
    });
    res.end(body);
  }

  return {
    enter(req, res, path, go) {
      if (s.maxRenders === 0 || !isRender(req.method, path)) return go();
      if (active < s.maxRenders && queue.size === 0) return start(go, res);
      if (queue.size >= s.maxQueued)
        return refuse(
          res,
          `This Toolscope instance has ${queue.size} pages waiting to be rendered, the most it keeps (TOOLSCOPE_MAX_QUEUED_RENDERS).`,
          `Load the page again in ${RENDER_RETRY_AFTER_SECONDS} s. An operator can run more instances or raise TOOLSCOPE_MAX_QUEUED_RENDERS.`,
        );
      counts.queued++;
      const waiter = { go, res, since: now(), timer: undefined, left: undefined };
      // The client went away while waiting: nothing to render for it.
      waiter.left = () => {
        queue.delete(waiter);
        clearTimeout(waiter.timer);
      };
      waiter.timer = setTimeout(() => {
        queue.delete(waiter);
        res.off("close", waiter.left);
        refuse(
          res,
          `This page waited ${s.queueTimeoutMs} ms for its turn to be rendered (TOOLSCOPE_RENDER_QUEUE_TIMEOUT_MS): the instance is rendering more pages than it keeps up with.`,
          `Load the page again in ${RENDER_RETRY_AFTER_SECONDS} s. An operator can run more instances.`,
        );
      }, s.queueTimeoutMs);
      waiter.timer.unref();
      res.once("close", waiter.left);
      queue.add(waiter);
    },
    /** How long the page at the head of the queue has waited, in ms (0 with none waiting). */
    oldestWaitMs() {
      const head = queue.values().next().value;
      return head ? now() - head.since : 0;
    },
    stats: () => ({ renders: active, renderQueue: queue.size, ...counts }),
  };
}
