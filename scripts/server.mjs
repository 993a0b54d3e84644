// Toolscope's HTTP server: Next.js's request handler behind a plain node:http server. It hands the app what Next.js
// route handlers never see — the socket's peer address (rate limits) and a request id — writes one log line per
// request, and shuts down gracefully. Used by `npm start` and the e2e suite. HOST and PORT choose the address.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import next from "next";
import { formatLogLine, logSettings, shouldLog } from "../lib/log/format.mjs";

/** Must match PEER_HEADER in lib/server/client-identity.ts and REQUEST_ID_HEADER in lib/server/log.ts. */
const PEER_HEADER = "x-toolscope-peer";
const REQUEST_ID_HEADER = "x-request-id";
/** The app names the upstream host a request reached (for this log line); it is not sent to the client. */
const UPSTREAM_HEADER = "x-toolscope-upstream-host";
/** Must match SHUTDOWN_EVENT in lib/server/lifecycle.ts. */
const SHUTDOWN_EVENT = "toolscope:shutdown";

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
function log(level, msg, fields) {
  if (!shouldLog(level, logs.level)) return;
  (level === "warn" || level === "error" ? process.stderr : process.stdout).write(`${formatLogLine(level, msg, fields, logs.format)}\n`);
}

if (mode === "hosted" && !process.env.TOOLSCOPE_PUBLIC_URL?.trim()) {
  log(
    "error",
    "TOOLSCOPE_PUBLIC_URL is required in hosted mode: set it to the origin people reach Toolscope at, such as https://toolscope.example.com.",
  );
  process.exit(1);
}
const graceMs = Number(process.env.TOOLSCOPE_SHUTDOWN_GRACE_MS ?? "10000");

const app = next({ dev: false, hostname: host, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

let inFlight = 0;
let stopping = false;

const server = createServer((req, res) => {
  const started = performance.now();
  const id = randomUUID();
  // Whatever a client sent under these names is replaced: only the socket says who is connected.
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown-peer";
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  if (stopping) res.setHeader("connection", "close");
  inFlight++;
  // A header the app sets for this log line only: taken off before the response head is written.
  const writeHead = res.writeHead;
  let upstreamHost;
  res.writeHead = function (...args) {
    upstreamHost = res.getHeader(UPSTREAM_HEADER);
    res.removeHeader(UPSTREAM_HEADER);
    return writeHead.apply(this, args);
  };
  res.on("close", () => {
    inFlight--;
    const path = (req.url ?? "/").split("?")[0];
    // Static files are not worth a line each; failures always are.
    if (path.startsWith("/_next/static/") && res.statusCode < 400) return;
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
  handle(req, res).catch((err) => {
    log("error", "unhandled request error", { requestId: id, error: err?.message });
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal error");
  });
});
server.listen(port, host, () => {
  const shown = host.includes(":") ? `[${host}]` : host;
  log("info", `ready on http://${shown === "127.0.0.1" ? "localhost" : shown}:${port} (${mode} mode)`);
});

/**
 * SIGTERM/SIGINT: stop accepting connections, tell the app (open streams end with an event the browser
 * understands, readiness turns false, new requests on kept-alive connections get 503), let in-flight requests
 * finish for up to TOOLSCOPE_SHUTDOWN_GRACE_MS, then exit 0; stdio children are ended on exit.
 */
function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  log("info", `${signal}: shutting down`, { inFlight, graceMs });
  server.close();
  process.emit(SHUTDOWN_EVENT);
  server.closeIdleConnections?.();
  const deadline = Date.now() + graceMs;
  const timer = setInterval(() => {
    server.closeIdleConnections?.();
    if (inFlight > 0 && Date.now() < deadline) return;
    clearInterval(timer);
    if (inFlight > 0) log("warn", "grace period over: closing the remaining connections", { inFlight });
    server.closeAllConnections?.();
    void closeResources().then(() => {
      log("info", "stopped");
      process.exit(0);
    });
  }, 50);
}
/** Must match STOP_HOOKS in lib/server/lifecycle.ts: database pools and Redis connections the app opened. */
const STOP_HOOKS = Symbol.for("toolscope.stopHooks");
const CLOSE_TIMEOUT_MS = 2_000;

/** Close what the app registered (pools, connections), for at most CLOSE_TIMEOUT_MS. */
async function closeResources() {
  const hooks = [...(globalThis[STOP_HOOKS] ?? [])];
  await Promise.race([Promise.allSettled(hooks.map((fn) => fn())), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
}

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => shutdown(signal));
