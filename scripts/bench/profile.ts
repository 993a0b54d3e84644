/**
 * A CPU profile of Toolscope under proxied tools/call load, summarised: where the server's time goes.
 *
 *   node --import tsx scripts/bench/profile.ts [--seconds 10] [--connections 16] [--dir DIR] [--top 40] [--route /api/bench/echo]
 *
 * Starts the echo server and Toolscope under `node --cpu-prof`, loads POST /api/rpc with autocannon, stops the app
 * (the profile is written on exit), and prints the functions with the most self time, and self time per package.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startBenchApp } from "./app.ts";
import { startEchoServer } from "./echo-server.ts";
import { load, setupProxy } from "./proxy.ts";
import { table } from "./stats.ts";
import { frameKey, origin, readProfile } from "./cpu-profile.ts";
import { flag } from "./flags.ts";

const SECONDS = Number(flag("--seconds") ?? 10);
const CONNECTIONS = Number(flag("--connections") ?? 16);
const TOP = Number(flag("--top") ?? 40);
const DIR = flag("--dir") ?? mkdtempSync(join(tmpdir(), "toolscope-prof-"));
/** The route to load: /api/rpc, or the bare echo route to see what any request costs. */
const ROUTE = flag("--route") ?? "/api/rpc";

const upstream = await startEchoServer({ listTtlMs: 300_000 });
const app = await startBenchApp({}, ["--cpu-prof", `--cpu-prof-dir=${DIR}`]);
try {
  const setup = await setupProxy(app.url, upstream.url);
  const run = await load(`${app.url}${ROUTE}`, setup.rpcBody, CONNECTIONS, SECONDS);
  console.log(
    `POST ${ROUTE} at ${CONNECTIONS} connections for ${SECONDS} s: ${run.rps.toFixed(0)} req/s, p50 ${run.p50} ms, p99 ${run.p99} ms`,
  );
} finally {
  await app.stop();
  await upstream.close();
}

const { file, profile } = readProfile(DIR);
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const byFunction = new Map<string, number>();
const byOrigin = new Map<string, number>();
for (const node of profile.nodes) {
  const t = self.get(node.id) ?? 0;
  if (!t) continue;
  byFunction.set(frameKey(node), (byFunction.get(frameKey(node)) ?? 0) + t);
  byOrigin.set(origin(node.callFrame.url), (byOrigin.get(origin(node.callFrame.url)) ?? 0) + t);
}
const pct = (t: number) => `${((t / total) * 100).toFixed(1)}%`;
const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
console.log(`\nProfile: ${file} (${(total / 1e6).toFixed(1)} s sampled)\n`);
console.log(table([["self time by origin", "share"], ...top(byOrigin, 15).map(([k, t]) => [k, pct(t)])]));
console.log();
console.log(table([["self time by function", "share"], ...top(byFunction, TOP).map(([k, t]) => [k, pct(t)])]));
