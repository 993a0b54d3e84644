/**
 * Benchmark: server-render time and weight of a server docs page with many tools.
 *
 *   node --conditions=react-server --import tsx scripts/bench-docs.ts [--runs 9] [--live <docs page URL>]
 *
 * Renders `ServerDocs` (overview + grouped tool index) with react-dom/server for 100, 1,000, 2,000 and 5,000
 * realistic synthetic tools and prints the median render time, the HTML size (raw and gzip) and the ratios vs
 * 100 tools. It also times the server-wide lint (`lintServer` + `LintSummary`), which the page may show.
 * With `--live`, it also fetches a real page (e.g. from `next start`) a few times and prints time and bytes;
 * that figure includes the RSC payload Next.js embeds next to the HTML.
 *
 * react-dom/server refuses to load under the react-server condition, so when started with it the script
 * re-runs itself without it (the docs components are plain server components and render the same way), with
 * NODE_ENV=production unless set, as `next start` runs.
 * Target: well under a second for 1,000 tools on a 2-core machine.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { availableParallelism, cpus } from "node:os";

const underReactServer =
  process.execArgv.some((a) => a.includes("react-server")) || (process.env.NODE_OPTIONS ?? "").includes("react-server");
if ((underReactServer || process.env.NODE_ENV === undefined) && process.env.BENCH_DOCS_CHILD !== "1") {
  // Production React, as `next start` runs it (development React is several times slower).
  const execArgv = process.execArgv.filter((a) => !a.includes("react-server"));
  const run = spawnSync(process.execPath, [...execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      BENCH_DOCS_CHILD: "1",
      NODE_ENV: process.env.NODE_ENV ?? "production",
      NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--conditions[= ]react-server/g, ""),
    },
  });
  process.exit(run.status ?? 1);
}

const { createElement } = await import("react");
const { renderToString } = await import("react-dom/server");
const { ServerDocs } = await import("../components/docs/ServerDocs.tsx");
const { LintSummary } = await import("../components/docs/LintSummary.tsx");
const { liveLinks } = await import("../lib/docs/links.ts");
const { lintServer } = await import("../lib/docs/lints.ts");
const { syntheticTools } = await import("./bench/synthetic-tools.ts");
type ServerSummary = import("../lib/mcp/contract.ts").ServerSummary;
type ToolsResponse = import("../lib/mcp/contract.ts").ToolsResponse;

const SIZES = [100, 1_000, 2_000, 5_000];
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const RUNS = Number(flag("--runs") ?? 9);
const LIVE = flag("--live");

const server: ServerSummary = {
  serverInfo: { name: "bench-server", title: "Benchmark server", version: "1.0.0" },
  era: "modern",
  protocolVersion: "2026-07-28",
  supportedVersions: ["2026-07-28", "2025-11-25"],
  capabilities: { tools: { listChanged: true } },
  instructions: "A synthetic server for the docs benchmark.",
  displayUrl: "https://bench.example/mcp",
};
const links = liveLinks("https://bench.example/mcp");

function list(n: number): ToolsResponse {
  return {
    tools: syntheticTools(n),
    excluded: [],
    ttlMs: 300_000,
    cacheScope: "public",
    fetchedAt: new Date().toISOString(),
    pages: Math.ceil(n / 100),
    warnings: [],
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
const kb = (x: number) => `${(x / 1024).toFixed(0)} KiB`;

console.log(
  `bench-docs: Node ${process.version}, ${availableParallelism()} CPU(s) (${cpus()[0]?.model ?? "?"}), ${RUNS} runs per size (median), NODE_ENV=${process.env.NODE_ENV ?? "unset"}`,
);
console.log("");
console.log("tools  | ServerDocs render | HTML       | gzip     | time ×100 | bytes ×100 | lintServer | LintSummary render");
console.log("-------|-------------------|------------|----------|-----------|------------|------------|-------------------");
let base: { t: number; bytes: number } | undefined;
const results: Record<number, number> = {};
for (const n of SIZES) {
  const l = list(n);
  const el = createElement(ServerDocs, { server, list: l, links, query: {} });
  const runs = n >= 5_000 ? Math.max(3, Math.ceil(RUNS / 3)) : RUNS;
  renderToString(el); // warm-up (module init, JIT)
  const times: number[] = [];
  let html = "";
  for (let r = 0; r < runs; r++) {
    const [out, t] = time(() => renderToString(el));
    html = out;
    times.push(t);
  }
  const t = median(times);
  results[n] = t;
  const bytes = Buffer.byteLength(html);
  const gz = gzipSync(html).length;
  base ??= { t, bytes };
  const lintTimes: number[] = [];
  const summaryTimes: number[] = [];
  for (let r = 0; r < Math.min(runs, 5); r++) {
    const [lint, lt] = time(() => lintServer(l.tools, { ttlMs: l.ttlMs, cacheScope: l.cacheScope }));
    lintTimes.push(lt);
    summaryTimes.push(time(() => renderToString(createElement(LintSummary, { lint, links })))[1]);
  }
  console.log(
    `${String(n).padStart(6)} | ${ms(t).padStart(17)} | ${kb(bytes).padStart(10)} | ${kb(gz).padStart(8)} | ${(t / base.t).toFixed(1).padStart(8)}× | ${(bytes / base.bytes).toFixed(1).padStart(9)}× | ${ms(median(lintTimes)).padStart(10)} | ${ms(median(summaryTimes)).padStart(10)}`,
  );
}
console.log("");
console.log(`1,000 tools: ${ms(results[1_000])} median server render — ${results[1_000] < 1_000 ? "within" : "OVER"} the 1 s budget.`);

if (LIVE) {
  console.log("");
  console.log(`live page: ${LIVE}`);
  const times: number[] = [];
  let body = new Uint8Array(0);
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    const res = await fetch(LIVE, { headers: { "accept-encoding": "identity" } });
    body = new Uint8Array(await res.arrayBuffer());
    times.push(performance.now() - t);
    if (!res.ok) console.log(`  HTTP ${res.status}`);
  }
  console.log(
    `  first fetch ${ms(times[0])} (fetches the upstream list), then median ${ms(median(times.slice(1)))} (snapshot reused); ${kb(body.byteLength)} (HTML + RSC payload), gzip ${kb(gzipSync(body).length)}`,
  );
}
