// Installs test-tools/ (see scripts/test-tools.mjs) when it is missing or its lock file changed since it was
// installed, saying so; does nothing otherwise. Run by the test commands before the tests that use the tools.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import path from "node:path";
import { TEST_TOOLS_DIR } from "./test-tools.mjs";

const lock = path.join(TEST_TOOLS_DIR, "package-lock.json");
const stamp = path.join(TEST_TOOLS_DIR, "node_modules", ".toolscope-installed");
const want = createHash("sha256").update(readFileSync(lock)).digest("hex");
if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) process.exit(0);

console.log("[toolscope] installing the test tools (test-tools/: the MCP conformance suite, an OAuth server, schema checkers, Node 22)…");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const r = spawnSync(npm, ["ci", "--prefix", TEST_TOOLS_DIR, "--no-audit", "--no-fund", "--loglevel=error"], { stdio: "inherit" });
if (r.status !== 0) {
  console.error("[toolscope] could not install test-tools/: see npm's message above.");
  process.exit(r.status ?? 1);
}
writeFileSync(stamp, want);
