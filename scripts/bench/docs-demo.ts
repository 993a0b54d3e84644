/**
 * The built-in demo's docs page (`/docs?server=builtin:demo`, 18 tools) as issue 28 measures it: how long one view
 * takes warm, what it costs the server in CPU, how many views one instance serves a second, and how the page and
 * the proxy fare beside each other under a mixed load of 200 connections.
 *
 * - Warm view: `rounds` sequential GETs after `warmup` untimed ones, timed until the whole document has arrived (the
 *   server's own time is at most this: loopback adds well under a millisecond).
 * - CPU per view: the app process's user + system time (/proc) over those rounds, divided by them.
 * - Views a second: autocannon GETs at 16 connections for `seconds`.
 * - Mixed: 120 connections on the docs page, 64 on POST /api/rpc and 16 on GET /api/health at once, each from an
 *   autocannon process of its own (one client process for all three was itself the bottleneck: it read the 72 KB
 *   pages so slowly that it measured itself); the health probe's latency there is how long any request waits for
 *   the event loop.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import autocannon, { type Options as LoadOptions, type Result as LoadResult } from "autocannon";
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

const AUTOCANNON_CLI = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

/** One autocannon run in a process of its own, its JSON summary read back. */
function runApart(opts: Required<Pick<LoadOptions, "url" | "connections" | "duration">> & LoadOptions): Promise<MixedRun> {
  const args = [AUTOCANNON_CLI, "--json", "-c", String(opts.connections), "-d", String(opts.duration), "-t", "30"];
  if (opts.method) args.push("-m", opts.method);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push("-H", `${k}=${v}`);
  if (opts.body) args.push("-b", opts.body);
  args.push(opts.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.once("error", reject);
    child.once("exit", () => {
      try {
        const r = JSON.parse(out.trim().split("\n").pop() ?? "") as LoadResult;
        resolve({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts + r.non2xx });
      } catch {
        reject(new Error(`autocannon printed no summary for ${opts.url}: ${out.slice(0, 300)}`));
      }
    });
  });
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
  // The probe's connections open first, as a load balancer's kept-alive ones would be: its latency is then the event
  // loop's, not the accept queue's (which the bench's own load would otherwise fill ahead of it).
  const health = runApart({ url: `${setup.appUrl}/api/health`, connections: 16, duration: seconds + 1 });
  await new Promise((r) => setTimeout(r, 500));
  const [docs, rpc] = await Promise.all([
    runApart({ url, connections: 120, duration: seconds }),
    runApart({
      url: `${setup.appUrl}/api/rpc`,
      method: "POST",
      body: setup.rpcBody,
      headers: APP_HEADERS,
      connections: 64,
      duration: seconds,
    }),
  ]);
  return {
    warm: summarize(samples),
    cpuMsPerView,
    bytes,
    viewsPerSecond: alone.rps,
    errors: alone.errors,
    mixed: { docs, rpc, health: await health },
  };
}
