/**
 * A CPU profile of Toolscope under proxied tools/call load, summarised: where the server's time goes.
 *
 *   node --import tsx scripts/bench/profile.ts [--seconds 10] [--connections 16] [--dir DIR] [--top 40] [--route /api/bench/echo] [--floor]
 *
 * Starts the echo server and Toolscope under `node --cpu-prof`, loads POST /api/rpc with autocannon, stops the app
 * (the profile is written on exit), and prints the functions with the most self time, and self time per package.
 * `--floor` also profiles the bare Next.js app (./bare-next.ts) under the same load on its echo route and prints
 * both side by side, per request: what Toolscope's process spends that a bare Next.js app does not.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchApp } from "./app.ts";
import { startBareNext } from "./bare-next.ts";
import { startEchoServer } from "./echo-server.ts";
import { load, setupProxy } from "./proxy.ts";
import { table } from "./stats.ts";
import { frameKey, origin, readProfile, type CpuProfile } from "./cpu-profile.ts";
import { flag } from "./flags.ts";

const SECONDS = Number(flag("--seconds") ?? 10);
const CONNECTIONS = Number(flag("--connections") ?? 16);
const TOP = Number(flag("--top") ?? 40);
const DIR = flag("--dir") ?? mkdtempSync(join(tmpdir(), "toolscope-prof-"));
/** The route to load: /api/rpc, or the bare echo route to see what any request costs. */
const ROUTE = flag("--route") ?? "/api/rpc";

const FLOOR = process.argv.includes("--floor");

const upstream = await startEchoServer({ listTtlMs: 300_000 });
const appDir = join(DIR, "toolscope");
const app = await startBenchApp({}, ["--cpu-prof", `--cpu-prof-dir=${appDir}`]);
let appRequests = 0;
/** The load's window on the monotonic clock the profiles use: start-up and setup are left out. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
let appWindow: [number, number] = [0, 0];
try {
  const setup = await setupProxy(app.url, upstream.url);
  const started = nowUs();
  const run = await load(`${app.url}${ROUTE}`, setup.rpcBody, CONNECTIONS, SECONDS);
  appWindow = [started, nowUs()];
  appRequests = run.rps * SECONDS;
  console.log(
    `Toolscope, POST ${ROUTE} at ${CONNECTIONS} connections for ${SECONDS} s: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms`,
  );
  if (FLOOR) {
    const floorDir = join(DIR, "bare-next");
    const bare = await startBareNext(["--cpu-prof", `--cpu-prof-dir=${floorDir}`]);
    try {
      const floorStarted = nowUs();
      const floorRun = await load(`${bare.url}/api/echo`, setup.rpcBody, CONNECTIONS, SECONDS);
      const floorWindow: [number, number] = [floorStarted, nowUs()];
      console.log(
        `Bare Next.js app, POST /api/echo at ${CONNECTIONS} connections for ${SECONDS} s: ${floorRun.rps.toFixed(0)} req/s, p50 ${floorRun.p50} ms, p99 ${floorRun.p99} ms`,
      );
      await bare.stop();
      report("bare Next.js app", readProfile(floorDir), floorRun.rps * SECONDS, floorWindow);
    } finally {
      await bare.stop();
    }
  }
} finally {
  await app.stop();
  await upstream.close();
}
report("Toolscope", readProfile(appDir), appRequests, appWindow);

/** The profile's self time by origin and by function, with the sampled CPU per request. */
function report(name: string, { file, profile }: { file: string; profile: CpuProfile }, requests: number, [from, to]: [number, number]) {
  const self = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from && at <= to) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  let total = 0;
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const node of profile.nodes) {
    const t = self.get(node.id) ?? 0;
    if (!t || node.callFrame.functionName === "(idle)") continue;
    total += t;
    byFunction.set(frameKey(node), (byFunction.get(frameKey(node)) ?? 0) + t);
    byOrigin.set(origin(node.callFrame.url), (byOrigin.get(origin(node.callFrame.url)) ?? 0) + t);
  }
  const perRequest = (t: number) => `${(t / Math.max(1, requests)).toFixed(0)} µs`;
  const pct = (t: number) => `${((t / total) * 100).toFixed(1)}%`;
  const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log(`\n${name}: ${file} (${(total / 1e6).toFixed(1)} s busy during the load, ${perRequest(total)} per request)\n`);
  console.log(table([["self time by origin", "share", "per request"], ...top(byOrigin, 15).map(([k, t]) => [k, pct(t), perRequest(t)])]));
  console.log();
  console.log(
    table([["self time by function", "share", "per request"], ...top(byFunction, TOP).map(([k, t]) => [k, pct(t), perRequest(t)])]),
  );
}
