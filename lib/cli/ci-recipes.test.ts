/**
 * docs/ci.md stays true: its shell recipe and the toolscope steps of its GitHub Actions workflows run here as written
 * (extracted from the page), with the packed CLI installed from its tarball the way the page says, against
 * Toolscope's demo server over real HTTP: once with nothing changed, once with a tool gone (a breaking change).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { EXIT } from "./exit-codes.ts";
import { sarifSchemaErrors } from "./testing/sarif-schema.ts";

const PAGE = readFileSync("docs/ci.md", "utf8");

/** The fenced block that follows `<!-- ci-recipe: name -->` on the page. */
function recipe(name: string): string {
  const at = PAGE.indexOf(`<!-- ci-recipe: ${name} -->`);
  assert.ok(at >= 0, `docs/ci.md has the ${name} recipe`);
  const block = /```[a-z]*\n([\s\S]*?)\n```/.exec(PAGE.slice(at));
  assert.ok(block, `a fenced block follows the ${name} marker`);
  return block[1];
}

/** The `run:` script of the workflow step named `name` (a block scalar or one line). */
function workflowStep(yaml: string, name: string): string {
  const lines = yaml.split("\n");
  const start = lines.findIndex((l) => l.trim() === `- name: ${name}`);
  assert.ok(start >= 0, `the workflow has a step named ${JSON.stringify(name)}`);
  const stepIndent = lines[start].indexOf("-");
  for (let i = start + 1; i < lines.length && (lines[i].trim() === "" || lines[i].search(/\S/) > stepIndent); i++) {
    const m = /^(\s*)run: (.*)$/.exec(lines[i]);
    if (!m) continue;
    if (m[2] !== "|") return m[2];
    const body: string[] = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === "" || lines[j].search(/\S/) > m[1].length); j++)
      body.push(lines[j].trim());
    return body.join("\n");
  }
  assert.fail(`the step ${name} has no run:`);
}

let demo: ServedHandler;
let dir: string;
let tarball: string;

before(async () => {
  demo = await serveFetchHandler(createDemoServerHandler());
  dir = mkdtempSync(join(tmpdir(), "toolscope-ci-recipes-"));
  tarball = execFileSync(process.execPath, ["scripts/build-cli.mjs", "--pack"], { encoding: "utf8" }).trim().split("\n").at(-1)!;
});
after(async () => {
  await demo?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(tarball, { force: true });
});

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
}

/** A child process, awaited without blocking this one (the demo server answers from this process's event loop). */
function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", ...env }, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ status: err ? Number((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

/** A job's folder: the tarball where the page keeps it, and the committed snapshot (taken now, or changed). */
async function job(name: string, change?: (snapshot: { list: { tools: { name: string }[] } }) => void): Promise<string> {
  const folder = join(dir, name);
  mkdirSync(join(folder, "tools"), { recursive: true });
  writeFileSync(join(folder, "package.json"), '{ "name": "server-under-ci", "private": true }\n');
  copyFileSync(tarball, join(folder, "tools", "toolscope.tgz"));
  const installed = await run("npm", ["install", "--no-save", "--offline", "--no-audit", "--no-fund", "./tools/toolscope.tgz"], folder);
  assert.equal(installed.status, 0, installed.stderr);
  const taken = await run(join(folder, "node_modules", ".bin", "toolscope"), ["snapshot", demo.url.toString(), "-q"], folder);
  assert.equal(taken.status, 0, taken.stderr);
  const snapshot = JSON.parse(taken.stdout);
  change?.(snapshot);
  writeFileSync(join(folder, "tools.snapshot.json"), JSON.stringify(snapshot, null, 2));
  return folder;
}

const addGhostTool = (s: { list: { tools: { name: string }[] } }) => {
  s.list.tools.push({ name: "ghost_tool", inputSchema: { type: "object" } } as { name: string });
};

function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  return run("bash", ["-c", script], cwd, { MCP_URL: demo.url.toString(), npm_config_offline: "true", ...env });
}

describe("the shell recipe", () => {
  test("nothing changed: exit 0, the summary says so, the SARIF is valid", { timeout: 180_000 }, async () => {
    const cwd = await job("shell-same");
    const run = await bash(recipe("shell"), cwd);
    assert.equal(run.status, EXIT.ok, run.stdout + run.stderr);
    assert.match(readFileSync(join(cwd, "tools-diff.md"), "utf8"), /^### MCP tools: no changes/);
    assert.match(readFileSync(join(cwd, "site", "index.html"), "utf8"), /^<!doctype html>/);
    assert.deepEqual(sarifSchemaErrors(JSON.parse(readFileSync(join(cwd, "toolscope.sarif"), "utf8"))), []);
  });

  test("a tool gone from the server: exit 1 and the summary names it", { timeout: 180_000 }, async () => {
    const cwd = await job("shell-breaking", addGhostTool);
    const run = await bash(recipe("shell"), cwd);
    assert.equal(run.status, EXIT.findings, run.stdout + run.stderr);
    assert.match(run.stdout, /\| 🔴 breaking \| `ghost_tool` \| \| removed \|/);
  });
});

describe("the GitHub Actions workflow's toolscope steps", () => {
  test(
    "the diff step fails on the breaking change after writing the step summary; lint writes valid SARIF",
    { timeout: 180_000 },
    async () => {
      const yaml = recipe("github");
      const cwd = await job("github", addGhostTool);
      const summary = join(cwd, "step-summary.md");
      // The workflow names its own server's URL; here the demo stands in for it.
      assert.match(yaml, /MCP_URL: http:\/\/127\.0\.0\.1:3001\/mcp/);
      const env = { GITHUB_STEP_SUMMARY: summary, MCP_URL: demo.url.toString() };
      const install = await bash(workflowStep(yaml, "Install toolscope"), cwd, env);
      assert.equal(install.status, 0, install.stderr);
      const diff = await bash(workflowStep(yaml, "Diff the tools against the committed snapshot"), cwd, env);
      assert.equal(diff.status, EXIT.findings, diff.stdout + diff.stderr);
      assert.match(readFileSync(summary, "utf8"), /^### MCP tools: 1 breaking/);
      const lint = await bash(workflowStep(yaml, "Lint the tools"), cwd, env);
      assert.equal(lint.status, EXIT.ok, lint.stderr);
      assert.deepEqual(sarifSchemaErrors(JSON.parse(readFileSync(join(cwd, "toolscope.sarif"), "utf8"))), []);
      assert.match(workflowStep(yaml, "Comment the diff on the pull request"), /--body-file tools-diff\.md/);
    },
  );

  test("the Pages workflow writes the site of the committed snapshot", { timeout: 180_000 }, async () => {
    const yaml = recipe("pages");
    const cwd = await job("pages");
    const install = await bash(workflowStep(yaml, "Install toolscope"), cwd);
    assert.equal(install.status, 0, install.stderr);
    const site = await bash(workflowStep(yaml, "Write the docs site"), cwd);
    assert.equal(site.status, EXIT.ok, site.stderr);
    assert.match(readFileSync(join(cwd, "site", "index.html"), "utf8"), /search_issues/);
    assert.match(yaml, /path: site\n/, "the uploaded folder is the one written");
  });
});
