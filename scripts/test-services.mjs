// Throwaway PostgreSQL and Redis for tests: on free loopback ports, in a temp dir, stopped on exit.
//
// Module:  const s = await startTestServices();      // { databaseUrl, redisUrl, stop() }
//          const s = await servicesForTests({ postgres: true });  // for node:test files: reuses the CLI's, or skips
// CLI:     node scripts/test-services.mjs -- <command…>   runs the command with DATABASE_URL / REDIS_URL set,
//          then stops both and exits with the command's status. Without a command: prints the URLs, runs until ^C.
//
// Binaries: PostgreSQL from /usr/lib/postgresql/<newest>/bin (Debian keeps initdb/pg_ctl off PATH), else PG_BIN_DIR,
// else initdb on PATH; redis-server from REDIS_SERVER or PATH. When missing and we are root with apt-get, Debian's
// `postgresql` / `redis-server` are installed (TOOLSCOPE_TEST_SERVICES_INSTALL=0 turns that off). When they cannot
// be had, startTestServices() throws TestServicesUnavailable; servicesForTests() returns the reason so tests skip
// with it, unless TOOLSCOPE_REQUIRE_TEST_SERVICES=1, which makes that a failure (CI that must run them).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { constants as osConstants, tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TAG = "[test-services]";
/** Set in the environment of a command run by the CLI: its DATABASE_URL / REDIS_URL are throwaway ones. */
export const MARKER_ENV = "TOOLSCOPE_TEST_SERVICES";

export class TestServicesUnavailable extends Error {
  constructor(message) {
    super(message);
    this.name = "TestServicesUnavailable";
  }
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

function onPath(name) {
  const dirs = (process.env.PATH ?? "").split(delimiter).concat(["/usr/sbin", "/sbin", "/usr/bin", "/bin"]);
  for (const d of dirs) {
    if (!d) continue;
    const p = join(d, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Directory holding initdb and pg_ctl, or undefined. */
export function findPostgresBin() {
  const fromEnv = process.env.PG_BIN_DIR;
  if (fromEnv) return existsSync(join(fromEnv, "initdb")) && existsSync(join(fromEnv, "pg_ctl")) ? fromEnv : undefined;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => /^\d+(\.\d+)?$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = join(root, v, "bin");
      if (existsSync(join(bin, "initdb")) && existsSync(join(bin, "pg_ctl"))) return bin;
    }
  }
  const initdb = onPath("initdb");
  return initdb && existsSync(join(dirname(initdb), "pg_ctl")) ? dirname(initdb) : undefined;
}

/** Path of redis-server, or undefined. */
export function findRedisServer() {
  const fromEnv = process.env.REDIS_SERVER;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  return onPath("redis-server");
}

let installAttempted = false;

/**
 * Install Debian's packages for what is missing, when that is possible (root + apt-get). Returns a reason when it
 * is not. Service scripts are kept from starting the packages' own servers (policy-rc.d), since there is no systemd.
 */
function installMissing(packages, log) {
  if (process.env.TOOLSCOPE_TEST_SERVICES_INSTALL === "0") return "installing is turned off (TOOLSCOPE_TEST_SERVICES_INSTALL=0)";
  if (!isRoot())
    return "not root, so they cannot be installed here (install Debian's postgresql and redis-server, or set PG_BIN_DIR / REDIS_SERVER)";
  const apt = onPath("apt-get");
  if (!apt) return "apt-get not found, so they cannot be installed here (set PG_BIN_DIR / REDIS_SERVER)";
  if (installAttempted) return "installing them failed earlier in this process";
  installAttempted = true;
  const policy = "/usr/sbin/policy-rc.d";
  const ownPolicy = !existsSync(policy);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const args = ["install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", "--no-install-recommends", ...packages];
  log(`${TAG} installing ${packages.join(" ")}: apt-get ${args.join(" ")} (their init scripts are kept from starting servers)`);
  try {
    if (ownPolicy) {
      writeFileSync(policy, "#!/bin/sh\n# written by scripts/test-services.mjs for the length of an apt-get install\nexit 101\n");
      chmodSync(policy, 0o755);
    }
    let r = spawnSync(apt, args, { env, stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) {
      log(`${TAG} apt-get install failed (status ${r.status}); refreshing the package lists once (apt-get update -qq) and retrying`);
      spawnSync(apt, ["update", "-qq"], { env, stdio: ["ignore", "inherit", "inherit"] });
      r = spawnSync(apt, args, { env, stdio: ["ignore", "inherit", "inherit"] });
    }
    return r.status === 0 ? undefined : `apt-get install ${packages.join(" ")} failed (status ${r.status})`;
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Everything started by this process, for the exit and signal handlers.
const running = new Set();
let handlersInstalled = false;
/** The CLI handles signals itself: it lets its command finish before stopping the services. */
let cliHandlesSignals = false;

function cleanupAllSync() {
  for (const s of [...running]) {
    try {
      s.stopSync();
    } catch {
      // best effort on the way out
    }
  }
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on("exit", cleanupAllSync);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    const handler = () => {
      if (cliHandlesSignals) return;
      cleanupAllSync();
      // Leave with the signal's default behaviour, as if we had never caught it (unless someone else handles it).
      process.removeListener(sig, handler);
      if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
    };
    process.on(sig, handler);
  }
}

/** Run a program as the `postgres` user when we are root (PostgreSQL refuses to run as root). */
function asPostgresUser(cmd, args) {
  if (!isRoot()) return [cmd, args];
  const runuser = onPath("runuser");
  if (runuser) return [runuser, ["-u", "postgres", "--", cmd, ...args]];
  const quoted = [cmd, ...args].map(shQuote).join(" ");
  return ["su", ["postgres", "-s", "/bin/sh", "-c", quoted]];
}

const shQuote = (a) => `'${String(a).replaceAll("'", `'\\''`)}'`;

/**
 * A detached shell that runs `cleanup` if this process dies without stopping the service (SIGKILL, a test
 * runner's timeout), so no server is left behind. Killed first on a normal stop.
 */
function watchdog(cleanup) {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${cleanup}`;
  const child = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  child.on("error", () => {});
  child.unref();
  return () => {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
}

function postgresUser() {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function run(cmd, args, what) {
  const [c, a] = asPostgresUser(cmd, args);
  const r = spawnSync(c, a, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0)
    throw new Error(`${what} failed (${r.error?.message ?? `status ${r.status}`}): ${(r.stderr || r.stdout || "").trim().slice(-2000)}`);
  return r.stdout;
}

async function startPostgres(bin, log) {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "toolscope-pg-"));
  const data = join(dir, "data");
  const sock = dir;
  const logFile = join(dir, "postgres.log");
  if (isRoot()) {
    const pg = postgresUser();
    if (!pg) {
      rmSync(dir, { recursive: true, force: true });
      throw new TestServicesUnavailable("running as root, but there is no `postgres` user to run PostgreSQL as");
    }
    chownSync(dir, pg.uid, pg.gid);
  }
  const port = await freePort();
  const service = {
    name: "PostgreSQL",
    stopped: false,
    unwatch: () => {},
    stopSync() {
      if (this.stopped) return;
      this.stopped = true;
      running.delete(this);
      this.unwatch();
      const [c, a] = asPostgresUser(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "-t", "20", "stop"]);
      if (existsSync(join(data, "postmaster.pid"))) spawnSync(c, a, { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(service);
  installHandlers();
  try {
    run(join(bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"], "initdb");
    const opts = `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    run(join(bin, "pg_ctl"), ["-D", data, "-l", logFile, "-w", "-t", "30", "-o", opts, "start"], "pg_ctl start");
    run(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "toolscope_test"], "createdb");
  } catch (err) {
    let tail = "";
    try {
      tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join("\n");
    } catch {
      // no log yet
    }
    service.stopSync();
    throw new TestServicesUnavailable(`PostgreSQL did not start: ${err.message}${tail ? `\n${tail}` : ""}`);
  }
  const [ctl, ctlArgs] = asPostgresUser(join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"]);
  service.unwatch = watchdog(`${[ctl, ...ctlArgs].map(shQuote).join(" ")} >/dev/null 2>&1; rm -rf ${shQuote(dir)}`);
  const url = `postgres://postgres@127.0.0.1:${port}/toolscope_test`;
  log(`${TAG} PostgreSQL (${bin}) on 127.0.0.1:${port}, data in ${dir}, ready in ${Math.round(performance.now() - started)} ms`);
  return { url, service, stop: async () => service.stopSync() };
}

function redisPing(port) {
  return new Promise((resolve) => {
    const sock = createConnection({ host: "127.0.0.1", port });
    let buf = "";
    sock.setTimeout(500, () => sock.destroy());
    sock.on("connect", () => sock.write("PING\r\n"));
    sock.on("data", (d) => {
      buf += d;
      if (buf.includes("\r\n")) {
        sock.destroy();
        resolve(buf.startsWith("+PONG"));
      }
    });
    sock.on("error", () => resolve(false));
    sock.on("close", () => resolve(false));
  });
}

async function startRedis(server, log) {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), "toolscope-redis-"));
  const port = await freePort();
  const child = spawn(
    server,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--dir",
      dir,
      "--loglevel",
      "warning",
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (d) => (output = (output + d).slice(-4000)));
  child.stderr.on("data", (d) => (output = (output + d).slice(-4000)));
  let exited = false;
  const exit = new Promise((resolve) => child.on("exit", (code, signal) => ((exited = true), resolve({ code, signal }))));
  child.on("error", () => {});
  const unwatch = watchdog(`kill -9 ${child.pid} 2>/dev/null; rm -rf ${shQuote(dir)}`);
  const service = {
    name: "Redis",
    stopped: false,
    stopSync() {
      if (this.stopped) return;
      this.stopped = true;
      running.delete(this);
      unwatch();
      if (!exited) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    },
  };
  running.add(service);
  installHandlers();
  const deadline = Date.now() + 10_000;
  while (!(await redisPing(port))) {
    if (exited || Date.now() > deadline) {
      service.stopSync();
      throw new TestServicesUnavailable(
        `redis-server did not start (${exited ? "it exited" : "no PONG within 10 s"}): ${output.trim().slice(-1000)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  log(`${TAG} Redis (${server}) on 127.0.0.1:${port}, ready in ${Math.round(performance.now() - started)} ms`);
  const stop = async () => {
    if (service.stopped) return;
    service.stopped = true;
    running.delete(service);
    unwatch();
    if (!exited) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exit;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url: `redis://127.0.0.1:${port}`, service, stop };
}

/** Find (or install) the binaries for the services asked for; the reason per service when one cannot be had. */
function locate({ postgres, redis }, log) {
  let pgBin = postgres ? findPostgresBin() : undefined;
  let redisServer = redis ? findRedisServer() : undefined;
  const missing = [];
  if (postgres && !pgBin) missing.push("postgresql");
  if (redis && !redisServer) missing.push("redis-server");
  const reasons = {};
  if (missing.length > 0) {
    log(`${TAG} not found: ${missing.join(", ")} (looked in PG_BIN_DIR, /usr/lib/postgresql/*/bin, REDIS_SERVER and PATH)`);
    const why = installMissing(missing, log);
    if (postgres && !pgBin) pgBin = findPostgresBin();
    if (redis && !redisServer) redisServer = findRedisServer();
    if (postgres && !pgBin) reasons.postgres = `PostgreSQL binaries not found; ${why ?? "installing postgresql did not provide them"}`;
    if (redis && !redisServer) reasons.redis = `redis-server not found; ${why ?? "installing redis-server did not provide it"}`;
  }
  return { pgBin, redisServer, reasons };
}

/**
 * Start the services asked for (both by default). Throws TestServicesUnavailable, with the reason, when one of them
 * cannot be started; whatever was started is stopped again in that case.
 * @param {{ postgres?: boolean, redis?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<{ databaseUrl: string | undefined, redisUrl: string | undefined, stop(): Promise<void> }>}
 */
export async function startTestServices({ postgres = true, redis = true, log = (l) => console.error(l) } = {}) {
  const { pgBin, redisServer, reasons } = locate({ postgres, redis }, log);
  const why = [reasons.postgres, reasons.redis].filter(Boolean);
  if (why.length > 0) throw new TestServicesUnavailable(why.join("; "));
  const [pg, rd] = await Promise.allSettled([
    postgres ? startPostgres(pgBin, log) : undefined,
    redis ? startRedis(redisServer, log) : undefined,
  ]);
  const started = [pg, rd].filter((r) => r.status === "fulfilled" && r.value).map((r) => r.value);
  const failed = [pg, rd].find((r) => r.status === "rejected");
  if (failed) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw failed.reason;
  }
  return {
    databaseUrl: pg.value?.url,
    redisUrl: rd.value?.url,
    async stop() {
      await Promise.all(started.map((s) => s.stop()));
    },
  };
}

/**
 * For test files: the services asked for, as URLs, or the reason each is unavailable (tests skip with it).
 * Inside `node scripts/test-services.mjs -- …` the CLI's services are reused (their URLs carry the marker);
 * a DATABASE_URL / REDIS_URL from your own shell is never used, so tests cannot touch a real database.
 * With TOOLSCOPE_REQUIRE_TEST_SERVICES=1 an unavailable service throws instead of skipping.
 * @param {{ postgres?: boolean, redis?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<{ databaseUrl?: string, redisUrl?: string, unavailable: { postgres?: string, redis?: string }, stop(): Promise<void> }>}
 */
export async function servicesForTests({ postgres = false, redis = false, log = (l) => console.error(l) } = {}) {
  const fromCli = process.env[MARKER_ENV] === "1";
  const reuse = {
    databaseUrl: fromCli && postgres ? process.env.DATABASE_URL : undefined,
    redisUrl: fromCli && redis ? process.env.REDIS_URL : undefined,
  };
  const need = { postgres: postgres && !reuse.databaseUrl, redis: redis && !reuse.redisUrl };
  const unavailable = {};
  let own = { databaseUrl: undefined, redisUrl: undefined, stop: async () => {} };
  if (need.postgres || need.redis) {
    const { pgBin, redisServer, reasons } = locate(need, log);
    Object.assign(unavailable, reasons);
    const want = { postgres: need.postgres && !!pgBin, redis: need.redis && !!redisServer };
    if (want.postgres || want.redis) {
      // Start each on its own, so one that fails does not take the other down.
      const [pg, rd] = await Promise.all([
        want.postgres
          ? startTestServices({ postgres: true, redis: false, log }).catch((err) => ((unavailable.postgres = err.message), undefined))
          : undefined,
        want.redis
          ? startTestServices({ postgres: false, redis: true, log }).catch((err) => ((unavailable.redis = err.message), undefined))
          : undefined,
      ]);
      own = { databaseUrl: pg?.databaseUrl, redisUrl: rd?.redisUrl, stop: async () => void (await Promise.all([pg?.stop(), rd?.stop()])) };
    }
  }
  const result = {
    databaseUrl: reuse.databaseUrl ?? own.databaseUrl,
    redisUrl: reuse.redisUrl ?? own.redisUrl,
    unavailable,
    stop: own.stop,
  };
  const reasons = Object.entries(unavailable).map(([k, v]) => `${k === "postgres" ? "PostgreSQL" : "Redis"}: ${v}`);
  if (reasons.length > 0) {
    if (process.env.TOOLSCOPE_REQUIRE_TEST_SERVICES === "1") {
      await own.stop();
      throw new TestServicesUnavailable(`TOOLSCOPE_REQUIRE_TEST_SERVICES=1, but ${reasons.join("; ")}`);
    }
    log(`${TAG} SKIPPING the tests that need them: ${reasons.join("; ")}`);
  }
  return result;
}

async function main(argv) {
  const dash = argv.indexOf("--");
  const command = dash >= 0 ? argv.slice(dash + 1) : argv;
  const log = (l) => console.error(l);
  let services;
  try {
    services = await startTestServices({ log });
  } catch (err) {
    if (!(err instanceof TestServicesUnavailable)) throw err;
    if (process.env.TOOLSCOPE_REQUIRE_TEST_SERVICES === "1" || command.length === 0) {
      log(`${TAG} cannot start the test services: ${err.message}`);
      process.exit(1);
    }
    log(`${TAG} cannot start the test services (${err.message}); running the command without them: tests that need them skip`);
  }
  if (command.length === 0) {
    console.log(`DATABASE_URL=${services.databaseUrl}\nREDIS_URL=${services.redisUrl}`);
    log(`${TAG} running until interrupted (^C)`);
    await new Promise(() => {});
  }
  const env = { ...process.env };
  if (services) Object.assign(env, { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl, [MARKER_ENV]: "1" });
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  // A signal goes to the command, which then finishes; the services are stopped after it. A second signal stops
  // everything at once.
  cliHandlesSignals = true;
  let signals = 0;
  const forward = (sig) => () => {
    if (++signals > 1) {
      child.kill("SIGKILL");
      cleanupAllSync();
      process.exit(128 + (osConstants.signals[sig] ?? 1));
    }
    if (child.exitCode === null) child.kill(sig);
  };
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(sig, forward(sig));
  const { code, signal } = await new Promise((resolve) => {
    child.on("error", (err) => {
      log(`${TAG} could not run ${command[0]}: ${err.message}`);
      resolve({ code: 127, signal: null });
    });
    child.on("exit", (c, s) => resolve({ code: c, signal: s }));
  });
  await services?.stop();
  process.exit(code ?? 128 + ((signal && osConstants.signals[signal]) || 1));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`${TAG} ${err.stack ?? err}`);
    cleanupAllSync();
    process.exit(1);
  });
}
