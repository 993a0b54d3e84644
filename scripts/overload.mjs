// Load shedding of Toolscope's HTTP server (scripts/server.mjs). Under more work than its cores can do, a Node server
// does not refuse anything: every request waits its turn on the event loop, so all of them get slow together, the
// connections opened last get nothing within a client's patience, and a liveness probe waits behind the load it is
// meant to see through (issue 25: 200 connections, /api/tools and docs answered 0 of 160, probes waited over 10 s).
//
// The signal is the event loop's own delay, not a count: 50 calls waiting on a slow upstream server hold no CPU and
// must all be answered, while 50 docs renders at once saturate a core. When the delay stays above
// TOOLSCOPE_SHED_LOOP_DELAY_MS while at least TOOLSCOPE_SHED_MIN_INFLIGHT requests are in the app, a new request is
// answered 503 `unavailable` with Retry-After at once, for almost no CPU, so the work already admitted finishes
// and the answers come back within bounds. TOOLSCOPE_MAX_INFLIGHT_REQUESTS caps requests in the app whatever the delay.
//
// The delay alone comes too late for a burst: 200 connections arriving together are all admitted before the loop
// has run a single sample, and then every one of them is slow. So with shedding on, the in-flight cap also adapts
// (additive-increase/multiplicative-decrease, as TCP's window does): it starts at TOOLSCOPE_SHED_START_INFLIGHT,
// doubles while the loop is calm and the cap is nearly used (callers waiting on I/O, or held event streams, hold no
// CPU and quickly earn room), and shrinks by a quarter each time the loop falls behind, never below
// TOOLSCOPE_SHED_MIN_INFLIGHT nor above TOOLSCOPE_MAX_INFLIGHT_REQUESTS.
// Plain Node, tested against a real node:http server (overload.test.ts) without a build.
import { int } from "./settings.mjs";

const SETTINGS = {
  loopDelayMs: ["TOOLSCOPE_SHED_LOOP_DELAY_MS", 200, 0, 60_000],
  minInflight: ["TOOLSCOPE_SHED_MIN_INFLIGHT", 16, 1, 1_000_000],
  maxInflight: ["TOOLSCOPE_MAX_INFLIGHT_REQUESTS", 1_000, 1, 1_000_000],
  startInflight: ["TOOLSCOPE_SHED_START_INFLIGHT", 64, 1, 1_000_000],
};
/** How often the loop's delay is sampled. */
const SAMPLE_MS = 25;
/** Weight of the newest sample in the running delay: a few samples of calm end the shedding. */
const SMOOTHING = 0.3;
/** What a shed caller is told: the queue it would have joined drains within about this long. */
export const SHED_RETRY_AFTER_SECONDS = 1;
const SHED_LOG_INTERVAL_MS = 10_000;
/** The adaptive cap grows when at least this share of it is in use and the loop is calm. */
const GROW_WHEN_USED = 0.75;
/** Each fall behind keeps this share of the cap; at most one cut per interval, so one slow stretch is one cut. */
const CUT_TO = 0.75;
const CUT_INTERVAL_MS = 100;

/** The next adaptive cap from the last: pure, so its rule is tested apart from any clock (overload.test.ts). */
export function nextLimit(limit, { inflight, delay, canCut }, s) {
  if (delay > s.loopDelayMs) return canCut ? Math.max(s.minInflight, Math.floor(limit * CUT_TO)) : limit;
  if (delay < s.loopDelayMs / 2 && inflight >= limit * GROW_WHEN_USED) return Math.min(s.maxInflight, limit * 2);
  return limit;
}

/**
 * The settings from the environment; throws naming the variable on an invalid value. Shedding by delay is on by
 * default in hosted mode only: one person's heavy docs page must not make their own next request a 503 locally.
 */
export function overloadSettings(env) {
  const s = Object.fromEntries(Object.entries(SETTINGS).map(([key, spec]) => [key, int(env, spec)]));
  const hosted = (env.TOOLSCOPE_MODE ?? "local").trim().toLowerCase() === "hosted";
  if (!env.TOOLSCOPE_SHED_LOOP_DELAY_MS && !hosted) s.loopDelayMs = 0;
  return s;
}

/**
 * Paths never shed: probes (a probe must see the instance as it is), static files (cheap, and pages need them), and
 * the built-in demo's MCP endpoint: the proxy reaches it over HTTP on this same server, so its requests are the inner
 * half of work already admitted, and shedding them would waste that work and fail the caller after all.
 */
function exempt(path) {
  return path === "/api/health" || path.startsWith("/_next/static/") || path === "/api/demo/mcp";
}

/**
 * Counts requests in the app and samples the loop's delay; `admit(req, res, path)` answers a shed request itself
 * and returns false, or counts the request until its response closes and returns true.
 */
export function createOverloadGuard(s, { now = () => performance.now(), log = () => {}, queued = () => 0 } = {}) {
  let inflight = 0;
  let lastLog = -Infinity;
  let shedSinceLog = 0;
  let delay = 0;
  let shed = 0;
  const adaptive = s.loopDelayMs > 0;
  let limit = adaptive ? Math.min(s.maxInflight, Math.max(s.minInflight, s.startInflight)) : s.maxInflight;
  let lastCut = -Infinity;
  let expected = now() + SAMPLE_MS;
  const timer = setInterval(() => {
    const t = now();
    // Work waiting in a queue of the server's own (the render gate's oldest page, in ms) is delay as much as the
    // loop's: the gate keeps the loop calm while pages pile up behind it, which would hide the overload from here.
    delay = delay * (1 - SMOOTHING) + Math.max(0, t - expected, queued()) * SMOOTHING;
    expected = t + SAMPLE_MS;
    if (!adaptive) return;
    const next = nextLimit(limit, { inflight, delay, canCut: t - lastCut >= CUT_INTERVAL_MS }, s);
    if (next < limit) lastCut = t;
    limit = next;
  }, SAMPLE_MS);
  timer.unref();

  const overloaded = () => inflight >= limit || (adaptive && inflight >= s.minInflight && delay > s.loopDelayMs);

  function refuse(res) {
    shed++;
    shedSinceLog++;
    // One line per interval, not one per refusal: a line each would add to the load being shed.
    res.shed = true;
    if (now() - lastLog >= SHED_LOG_INTERVAL_MS) {
      log("warn", "shedding load", { shed: shedSinceLog, inflight, limit, loopDelayMs: Math.round(delay) });
      lastLog = now();
      shedSinceLog = 0;
    }
    const byCount = inflight >= limit;
    const atMax = limit >= s.maxInflight;
    const body = JSON.stringify({
      error: {
        kind: "unavailable",
        message: byCount
          ? atMax
            ? `This Toolscope instance is working on ${inflight} requests, the most it takes at once (TOOLSCOPE_MAX_INFLIGHT_REQUESTS).`
            : `This Toolscope instance is working on ${inflight} requests, as many as its cores keep up with now (an adaptive cap, between TOOLSCOPE_SHED_MIN_INFLIGHT and TOOLSCOPE_MAX_INFLIGHT_REQUESTS, that shrinks while the event loop is more than TOOLSCOPE_SHED_LOOP_DELAY_MS = ${s.loopDelayMs} ms behind).`
          : `This Toolscope instance is busier than it can answer promptly: its event loop is ${Math.round(delay)} ms behind (TOOLSCOPE_SHED_LOOP_DELAY_MS is ${s.loopDelayMs}).`,
        hint: `Send the request again in ${SHED_RETRY_AFTER_SECONDS} s. An operator can run more instances, or raise ${byCount && atMax ? "TOOLSCOPE_MAX_INFLIGHT_REQUESTS" : "TOOLSCOPE_SHED_LOOP_DELAY_MS"}.`,
      },
    });
    res.writeHead(503, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "cache-control": "no-store",
      "retry-after": String(SHED_RETRY_AFTER_SECONDS),
    });
    res.end(body);
  }

  return {
    admit(req, res, path) {
      if (exempt(path)) return true;
      if (overloaded()) {
        refuse(res);
        return false;
      }
      inflight++;
      res.once("close", () => inflight--);
      return true;
    },
    stats: () => ({ inflight, limit, loopDelayMs: Math.round(delay), shed }),
    stop: () => clearInterval(timer),
  };
}
