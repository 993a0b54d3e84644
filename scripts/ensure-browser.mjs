// Makes sure the end-to-end tests have a Chromium to drive, installing one when there is none.
//
// CLI:     node scripts/ensure-browser.mjs      (run by `npm run test:e2e` before Playwright)
// Module:  findChromium() is what playwright/browser.ts hands Playwright; decideBrowser() is the pure decision.
//
// Looked for, in order: $CHROMIUM_PATH, Debian's /usr/bin/chromium, Playwright's own (`npx playwright install
// chromium`, under ~/.cache/ms-playwright). When none is there: as root with apt-get, Debian's `chromium` package is
// installed (what CI does); otherwise `npx playwright install chromium`. TOOLSCOPE_BROWSER_INSTALL=0 turns
// installing off (the script then fails, saying what to install).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const TAG = "[ensure-browser]";
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** The Chromium named by $CHROMIUM_PATH or Debian's, when it exists; undefined means Playwright's own. */
export function findChromium(env = process.env, exists = existsSync) {
  const fromEnv = env.CHROMIUM_PATH;
  if (fromEnv && exists(fromEnv)) return fromEnv;
  return exists(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined;
}

/**
 * What to do, from what exists. Pure: every fact comes in through `facts`.
 * @param {import("./ensure-browser.d.mts").BrowserFacts} facts
 * @returns {import("./ensure-browser.d.mts").BrowserDecision}
 */
export function decideBrowser(facts) {
  const warnings = [];
  if (facts.chromiumPathEnv) {
    if (facts.exists(facts.chromiumPathEnv)) return { action: "use", source: "CHROMIUM_PATH", path: facts.chromiumPathEnv, warnings };
    warnings.push(`CHROMIUM_PATH=${facts.chromiumPathEnv} does not exist; looking elsewhere`);
  }
  if (facts.exists(DEBIAN_CHROMIUM)) return { action: "use", source: "debian", path: DEBIAN_CHROMIUM, warnings };
  if (facts.playwrightChromium && facts.playwrightChromium.every((p) => facts.exists(p))) {
    return { action: "use", source: "playwright", path: facts.playwrightChromium[0], warnings };
  }
  if (!facts.installAllowed) {
    return {
      action: "fail",
      reason:
        "no Chromium found and installing is turned off (TOOLSCOPE_BROWSER_INSTALL=0): install Debian's chromium, run `npx playwright install chromium`, or set CHROMIUM_PATH",
      warnings,
    };
  }
  if (facts.isRoot && facts.aptGet) {
    return {
      action: "install",
      via: "apt",
      command: [facts.aptGet, "install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", "chromium"],
      warnings,
    };
  }
  return { action: "install", via: "playwright", command: ["npx", "playwright", "install", "chromium"], warnings };
}

function onPath(name, env) {
  const dirs = (env.PATH ?? "").split(delimiter).concat(["/usr/sbin", "/sbin", "/usr/bin", "/bin"]);
  for (const d of dirs) {
    if (d && existsSync(join(d, name))) return join(d, name);
  }
  return undefined;
}

/**
 * Playwright's own Chromium: the full browser and the headless shell it launches by default (both come with
 * `npx playwright install chromium`). Undefined when @playwright/test cannot say.
 */
function playwrightChromium() {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require("playwright-core");
    const full = chromium.executablePath(); // <browsers>/chromium-<rev>/chrome-linux64/chrome
    const revDir = dirname(dirname(full));
    const rev = basename(revDir).replace(/^chromium-/, "");
    const shellDir = join(dirname(revDir), `chromium_headless_shell-${rev}`);
    return [full, join(shellDir, "chrome-headless-shell-linux64", "chrome-headless-shell")];
  } catch {
    return undefined;
  }
}

/** The facts decideBrowser() needs, read from this machine. */
export function browserFacts(env = process.env) {
  return {
    chromiumPathEnv: env.CHROMIUM_PATH || undefined,
    exists: existsSync,
    playwrightChromium: playwrightChromium(),
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    aptGet: onPath("apt-get", env),
    installAllowed: env.TOOLSCOPE_BROWSER_INSTALL !== "0",
  };
}

function install(decision, log) {
  const [cmd, ...args] = decision.command;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const run = (c, a) => spawnSync(c, a, { env, stdio: ["ignore", "inherit", "inherit"] }).status;
  if (decision.via === "apt") {
    log(`${TAG} no Chromium found: installing Debian's chromium (${decision.command.join(" ")})`);
    if (run(cmd, args) === 0) return true;
    log(`${TAG} apt-get install failed; refreshing the package lists once (apt-get update -qq) and retrying`);
    run(cmd, ["update", "-qq"]);
    return run(cmd, args) === 0;
  }
  log(`${TAG} no Chromium found: installing Playwright's (${decision.command.join(" ")})`);
  return run(cmd, args) === 0;
}

/** Find a Chromium or install one; returns the decision that held in the end, or throws with the reason. */
export function ensureBrowser(log = (line) => console.log(line)) {
  let decision = decideBrowser(browserFacts());
  for (const w of decision.warnings) log(`${TAG} ${w}`);
  if (decision.action === "install") {
    const command = decision.command.join(" ");
    if (!install(decision, log)) throw new Error(`${TAG} installing Chromium failed (${command})`);
    decision = decideBrowser({ ...browserFacts(), installAllowed: false });
    if (decision.action !== "use") throw new Error(`${TAG} ${command} succeeded, yet still no Chromium is found (set CHROMIUM_PATH?)`);
  }
  if (decision.action === "fail") throw new Error(`${TAG} ${decision.reason}`);
  if (decision.action !== "use") throw new Error(`${TAG} unexpected decision ${decision.action}`);
  const from = { CHROMIUM_PATH: "from CHROMIUM_PATH", debian: "Debian's", playwright: "Playwright's own" }[decision.source];
  log(`${TAG} using ${from} Chromium: ${decision.path}`);
  return decision;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    ensureBrowser();
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
