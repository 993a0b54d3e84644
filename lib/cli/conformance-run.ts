/**
 * Runs the official MCP conformance suite (`@modelcontextprotocol/conformance`, its `server` command) against a
 * server and reads its results. The suite is not bundled: it is found where the project installed it (or where
 * `--suite-path` says), and run on a Node it accepts (22 or later: this one, or `--node`). Its output goes to stderr
 * as progress; the whole run is bounded in time, and each result file in size.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { CliError, EXIT, usageError } from "./exit-codes.ts";
import type { ConformanceCheck, ScenarioResult } from "./conformance-report.ts";

/** The whole suite run, at most (each scenario has its own `--timeout` inside it). */
export const CONFORMANCE_MAX_MS = 15 * 60_000;
/** A scenario's checks.json, at most. */
const MAX_CHECKS_BYTES = 8 * 1024 * 1024;
const PACKAGE = "@modelcontextprotocol/conformance";

/** The suite's entry script: `--suite-path` (its folder or script), else the package as resolved from `from`. */
export function findSuite(suitePath: string | undefined, from: string): string {
  if (suitePath !== undefined) {
    const p = resolve(suitePath);
    const script = existsSync(p) && statSync(p).isDirectory() ? join(p, "dist", "index.js") : p;
    if (!existsSync(script)) throw usageError(`--suite-path ${suitePath}: no conformance suite there (looked for ${script}).`);
    return script;
  }
  try {
    const pkg = createRequire(join(resolve(from), "noop.js")).resolve(`${PACKAGE}/package.json`);
    return join(dirname(pkg), "dist", "index.js");
  } catch {
    throw usageError(
      `The conformance suite (${PACKAGE}) is not installed here.`,
      `Install it beside your project (npm install --no-save ${PACKAGE}), or name its folder with --suite-path.`,
    );
  }
}

/** A Node the suite runs on: `--node`, else this one when it is 22 or later. */
export function suiteNode(nodePath: string | undefined): string {
  if (nodePath !== undefined) {
    if (!existsSync(nodePath)) throw usageError(`--node ${nodePath}: no such file.`);
    return nodePath;
  }
  const major = Number(process.versions.node.split(".")[0]);
  if (major >= 22) return process.execPath;
  throw usageError(
    `The conformance suite needs Node 22 or later; this is Node ${process.versions.node}.`,
    "Run toolscope on Node 22+, or name a Node 22+ binary with --node.",
  );
}

export interface SuiteOptions {
  node: string;
  script: string;
  url: string;
  specVersion?: string;
  scenarios: string[];
  suite?: string;
  timeoutMs: number;
  /** Progress lines (the suite's own output). */
  progress: (line: string) => void;
}

/** Run the suite and read every scenario's checks. */
export async function runSuite(o: SuiteOptions): Promise<ScenarioResult[]> {
  const out = mkdtempSync(join(tmpdir(), "toolscope-conformance-"));
  try {
    const runs = o.scenarios.length ? o.scenarios : [undefined];
    for (const scenario of runs) {
      const args = [o.script, "server", "--url", o.url, "-o", out, "--timeout", String(o.timeoutMs)];
      if (o.specVersion) args.push("--spec-version", o.specVersion);
      if (scenario) args.push("--scenario", scenario);
      if (o.suite && !scenario) args.push("--suite", o.suite);
      await runChild(o.node, args, o.progress);
    }
    return readResults(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function runChild(node: string, args: string[], progress: (line: string) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let pending = "";
    const onData = (d: Buffer) => {
      pending += d.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.trim()) progress(line);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const timer = setTimeout(() => child.kill("SIGKILL"), CONFORMANCE_MAX_MS);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(new CliError(EXIT.internal, `The conformance suite did not start: ${err.message}`));
    });
    // The suite exits 1 when a check failed: the results say so; only a missing result is an error (readResults).
    child.on("close", (_code, signal) => {
      clearTimeout(timer);
      if (signal === "SIGKILL")
        reject(new CliError(EXIT.unreachable, `The conformance suite did not finish within ${CONFORMANCE_MAX_MS / 60_000} min.`));
      else resolvePromise();
    });
  });
}

/** `server-<scenario>-<ISO time>` folders, each with a checks.json. */
function readResults(dir: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const m = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry);
    const file = join(dir, entry, "checks.json");
    if (!m || !existsSync(file)) continue;
    if (statSync(file).size > MAX_CHECKS_BYTES)
      throw new CliError(EXIT.protocol, `${m[1]}: its results are over ${MAX_CHECKS_BYTES} bytes.`);
    const checks = JSON.parse(readFileSync(file, "utf8")) as ConformanceCheck[];
    results.push({ scenario: m[1], checks: Array.isArray(checks) ? checks : [] });
  }
  if (results.length === 0)
    throw new CliError(
      EXIT.unreachable,
      "The conformance suite wrote no results (see its output above): is the server running at that URL?",
    );
  return results;
}
