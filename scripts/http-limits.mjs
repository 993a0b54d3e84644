// Connection bounds of Toolscope's HTTP server (scripts/server.mjs): how long a client may take to send its request,
// how long an idle kept-alive connection stays open, how many connections may be open in all and from one client,
// and a shutdown that finishes what it accepted and answers late arrivals 503 instead of resetting them. Plain
// Node on a node:http server, so it is tested against a real one (http-limits.test.ts) without a build.
import { Server as NetServer } from "node:net";
import ipaddr from "ipaddr.js";
import { bodyReadTimeoutMs } from "./body-deadline.mjs";
import { int } from "./settings.mjs";

/** The settings, their defaults and bounds; lib/server/platform/config.ts validates them by this same function. */
const SETTINGS = {
  headersTimeoutMs: ["TOOLSCOPE_HEADERS_TIMEOUT_MS", 15_000, 1_000, 600_000],
  keepAliveTimeoutMs: ["TOOLSCOPE_KEEPALIVE_TIMEOUT_MS", 5_000, 100, 600_000],
  maxRequestsPerSocket: ["TOOLSCOPE_MAX_REQUESTS_PER_SOCKET", 1_000, 1, 1_000_000],
  maxConnections: ["TOOLSCOPE_MAX_CONNECTIONS", 2_000, 1, 1_000_000],
  maxConnectionsPerClient: ["TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT", 64, 0, 1_000_000],
};

/** A connection over its client's cap is answered 503 if it sends a request this soon, and is closed after it anyway. */
const OVER_CAP_LINGER_MS = 2_000;
/** While draining, a connection with no request for this long is closed (one in use sends its next one sooner). */
const DRAIN_IDLE_CLOSE_MS = 500;
/** How long a refusal waits for the rest of the request's body before it is sent anyway. */
const REFUSAL_BODY_WAIT_MS = 1_000;
/** A refusal of the same kind is logged at most once in this long, with the count since the last line. */
const REFUSAL_LOG_INTERVAL_MS = 10_000;

/**
 * The connection settings from the environment; throws naming the variable on an invalid value. The per-client cap
 * is on by default in hosted mode only, and off behind a trusted reverse proxy (every connection then comes from the
 * proxy: cap per client there, docs/deploying.md). The whole request (headers and body) must arrive within
 * TOOLSCOPE_HEADERS_TIMEOUT_MS + TOOLSCOPE_BODY_READ_TIMEOUT_MS.
 */
export function httpLimitSettings(env) {
  const s = Object.fromEntries(Object.entries(SETTINGS).map(([key, spec]) => [key, int(env, spec)]));
  const hosted = (env.TOOLSCOPE_MODE ?? "local").trim().toLowerCase() === "hosted";
  const behindProxy = Number(env.TOOLSCOPE_TRUST_PROXY ?? "0") > 0;
  if (!env.TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT)
    s.maxConnectionsPerClient = hosted && !behindProxy ? SETTINGS.maxConnectionsPerClient[1] : 0;
  s.requestTimeoutMs = s.headersTimeoutMs + bodyReadTimeoutMs(env);
  return s;
}

/** Options for http.createServer: the timeouts, and a check of them often enough to keep them to about a second. */
export function serverOptions(s) {
  return {
    headersTimeout: s.headersTimeoutMs,
    requestTimeout: s.requestTimeoutMs,
    keepAliveTimeout: s.keepAliveTimeoutMs,
    // Node checks the header and request timeouts only this often (30 s by default).
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(s.headersTimeoutMs / 4))),
  };
}

/** Who a connection counts against: IPv4-mapped IPv6 is the IPv4 address; IPv6 by its /64 (as client-identity.ts). */
export function clientKey(address) {
  const bare = (address ?? "").replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return bare || "unknown-peer";
  const addr = ipaddr.process(bare);
  if (addr.kind() === "ipv4") return addr.toString();
  return `${addr.toNormalizedString().split(":").slice(0, 4).join(":")}::/64`;
}

/**
 * Our API's error body (lib/mcp/contract.ts) as a complete answer that closes the connection. It is sent once the
 * request's body has arrived (within REFUSAL_BODY_WAIT_MS): a connection closed with unread bytes in it is reset,
 * and the client would see the reset, not the answer.
 */
function refuse(req, res, status, kind, message, hint, retryAfterSeconds) {
  const body = JSON.stringify({ error: { kind, message, ...(hint ? { hint } : {}) } });
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "retry-after": String(retryAfterSeconds),
    connection: "close",
  });
  if (req.complete) return void res.end(body);
  let sent = false;
  const send = () => {
    if (sent) return;
    sent = true;
    clearTimeout(timer);
    res.end(body);
  };
  const timer = setTimeout(send, REFUSAL_BODY_WAIT_MS);
  req.once("end", send);
  req.once("close", send);
  req.resume();
}

/**
 * Put the caps on `server` (made with serverOptions(s)): TOOLSCOPE_MAX_CONNECTIONS open at once (past it Node closes
 * the new connection at once), TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT per client (past it the connection's request is
 * answered 503 and it is closed within OVER_CAP_LINGER_MS), TOOLSCOPE_MAX_REQUESTS_PER_SOCKET per kept-alive
 * connection. The request handler calls admit() first; drain() is the shutdown.
 */
export function applyConnectionLimits(server, s, { log = () => {}, stopListening = () => NetServer.prototype.close.call(server) } = {}) {
  server.maxConnections = s.maxConnections;
  server.maxRequestsPerSocket = s.maxRequestsPerSocket;
  /** @type {Map<import("node:net").Socket, { active: number, idleSince: number, res: unknown, over: boolean }>} */
  const sockets = new Map();
  const perClient = new Map();
  let draining = false;

  const refusals = new Map();
  function noteRefusal(kind, message) {
    const r = refusals.get(kind) ?? { count: 0, at: 0 };
    refusals.set(kind, r);
    r.count++;
    if (Date.now() - r.at < REFUSAL_LOG_INTERVAL_MS) return;
    log("warn", message, { refused: r.count });
    r.count = 0;
    r.at = Date.now();
  }

  const totalRefusal = `connection refused: ${s.maxConnections} connections are open (TOOLSCOPE_MAX_CONNECTIONS)`;
  server.on("drop", () => noteRefusal("total", totalRefusal));
  let lastConnectionAt = 0;
  server.on("connection", (socket) => {
    lastConnectionAt = Date.now();
    // Node refuses past server.maxConnections on the server's own socket; connections handed over from the other
    // listening sockets (listeners.mjs) are counted here.
    if (sockets.size >= s.maxConnections) {
      socket.destroy();
      return noteRefusal("total", totalRefusal);
    }
    const rec = { active: 0, idleSince: Date.now(), res: undefined, over: false };
    sockets.set(socket, rec);
    // Bytes of a next request count as use before it is parsed: a drain must not close a connection they are on.
    socket.on("data", () => (rec.idleSince = Date.now()));
    const key = clientKey(socket.remoteAddress);
    if (s.maxConnectionsPerClient > 0) {
      const open = perClient.get(key) ?? 0;
      if (open >= s.maxConnectionsPerClient) {
        rec.over = true;
        noteRefusal(
          "client",
          `connection refused: a client has ${open} connections open (TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT=${s.maxConnectionsPerClient})`,
        );
        setTimeout(() => socket.destroy(), OVER_CAP_LINGER_MS).unref();
      } else perClient.set(key, open + 1);
    }
    socket.once("close", () => {
      sockets.delete(socket);
      if (rec.over || s.maxConnectionsPerClient <= 0) return;
      const left = (perClient.get(key) ?? 1) - 1;
      if (left > 0) perClient.set(key, left);
      else perClient.delete(key);
    });
  });

  /**
   * Count `req` on its connection, and answer it here when it must not reach the app: 503 on a connection over its
   * client's cap, and while draining (except `always`: health checks). Returns whether the handler should go on.
   */
  function admit(req, res, { always = false } = {}) {
    const rec = sockets.get(req.socket);
    if (rec) {
      rec.active++;
      rec.res = res;
      res.once("close", () => {
        rec.active--;
        if (rec.res === res) rec.res = undefined;
        rec.idleSince = Date.now();
      });
    }
    if (rec?.over) {
      refuse(
        req,
        res,
        503,
        "unavailable",
        `Too many connections from your address are open (TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT=${s.maxConnectionsPerClient}).`,
        "Close idle connections or wait for requests in flight to finish, then try again.",
        5,
      );
      return false;
    }
    if (draining && !always) {
      refuse(req, res, 503, "unavailable", "Toolscope is shutting down; try again in a moment.", undefined, 2);
      return false;
    }
    if (draining) res.setHeader("connection", "close");
    return true;
  }

  /**
   * The shutdown: every accepted request may finish within `graceMs` (its answer closes its connection); requests
   * that arrive meanwhile, on kept-alive connections or new ones, are answered 503 with Retry-After (admit);
   * connections idle for DRAIN_IDLE_CLOSE_MS are closed; what is left is closed when the grace period ends. Resolves
   * with the number of connections still open then (0: everything finished).
   *
   * The listening socket stays open until no request is running and no connection has arrived for
   * DRAIN_IDLE_CLOSE_MS: closing it resets every connection the kernel has accepted but the process has not yet
   * (on a loaded instance they wait there a second or more), whose clients sent their requests before the signal.
   */
  function drain(graceMs) {
    draining = true;
    for (const rec of sockets.values()) {
      if (rec.res && !rec.res.headersSent) rec.res.setHeader("connection", "close");
    }
    const deadline = Date.now() + graceMs;
    return new Promise((resolve) => {
      let done = false;
      let listening = server.listening;
      // Run after the event loop's poll phase (setImmediate): bytes and connections that waited while the loop was
      // busy have been read and accepted by then, so neither is taken for idle because it was not looked at yet.
      const tick = () => {
        if (done) return;
        const now = Date.now();
        let active = 0;
        for (const [socket, rec] of sockets) {
          active += rec.active;
          if (rec.active === 0 && now - rec.idleSince >= DRAIN_IDLE_CLOSE_MS) socket.destroy();
        }
        if (listening && ((active === 0 && now - lastConnectionAt >= DRAIN_IDLE_CLOSE_MS) || now >= deadline)) {
          listening = false;
          // Not http.Server#close: since Node 19 it also closes every idle kept-alive connection at once, which
          // resets a request its client is sending on one at that moment. Stop listening only (every socket).
          stopListening();
        }
        if ((listening || sockets.size > 0) && now < deadline) return;
        done = true;
        clearInterval(timer);
        const left = sockets.size;
        for (const socket of sockets.keys()) socket.destroy();
        resolve(left);
      };
      const timer = setInterval(() => setImmediate(tick), 50);
    });
  }

  /** Open connections and requests in progress. */
  function stats() {
    let active = 0;
    for (const rec of sockets.values()) active += rec.active;
    return { connections: sockets.size, active };
  }

  return { admit, drain, stats };
}
