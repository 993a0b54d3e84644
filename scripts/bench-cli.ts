/**
 * Benchmark: the command line on a 1,000-tool snapshot, end to end as a pipeline runs it (a child process each time,
 * start-up included), beside the floor of starting Node and doing nothing.
 *
 *   node --import tsx scripts/bench-cli.ts [--tools 1000] [--runs 5]
 *
 * Prints the median wall time of `toolscope --version`, `lint` (text and SARIF) and `diff` (two snapshots with a
 * change in every tenth tool) and `docs` (the static site), each beside `node -e 0`, for the packed CLI's bundle (built first with
 * scripts/build-cli.mjs) and for `bin/toolscope.mjs` from a clone (TypeScript through tsx). Goals (issue 30): lint
 * and diff ≤ 1.5 s, docs ≤ 10 s.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { syntheticTools } from "./bench/synthetic-tools.ts";
import { SNAPSHOT_FORMAT, snapshotText, type SnapshotFile } from "../lib/cli/snapshot-file.ts";

const flag = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TOOLS = flag("--tools", 1000);
const RUNS = flag("--runs", 5);
const GOAL_MS = 1500;
const DOCS_GOAL_MS = 10_000;

const dir = mkdtempSync(join(tmpdir(), "toolscope-bench-cli-"));
try {
  const tools = syntheticTools(TOOLS);
  const snapshot = (list: typeof tools): SnapshotFile => ({
    format: SNAPSHOT_FORMAT,
    source: "https://bench.example/mcp",
    server: { era: "modern", protocolVersion: "2026-07-28", capabilities: { tools: {} }, serverInfo: { name: "bench", version: "1.0.0" } },
    list: { tools: list, excluded: [], ttlMs: 60_000, cacheScope: "public" },
    prompts: [],
    resources: [],
    resourceTemplates: [],
  });
  const before = join(dir, "before.json");
  const after = join(dir, "after.json");
  writeFileSync(before, snapshotText(snapshot(tools)));
  // Every tenth tool gains a required parameter (breaking) and a new description.
  const changed = tools.map((t, i) =>
    i % 10 === 0
      ? {
          ...t,
          description: `${t.description ?? ""} Changed.`,
          inputSchema: {
            ...t.inputSchema,
            required: [...((t.inputSchema.required as string[] | undefined) ?? []), "added"],
            properties: { ...(t.inputSchema.properties as object), added: { type: "string" } },
          },
        }
      : t,
  );
  writeFileSync(after, snapshotText(snapshot(changed)));

  execFileSync(process.execPath, ["scripts/build-cli.mjs"], { stdio: "ignore" });
  const time = (args: string[], bin: string | null) => {
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      try {
        execFileSync(process.execPath, bin ? [bin, ...args] : args, { stdio: "ignore", env: { ...process.env, NODE_OPTIONS: "" } });
      } catch (err) {
        // Findings exit 1: that is a result, not a failure of the run.
        if ((err as { status?: number }).status !== 1) throw err;
      }
      runs.push(performance.now() - t0);
    }
    runs.sort((a, b) => a - b);
    return Math.round(runs[Math.floor(runs.length / 2)]);
  };

  const floor = time(["-e", "0"], null);
  console.log(`toolscope CLI bench — Node ${process.version}, median of ${RUNS} runs, a child process each`);
  console.log(`floor: node -e 0  ${floor} ms`);
  for (const [label, bin] of [
    ["packed (cli/dist/toolscope.mjs)", "cli/dist/toolscope.mjs"],
    ["from a clone (bin/toolscope.mjs, tsx)", "bin/toolscope.mjs"],
  ] as const) {
    console.log(label);
    const rows: [string, number, boolean][] = [
      ["toolscope --version", time(["--version"], bin), false],
      [`lint (${TOOLS} tools, text)`, time(["lint", before], bin), true],
      [`lint (${TOOLS} tools, sarif)`, time(["lint", before, "--format", "sarif"], bin), true],
      [`diff (${TOOLS} tools, ${Math.ceil(TOOLS / 10)} changed)`, time(["diff", before, after], bin), true],
      [`diff --format markdown`, time(["diff", before, after, "--format", "markdown"], bin), true],
      [`docs (${TOOLS} tools: ${TOOLS + 1} pages)`, time(["docs", before, "--out", join(dir, "site")], bin), true],
    ];
    for (const [name, ms, goal] of rows) {
      const bound = name.startsWith("docs") ? DOCS_GOAL_MS : GOAL_MS;
      console.log(
        `  ${name.padEnd(34)} ${String(ms).padStart(5)} ms  (${ms - floor} ms over the floor)${goal ? `  goal ≤ ${bound} ms: ${ms <= bound ? "met" : "NOT met"}` : ""}`,
      );
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
