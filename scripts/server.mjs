// Toolscope's HTTP server: Next.js's request handler behind a plain node:http server. It hands the app what Next.js
// route handlers never see — the socket's peer address (rate limits) and a request id — writes one log line per
// request, bounds slow and idle clients (http-limits.mjs), answers liveness probes itself, and shuts down gracefully.
// Used by `npm start` (under scripts/start.mjs) and the e2e suite. HOST and PORT choose the address.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import next from "next";
import { logSettings, shouldLog } from "../lib/log/format.mjs";
import { logWriteStats, writeLog } from "../lib/log/safe-write.mjs";
import { bodyReadTimeoutMs, watchBody } from "./body-deadline.mjs";
import { healthListenerSettings, startHealthListener } from "./health-listener.mjs";
import { applyConnectionLimits, httpLimitSettings, serverOptions } from "./http-limits.mjs";
import { listenAll, listenerCount } from "./listeners.mjs";
import { createOverloadGuard, overloadSettings } from "./overload.mjs";
import { createRenderGate, renderGateSettings } from "./render-gate.mjs";
import { onSupervisorGone } from "./supervise.mjs";

/** Must match PEER_HEADER in lib/server/limits/client-identity.ts and REQUEST_ID_HEADER in lib/log/log.ts. */
const PEER_HEADER = "x-toolscope-peer";
const REQUEST_ID_HEADER = "x-request-id";
/** The app names the upstream host a request reached (for this log line); it is not sent to the client. */
const UPSTREAM_HEADER = "x-toolscope-upstream-host";
/** Must match SHUTDOWN_EVENT in lib/runtime/lifecycle.ts. */
const SHUTDOWN_EVENT = "toolscope:shutdown";
/** app/api/health/route.ts: liveness is GET /api/health without `ready`; readiness (with it) is the app's. */
const HEALTH_PATH = "/api/health";
const LIVENESS_BODY = JSON.stringify({ status: "ok" });

const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? "3000");
const mode = (process.env.TOOLSCOPE_MODE ?? "local").toLowerCase();

let logs;
try {
  logs = logSettings(process.env);
} catch (err) {
  console.error(`[toolscope] ${err.message}`);
  process.exit(1);
}
/** Through the writer the app's log uses too (lib/log/safe-write.mjs): a lost log reader cannot stall the process. */
function log(level, msg, fields) {
  if (shouldLog(level, logs.level)) writeLog(level, msg, fields, logs.format);
}

if (mode === "hosted" && !process.env.TOOLSCOPE_PUBLIC_URL?.trim()) {
  log(
    "error",
    "TOOLSCOPE_PUBLIC_URL is required in hosted mode: set it to the origin people reach Toolscope at, such as https://toolscope.example.com.",
  );
  process.exit(1);
}
const graceMs = Number(process.env.TOOLSCOPE_SHUTDOWN_GRACE_MS ?? "10000");
let bodyTimeoutMs;
let limitSettings;
let overload;
let renders;
let healthSettings;
let listenerSockets;
try {
  healthSettings = healthListenerSettings(process.env);
  listenerSockets = listenerCount(process.env);
  bodyTimeoutMs = bodyReadTimeoutMs(process.env);
  limitSettings = httpLimitSettings(process.env);
  renders = createRenderGate(renderGateSettings(process.env), { log: (level, msg, fields) => log(level, msg, fields) });
  overload = createOverloadGuard(overloadSettings(process.env), {
    log: (level, msg, fields) => log(level, msg, fields),
    queued: () => renders.oldestWaitMs(),
  });
} catch (err) {
  log("error", err.message);
  process.exit(1);
}

const app = next({ dev: false, hostname: host, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

let stopping = false;

/**
 * Liveness, answered here with what the route answers (200 `{"status":"ok"}`, no work): a probe does not wait for
 * the app's routing, proxy step and route handler behind the load it is meant to see through.
 */
function answerLiveness(req, res) {
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(LIVENESS_BODY),
    "cache-control": "no-store",
  });
  res.end(req.method === "HEAD" ? undefined : LIVENESS_BODY);
}

const server = createServer(serverOptions(limitSettings), (req, res) => {
  const started = performance.now();
  const id = randomUUID();
  // Whatever a client sent under these names is replaced: only the socket says who is connected.
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown-peer";
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  // A header the app sets for this log line only: taken off before the response head is written.
  const writeHead = res.writeHead;
  let upstreamHost;
  res.writeHead = function (...args) {
    upstreamHost = res.getHeader(UPSTREAM_HEADER);
    res.removeHeader(UPSTREAM_HEADER);
    return writeHead.apply(this, args);
  };
  res.on("close", () => {
    // Static files are not worth a line each; failures always are. Shed requests are counted in one line a while.
    if ((path.startsWith("/_next/static/") && res.statusCode < 400) || res.shed) return;
    log(res.statusCode >= 500 ? "error" : "info", "request", {
      requestId: id,
      method: req.method,
      route: path.slice(0, 200),
      status: res.statusCode,
      durationMs: Math.round(performance.now() - started),
      upstreamHost,
      client: req.socket.remoteAddress,
      aborted: res.writableFinished ? undefined : true,
    });
  });
  // An aborted request body must not become an uncaught error.
  req.on("error", () => {});
  // Over a client's connection cap, or shutting down: answered 503 here. Health checks are answered while draining.
  if (!limits.admit(req, res, { always: path === HEALTH_PATH })) return;
  if (
    path === HEALTH_PATH &&
    (req.method === "GET" || req.method === "HEAD") &&
    !new URLSearchParams(q < 0 ? "" : url.slice(q + 1)).has("ready")
  )
    return answerLiveness(req, res);
  // More work than the cores can do: a new request is answered 503 at once, so the admitted ones finish in time.
  if (!overload.admit(req, res, path)) return;
  // Next.js waits for the whole body before any route or the guard's answer: a stalled one is cut here (408).
  const body = watchBody(req, res, bodyTimeoutMs);
  // Pages are rendered a few at a time (render-gate.mjs); API calls, probes and static files go straight in.
  renders.enter(req, res, path, () =>
    handle(req, res).catch((err) => {
      if (body.wasCut()) return;
      log("error", "unhandled request error", { requestId: id, error: err?.message });
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal error");
    }),
  );
});
/** The listening sockets (listeners.mjs), once open; the shutdown stops them all. */
let listeners;
const limits = applyConnectionLimits(server, limitSettings, { log, stopListening: () => listeners?.close() });
/** Probes on a port of their own, answered ahead of the load (health-listener.mjs); before the app's port opens. */
let healthPort;
try {
  healthPort = await startHealthListener(healthSettings, { host, stats: () => overload.stats() });
} catch (err) {
  log("error", `the health port could not be opened: ${err.message}`);
  process.exit(1);
}
try {
  listeners = await listenAll(server, { port, host, count: listenerSockets });
} catch (err) {
  log("error", `could not listen on ${host}:${port}: ${err.message}`);
  process.exit(1);
}
{
  const shown = host.includes(":") ? `[${host}]` : host;
  const probes = healthPort.port ? `; health probes on port ${healthPort.port}` : "";
  log("info", `ready on http://${shown === "127.0.0.1" ? "localhost" : shown}:${port} (${mode} mode${probes})`);
}

/**
 * SIGTERM/SIGINT, or the supervisor (scripts/start.mjs) gone: tell the app (open streams end with an event the
 * browser understands, readiness turns false), let accepted requests finish for up to TOOLSCOPE_SHUTDOWN_GRACE_MS
 * while later ones get 503 with Retry-After (http-limits.mjs drain), close the app's pools, then exit 0; stdio
 * children are ended on exit. The process exits within the grace period and CLOSE_TIMEOUT_MS whatever happens.
 */
function shutdown(reason) {
  if (stopping) return;
  stopping = true;
  log("info", `${reason}: shutting down`, { ...limits.stats(), ...overload.stats(), ...renders.stats(), graceMs });
  healthPort.draining();
  const drained = limits.drain(graceMs);
  process.emit(SHUTDOWN_EVENT);
  setTimeout(
    () => {
      log("error", "shutdown overran its grace period: exiting now", { graceMs });
      process.exit(1);
    },
    graceMs + CLOSE_TIMEOUT_MS + 1_000,
  ).unref();
  void drained.then(async (left) => {
    if (left > 0) log("warn", "grace period over: closed the remaining connections", { connections: left });
    await Promise.all([closeResources(), healthPort.stop()]);
    const { dropped } = logWriteStats();
    log("info", "stopped", dropped ? { droppedLogLines: dropped } : undefined);
    process.exit(0);
  });
}
/** Must match STOP_HOOKS in lib/runtime/lifecycle.ts: database pools and Redis connections the app opened. */
const STOP_HOOKS = Symbol.for("toolscope.stopHooks");
const CLOSE_TIMEOUT_MS = 2_000;

/** Close what the app registered (pools, connections), for at most CLOSE_TIMEOUT_MS. */
async function closeResources() {
  const hooks = [...(globalThis[STOP_HOOKS] ?? [])];
  await Promise.race([Promise.allSettled(hooks.map((fn) => fn())), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => shutdown(signal));
onSupervisorGone(() => shutdown("supervisor gone"));
