/**
 * The packed CLI installs on its own: `npm run cli:pack` builds the bundle and the tarball, an empty folder installs
 * it with npm offline (the package has no dependencies), and the installed `toolscope` lints a snapshot without the
 * repository, a build or the web app. The install's time and size and the start-up time are printed as diagnostics.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { syntheticTools } from "@/scripts/bench/synthetic-tools";
import { SNAPSHOT_FORMAT, snapshotText } from "./snapshot-file.ts";
import { EXIT } from "./exit-codes.ts";

const dir = mkdtempSync(join(tmpdir(), "toolscope-packed-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function sizeOf(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, f) => n + sizeOf(join(path, f)), 0);
}

test("npm pack of the CLI installs into an empty folder offline and lints a snapshot there", { timeout: 180_000 }, (t) => {
  const tarball = execFileSync(process.execPath, ["scripts/build-cli.mjs", "--pack"], { encoding: "utf8" }).trim().split("\n").at(-1)!;
  const app = join(dir, "app");
  execFileSync("mkdir", ["-p", app]);
  writeFileSync(join(app, "package.json"), '{ "name": "ci-job", "private": true }\n');
  const t0 = performance.now();
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", tarball], { cwd: app, stdio: "pipe" });
  const installMs = performance.now() - t0;
  const installed = join(app, "node_modules", "toolscope");
  assert.deepEqual(
    readdirSync(join(app, "node_modules")).sort(),
    [".bin", ".package-lock.json", "toolscope"],
    "no dependencies come with it",
  );

  const snapshot = join(dir, "tools.snapshot.json");
  writeFileSync(
    snapshot,
    snapshotText({
      format: SNAPSHOT_FORMAT,
      source: "https://example.com/mcp",
      server: { era: "modern", protocolVersion: "2026-07-28", capabilities: { tools: {} } },
      list: { tools: syntheticTools(20), excluded: [] },
      prompts: [],
      resources: [],
      resourceTemplates: [],
    }),
  );
  const bin = join(app, "node_modules", ".bin", "toolscope");
  const s0 = performance.now();
  const version = spawnSync(bin, ["--version"], { encoding: "utf8", cwd: app });
  const startMs = performance.now() - s0;
  assert.equal(version.status, EXIT.ok, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);

  const lint = spawnSync(bin, ["lint", snapshot, "--format", "json", "--fail-on", "never"], { encoding: "utf8", cwd: app });
  assert.equal(lint.status, EXIT.ok, lint.stderr);
  const report = JSON.parse(lint.stdout);
  assert.equal(typeof report.summary.total, "number");
  const bad = spawnSync(bin, ["lint", join(dir, "missing.json")], { encoding: "utf8", cwd: app });
  assert.equal(bad.status, EXIT.usage);
  assert.match(bad.stderr, /no such file/);

  t.diagnostic(
    `tarball ${(statSync(tarball).size / 1024).toFixed(0)} KB; installed ${(sizeOf(installed) / 1024).toFixed(0)} KB in ${Math.round(installMs)} ms; --version ${Math.round(startMs)} ms`,
  );
  rmSync(tarball, { force: true });
});
