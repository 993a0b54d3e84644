/**
 * Where one proxied call's time goes, next to the bare route's: sequential calls (as the latency goal measures them)
 * against each route in its own Toolscope process under `node --cpu-prof`, and the samples taken while those calls
 * ran, per call and function. The difference between the two is what /api/rpc adds on its critical path.
 *
 *   node --import tsx scripts/bench/critical-path.ts [--calls 2000] [--warmup 3000] [--top 40]
 *
 * How to read it: "(idle)" is the event loop waiting (on the upstream, or on a thread-pool job such as gzip);
 * `writev`/`write*` count time the process slept in a socket write while the process it woke ran on this core.
 * A sampling profiler slows what it watches by about a quarter: compare the two columns, not absolute times. For
 * readable function names, profile a build without name mangling: `NEXT_DIST_DIR=.next-prof npx next build
 * --no-mangling`, then run this script with the same NEXT_DIST_DIR.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_HEADERS, startBenchApp } from "./app.ts";
import { readProfile, selfTimeBetween } from "./cpu-profile.ts";
import { startEchoServer } from "./echo-server.ts";
import { WARMUP_ROUNDS, setupProxy } from "./proxy.ts";
import { percentile, table } from "./stats.ts";
import { flag } from "./flags.ts";

const CALLS = Number(flag("--calls") ?? 2000);
const TOP = Number(flag("--top") ?? 40);
/** Calls before the timed ones, so the profile shows optimised code, as a server that has run a while runs (proxy.ts). */
const WARM_UP = Number(flag("--warmup") ?? WARMUP_ROUNDS);
/** Sampling interval (µs): fine enough to see a call of a few milliseconds in pieces. */
const INTERVAL_US = 100;

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface RouteRun {
  p50Ms: number;
  /** Microseconds per call by function, from the samples taken while the timed calls ran. */
  perCall: Map<string, number>;
}

async function profileRoute(route: string, upstreamUrl: string): Promise<RouteRun> {
  const dir = mkdtempSync(join(tmpdir(), "toolscope-critical-"));
  const app = await startBenchApp({}, ["--cpu-prof", `--cpu-prof-interval=${INTERVAL_US}`, `--cpu-prof-dir=${dir}`]);
  let from = 0;
  let to = 0;
  const times: number[] = [];
  try {
    const setup = await setupProxy(app.url, upstreamUrl);
    const call = () => fetch(`${app.url}${route}`, { method: "POST", headers: APP_HEADERS, body: setup.rpcBody }).then((r) => r.text());
    for (let i = 0; i < WARM_UP; i++) await call();
    from = nowUs();
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      await call();
      times.push(performance.now() - started);
    }
    to = nowUs();
  } finally {
    await app.stop();
  }
  const perCall = new Map([...selfTimeBetween(readProfile(dir).profile, from, to)].map(([k, us]) => [k, us / CALLS]));
  return {
    p50Ms: percentile(
      times.sort((a, b) => a - b),
      50,
    ),
    perCall,
  };
}

const upstream = await startEchoServer({ listTtlMs: 300_000 });
let bare: RouteRun;
let rpc: RouteRun;
try {
  bare = await profileRoute("/api/bench/echo", upstream.url);
  rpc = await profileRoute("/api/rpc", upstream.url);
} finally {
  await upstream.close();
}

const sum = (m: Map<string, number>, pick: (k: string) => boolean = () => true) =>
  [...m].filter(([k]) => pick(k)).reduce((s, [, v]) => s + v, 0);
const isIdle = (k: string) => k.startsWith("(idle)");
const isWrite = (k: string) => /^(writev|write\w*String|writeBuffer) /.test(k);
const isGc = (k: string) => k.startsWith("(garbage collector)");
const us = (v: number) => `${v.toFixed(0)} µs`;
console.log(`${CALLS} sequential calls per route after ${WARM_UP} warm-up, sampled every ${INTERVAL_US} µs\n`);
console.log(
  table([
    ["per call", "bare route", "/api/rpc", "difference"],
    ["p50 latency (profiled)", `${bare.p50Ms.toFixed(2)} ms`, `${rpc.p50Ms.toFixed(2)} ms`, `${(rpc.p50Ms - bare.p50Ms).toFixed(2)} ms`],
    ...(
      [
        ["waiting (idle)", isIdle],
        ["asleep in socket writes", isWrite],
        ["garbage collection", isGc],
        ["running JavaScript and the rest", (k: string) => !isIdle(k) && !isWrite(k) && !isGc(k)],
      ] as const
    ).map(([label, pick]) => [
      label,
      us(sum(bare.perCall, pick)),
      us(sum(rpc.perCall, pick)),
      us(sum(rpc.perCall, pick) - sum(bare.perCall, pick)),
    ]),
  ]),
);
const keys = new Set([...bare.perCall.keys(), ...rpc.perCall.keys()]);
const rows = [...keys]
  .map((k) => ({ k, b: bare.perCall.get(k) ?? 0, r: rpc.perCall.get(k) ?? 0 }))
  .sort((x, y) => y.r - y.b - (x.r - x.b))
  .slice(0, TOP);
console.log();
console.log(
  table([
    ["self time per call, by what /api/rpc adds", "bare", "rpc", "added"],
    ...rows.map(({ k, b, r }) => [k, us(b), us(r), us(r - b)]),
  ]),
);
