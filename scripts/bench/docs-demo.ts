/**
 * The built-in demo's docs page (`/docs?server=builtin:demo`, 18 tools) as issue 28 measures it: how long one view
 * takes warm, what it costs the server in CPU, how many views one instance serves a second, and how the page and
 * the proxy fare beside each other under a mixed load of 200 connections.
 *
 * - Warm view: `rounds` sequential GETs after `warmup` untimed ones, timed until the whole document has arrived (the
 *   server's own time is at most this: loopback adds well under a millisecond).
 * - CPU per view: the app process's user + system time (/proc) over those rounds, divided by them.
 * - Views a second: autocannon GETs at 16 connections for `seconds`.
 * - Mixed: 120 connections on the docs page, 64 on POST /api/rpc and 16 on GET /api/health at once; the health
 *   probe's latency there is how long any request waits for the event loop.
 */
import autocannon, { type Options as LoadOptions } from "autocannon";
import { processCpuMs, type ProxySetup } from "./proxy.ts";
import { APP_HEADERS } from "./app.ts";
import { summarize, type Summary } from "./stats.ts";

export const DEMO_DOCS_PATH = "/docs?server=builtin:demo";

export interface DemoDocsFigures {
  warm: Summary;
  cpuMsPerView: number;
  bytes: number;
  viewsPerSecond: number;
  errors: number;
  mixed: { docs: MixedRun; rpc: MixedRun; health: MixedRun };
}

interface MixedRun {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function view(url: string): Promise<number> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return text.length;
}

function run(opts: LoadOptions): Promise<MixedRun> {
  return autocannon({ timeout: 30, ...opts }).then((r) => ({
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  }));
}

export async function measureDemoDocs(
  setup: ProxySetup,
  pid: number,
  { rounds = 300, warmup = 200, seconds = 8 }: { rounds?: number; warmup?: number; seconds?: number } = {},
): Promise<DemoDocsFigures> {
  const url = `${setup.appUrl}${DEMO_DOCS_PATH}`;
  let bytes = 0;
  for (let i = 0; i < warmup; i++) bytes = await view(url);
  const samples: number[] = [];
  const cpuBefore = processCpuMs(pid);
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    await view(url);
    samples.push(performance.now() - t);
  }
  const cpuMsPerView = (processCpuMs(pid) - cpuBefore) / rounds;
  const alone = await run({ url, connections: 16, duration: seconds });
  const [docs, rpc, health] = await Promise.all([
    run({ url, connections: 120, duration: seconds }),
    run({ url: `${setup.appUrl}/api/rpc`, method: "POST", body: setup.rpcBody, headers: APP_HEADERS, connections: 64, duration: seconds }),
    run({ url: `${setup.appUrl}/api/health`, connections: 16, duration: seconds }),
  ]);
  return {
    warm: summarize(samples),
    cpuMsPerView,
    bytes,
    viewsPerSecond: alone.rps,
    errors: alone.errors,
    mixed: { docs, rpc, health },
  };
}
