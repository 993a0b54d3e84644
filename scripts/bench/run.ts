/**
 * `npm run bench`: issue 15's figures from one run on this machine, each goal printed as met or not met.
 *
 *   npm run bench [-- --rounds 1000] [--warmup 3000] [--seconds 8] [--only proxy,demo-docs,walks,playground,docs] [--cpu-prof DIR] [--json FILE]
 *
 * Starts its own servers (a minimal 2026-07-28 SDK echo server, Toolscope's production build with the bench echo
 * route mounted) on loopback ports and stops them. Not part of `npm test`: its figures depend on the machine and on
 * what else runs on it, so it prints them rather than asserting them. `--cpu-prof DIR` starts Toolscope under
 * `node --cpu-prof` (profiles land in DIR when it stops).
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus } from "node:os";
import { startBenchApp } from "./app.ts";
import { startEchoServer } from "./echo-server.ts";
import { measureListWalks } from "./list-walks.ts";
import { startBareNext } from "./bare-next.ts";
import {
  WARMUP_ROUNDS,
  measureHealth,
  measureLatency,
  measureServerCpu,
  measureThroughput,
  setupProxy,
  type ThroughputRun,
} from "./proxy.ts";
import { kb, ms, table, type Goal } from "./stats.ts";
import { flag } from "./flags.ts";

const ROUNDS = Number(flag("--rounds") ?? 1000);
/** Latency rounds before the timed ones: enough for V8 to have optimised both routes (see measureLatency). */
const WARMUP = Number(flag("--warmup") ?? WARMUP_ROUNDS);
const SECONDS = Number(flag("--seconds") ?? 8);
const ONLY = new Set((flag("--only") ?? "proxy,demo-docs,walks,playground,docs").split(","));
const CPU_PROF = flag("--cpu-prof");
const JSON_OUT = flag("--json");

/** The targets (issue 15, raised by issue 28: the floor is a bare Next.js app), in one place. */
export const TARGETS = {
  p50OverFloorMs: 1,
  p99OverFloorMs: 5,
  throughputShare16: 0.6,
  throughputShare64: 0.55,
  healthOverMs: 0.5,
  editorReadyMs: 700,
  largestChunkGzipBytes: 500 * 1024,
  docsFirstViewMs: 300,
  /** The demo's docs page (18 tools), warm, one view at a time (issue 28). */
  demoDocsWarmMs: 50,
  /** The demo's docs pages one instance serves a second at 16 connections (issue 28). */
  demoDocsPerSecond: 100,
  /** HTML + inline RSC of the 1,000-tool docs page before issue 15 (scripts/bench/docs-page.ts on commit ea8433a); the goal is half. */
  docsWeightBeforeBytes: 2_452_618,
} as const;

const goals: Goal[] = [];
const figures: Record<string, unknown> = { machine: `${cpus()[0]?.model ?? "cpu"} × ${availableParallelism()}`, node: process.version };
const mean = (runs: ThroughputRun[], f: (r: ThroughputRun) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
const signed = (v: number) => `${v >= 0 ? "+" : "−"}${ms(Math.abs(v))}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`Toolscope bench — ${figures.machine}, Node ${process.version}\n`);
const upstream = await startEchoServer({ listTtlMs: 300_000 });
const noTtl = await startEchoServer();
const app = await startBenchApp(
  { TOOLSCOPE_LOG_LEVEL: process.env.TOOLSCOPE_LOG_LEVEL ?? "info" },
  CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : [],
);
/** The floor: a bare Next.js app of the same version, served by `next start` (./bare-next.ts). */
const bareNext = ONLY.has("proxy") ? await startBareNext(CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : []) : undefined;
try {
  if (ONLY.has("proxy")) {
    const setup = await setupProxy(app.url, upstream.url, bareNext!.url);
    const lat = await measureLatency(setup, ROUNDS, WARMUP);
    figures.latency = lat;
    console.log(`Latency of one tools/call (echo), ${ROUNDS} interleaved sequential rounds after ${WARMUP} warm-up`);
    console.log(
      table([
        ["", "p50", "p90", "p99", "mean"],
        ...(["direct", "raw", "next", "bare", "floor", "rpc"] as const).map((k) => [
          {
            direct: "direct SDK call",
            raw: "raw POST upstream",
            next: "bare Next.js app, echo route",
            bare: "echo route inside Toolscope",
            floor: "floor (bare app + raw)",
            rpc: "POST /api/rpc",
          }[k],
          ms(lat[k].p50),
          ms(lat[k].p90),
          ms(lat[k].p99),
          ms(lat[k].mean),
        ]),
      ]),
    );
    const overP50 = lat.rpc.p50 - lat.floor.p50;
    const overP99 = lat.rpc.p99 - lat.floor.p99;
    console.log(
      `/api/rpc over the floor: p50 ${signed(overP50)}, p99 ${signed(overP99)}; over a direct SDK call: p50 ${signed(lat.rpc.p50 - lat.direct.p50)}`,
    );
    console.log(
      `Toolscope's own per-request cost (its echo route over the bare app's): p50 ${signed(lat.bare.p50 - lat.next.p50)}, p99 ${signed(lat.bare.p99 - lat.next.p99)}; ` +
        `/api/rpc over the floor inside Toolscope (the figure before issue 28): p50 ${signed(lat.rpc.p50 - lat.insideFloor.p50)}`,
    );
    const w = lat.warming;
    console.log(
      `While warming (the first ${w.rounds} rounds of a fresh process): /api/rpc p50 ${ms(w.rpc.p50)}, floor ${ms(w.floor.p50)}, ` +
        `over the floor p50 ${signed(w.rpc.p50 - w.floor.p50)}, p99 ${signed(w.rpc.p99 - w.floor.p99)}\n`,
    );
    const cpu = await measureServerCpu(setup, { app: app.pid, next: bareNext!.pid }, 500);
    figures.serverCpu = cpu;
    console.log(
      `CPU per request (500 sequential, best of 2): bare Next.js app ${ms(cpu.next)}, echo route inside Toolscope ${ms(cpu.bare)} ` +
        `(${(cpu.bare / cpu.next).toFixed(2)}×), /api/rpc ${ms(cpu.rpc)} (${(cpu.rpc / cpu.next).toFixed(2)}× the bare app: what caps throughput on a busy machine)\n`,
    );
    const health = await measureHealth(setup, ROUNDS, Math.min(WARMUP, 1000));
    figures.health = health;
    const healthOver = health.app.p50 - health.next.p50;
    console.log(
      `GET /api/health, ${ROUNDS} interleaved rounds: bare Next.js app p50 ${ms(health.next.p50)} (p99 ${ms(health.next.p99)}), ` +
        `Toolscope p50 ${ms(health.app.p50)} (p99 ${ms(health.app.p99)}): ${signed(healthOver)}\n`,
    );
    goals.push({ name: "proxy p50 within 1 ms of the floor", figure: signed(overP50), met: overP50 <= TARGETS.p50OverFloorMs });
    goals.push({ name: "proxy p99 within 5 ms of the floor's p99", figure: signed(overP99), met: overP99 <= TARGETS.p99OverFloorMs });
    goals.push({
      name: "/api/health within 0.5 ms of the bare app's",
      figure: signed(healthOver),
      met: healthOver <= TARGETS.healthOverMs,
    });

    for (const connections of [16, 64]) {
      const rounds = connections === 16 ? 2 : 1;
      const t = await measureThroughput(setup, connections, SECONDS, rounds);
      figures[`throughput${connections}`] = t;
      const next = mean(t.next, (r) => r.rps);
      const inside = mean(t.bare, (r) => r.rps);
      const rpc = mean(t.rpc, (r) => r.rps);
      console.log(`Throughput at ${connections} connections, ${SECONDS} s each, alternated ${rounds}×`);
      console.log(
        table([
          ["", "req/s", "p50", "p99", "errors", "non-2xx"],
          ...(
            [
              ["bare Next.js app, echo", t.next],
              ["echo inside Toolscope", t.bare],
              ["POST /api/rpc", t.rpc],
              ["upstream alone", t.upstream ?? []],
            ] as const
          ).map(([label, runs]) => [
            label,
            runs.map((r) => r.rps.toFixed(0)).join(" / "),
            `${mean(runs, (r) => r.p50).toFixed(0)} ms`,
            `${mean(runs, (r) => r.p99).toFixed(0)} ms`,
            runs.reduce((a, r) => a + r.errors, 0),
            runs.reduce((a, r) => a + r.non2xx, 0),
          ]),
        ]),
      );
      const share = rpc / next;
      console.log(
        `/api/rpc is ${(share * 100).toFixed(0)}% of the bare Next.js app; the echo route inside Toolscope is ${((inside / next) * 100).toFixed(0)}% of it; ` +
          `/api/rpc is ${((rpc / inside) * 100).toFixed(0)}% of the route inside Toolscope (the figure before issue 28)\n`,
      );
      const failed = t.rpc.reduce((a, r) => a + r.errors + r.non2xx, 0);
      const target = connections === 16 ? TARGETS.throughputShare16 : TARGETS.throughputShare64;
      goals.push({
        name: `throughput ≥ ${Math.round(target * 100)}% of the bare app (${connections} conns), no errors`,
        figure: `${(share * 100).toFixed(0)}%, ${failed} errors`,
        met: share >= target && failed === 0,
      });
    }
  }

  if (ONLY.has("demo-docs")) {
    const { measureDemoDocs, DEMO_DOCS_PATH } = await import("./docs-demo.ts");
    const setup = await setupProxy(app.url, upstream.url);
    const d = await measureDemoDocs(setup, app.pid, { seconds: SECONDS });
    figures.demoDocs = d;
    const m = d.mixed;
    console.log(
      `The demo's docs page (GET ${DEMO_DOCS_PATH}, ${kb(d.bytes)}): warm p50 ${ms(d.warm.p50)} (p99 ${ms(d.warm.p99)}), ` +
        `${ms(d.cpuMsPerView)} of server CPU a view; ${d.viewsPerSecond.toFixed(0)} views/s at 16 connections (${d.errors} errors)`,
    );
    console.log(
      `Mixed load, 200 connections (120 docs, 64 /api/rpc, 16 /api/health): docs p50 ${m.docs.p50} ms at ${m.docs.rps.toFixed(0)}/s, ` +
        `/api/rpc p50 ${m.rpc.p50} ms at ${m.rpc.rps.toFixed(0)}/s, health p50 ${m.health.p50} ms (p99 ${m.health.p99} ms); ` +
        `errors ${m.docs.errors + m.rpc.errors + m.health.errors}\n`,
    );
    goals.push({
      name: "demo docs page ≤ 50 ms warm (p50)",
      figure: ms(d.warm.p50),
      met: d.warm.p50 <= TARGETS.demoDocsWarmMs,
    });
    goals.push({
      name: "≥ 100 demo docs pages/s (16 conns), no errors",
      figure: `${d.viewsPerSecond.toFixed(0)}/s, ${d.errors} errors`,
      met: d.viewsPerSecond >= TARGETS.demoDocsPerSecond && d.errors === 0,
    });
  }

  if (ONLY.has("walks")) {
    const w = await measureListWalks(app.url, noTtl);
    figures.listWalks = w;
    console.log(
      `tools/list requests on a server without ttlMs: ${w.afterListing} during 20 calls right after listing; ${w.coldBurst} during 32 concurrent calls no one listed for\n`,
    );
    goals.push({ name: "no list walk for a tool just listed", figure: `${w.afterListing} tools/list`, met: w.afterListing === 0 });
    goals.push({ name: "one list walk for a cold burst of 32 calls", figure: `${w.coldBurst} tools/list`, met: w.coldBurst <= 1 });
  }

  if (ONLY.has("playground")) {
    const { measurePlayground } = await import("./playground.ts");
    const p = await measurePlayground(app.url, { runs: 3 });
    figures.playground = p;
    console.log(
      `Playground, cold, ${p.readyMs.length} runs: editor takes typing after ${p.readyMs.map((v) => v.toFixed(0)).join(" / ")} ms; ` +
        `page JS ${kb(p.jsGzipBytes)} gzip (${kb(p.jsRawBytes)} raw), largest chunk ${kb(p.largestChunkGzipBytes)} gzip (${p.largestChunkName}), fonts ${kb(p.fontBytes)}; ` +
        `home JS ${kb(p.homeJsGzipBytes)} gzip; docs load Monaco: ${p.docsLoadsMonaco ? "yes" : "no"}\n`,
    );
    const ready = median(p.readyMs);
    goals.push({
      name: "editor takes typing ≤ 700 ms (median, cold)",
      figure: `${ready.toFixed(0)} ms`,
      met: ready <= TARGETS.editorReadyMs,
    });
    goals.push({
      name: "largest playground chunk ≤ 500 KB gzip",
      figure: kb(p.largestChunkGzipBytes),
      met: p.largestChunkGzipBytes <= TARGETS.largestChunkGzipBytes,
    });
    goals.push({ name: "docs pages load no Monaco", figure: p.docsLoadsMonaco ? "Monaco loaded" : "none", met: !p.docsLoadsMonaco });
  }

  if (ONLY.has("docs")) {
    const { measureDocsPage } = await import("./docs-page.ts");
    const d = await measureDocsPage(app.url, { runs: 3 });
    figures.docs = d;
    console.log(
      `Docs for ${d.tools} tools: first view ${d.firstViewMs.map((v) => v.toFixed(0)).join(" / ")} ms, reused ${d.reuseMs.map((v) => v.toFixed(0)).join(" / ")} ms; ` +
        `HTML ${kb(d.htmlBytes)} (${kb(d.htmlGzipBytes)} gzip), RSC payload ${kb(d.rscBytes)}, total ${kb(d.totalBytes)}\n`,
    );
    const first = median(d.firstViewMs);
    goals.push({
      name: "1,000-tool docs first view ≤ 300 ms (median)",
      figure: `${first.toFixed(0)} ms`,
      met: first <= TARGETS.docsFirstViewMs,
    });
    goals.push({
      name: "1,000-tool docs weight (HTML + RSC)",
      figure: kb(d.totalBytes),
      met: d.totalBytes <= TARGETS.docsWeightBeforeBytes / 2,
    });
  }
} finally {
  await bareNext?.stop();
  await app.stop();
  await upstream.close();
  await noTtl.close();
}

console.log("Goals (issues 15 and 28)");
console.log(table([["goal", "figure", "verdict"], ...goals.map((g) => [g.name, g.figure, g.met ? "met" : "NOT MET"])]));
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ figures, goals }, null, 2));
