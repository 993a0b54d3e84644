import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { test } from "node:test";
import { browserFacts, decideBrowser, DEBIAN_CHROMIUM, ensureBrowser, findChromium, type BrowserFacts } from "./ensure-browser.mjs";

const PW = [
  "/root/.cache/ms-playwright/chromium-1/chrome-linux64/chrome",
  "/root/.cache/ms-playwright/chromium_headless_shell-1/chrome-headless-shell-linux64/chrome-headless-shell",
];

/** Facts for a machine holding exactly `present`. */
function facts(present: string[], over: Partial<BrowserFacts> = {}): BrowserFacts {
  const have = new Set(present);
  return {
    chromiumPathEnv: undefined,
    exists: (p) => have.has(p),
    playwrightChromium: PW,
    isRoot: false,
    aptGet: undefined,
    installAllowed: true,
    ...over,
  };
}

test("CHROMIUM_PATH comes first when it exists", () => {
  const d = decideBrowser(facts(["/opt/chrome", DEBIAN_CHROMIUM, ...PW], { chromiumPathEnv: "/opt/chrome" }));
  assert.deepEqual(d, { action: "use", source: "CHROMIUM_PATH", path: "/opt/chrome", warnings: [] });
});

test("a CHROMIUM_PATH that does not exist is reported, and Debian's is used", () => {
  const d = decideBrowser(facts([DEBIAN_CHROMIUM], { chromiumPathEnv: "/nope/chrome" }));
  assert.equal(d.action, "use");
  assert.equal(d.action === "use" && d.source, "debian");
  assert.deepEqual(d.warnings, ["CHROMIUM_PATH=/nope/chrome does not exist; looking elsewhere"]);
});

test("Debian's chromium before Playwright's own", () => {
  assert.deepEqual(decideBrowser(facts([DEBIAN_CHROMIUM, ...PW])), {
    action: "use",
    source: "debian",
    path: DEBIAN_CHROMIUM,
    warnings: [],
  });
});

test("Playwright's own counts only with its headless shell", () => {
  assert.deepEqual(decideBrowser(facts(PW)), { action: "use", source: "playwright", path: PW[0], warnings: [] });
  const half = decideBrowser(facts([PW[0]]));
  assert.equal(half.action, "install");
  assert.equal(half.action === "install" && half.via, "playwright");
});

test("none found, root with apt-get: Debian's chromium package", () => {
  const d = decideBrowser(facts([], { isRoot: true, aptGet: "/usr/bin/apt-get" }));
  assert.equal(d.action, "install");
  assert.equal(d.action === "install" && d.via, "apt");
  assert.deepEqual(d.action === "install" && [d.command[0], d.command[1], d.command.at(-1)], ["/usr/bin/apt-get", "install", "chromium"]);
});

test("none found, not root or no apt-get: npx playwright install chromium", () => {
  for (const over of [
    { isRoot: false, aptGet: "/usr/bin/apt-get" },
    { isRoot: true, aptGet: undefined },
  ]) {
    assert.deepEqual(decideBrowser(facts([], over)), {
      action: "install",
      via: "playwright",
      command: ["npx", "playwright", "install", "chromium"],
      warnings: [],
    });
  }
  // Playwright unable to say where its browser lives counts as absent.
  assert.equal(decideBrowser(facts([], { playwrightChromium: undefined })).action, "install");
});

test("none found with installing turned off: a failure naming what to install", () => {
  const d = decideBrowser(facts([], { isRoot: true, aptGet: "/usr/bin/apt-get", installAllowed: false }));
  assert.equal(d.action, "fail");
  assert.match(d.action === "fail" ? d.reason : "", /TOOLSCOPE_BROWSER_INSTALL=0.*chromium.*CHROMIUM_PATH/);
});

test("findChromium (what playwright.config.ts uses) follows the same order", () => {
  const has =
    (...p: string[]) =>
    (q: string) =>
      p.includes(q);
  assert.equal(findChromium({ CHROMIUM_PATH: "/opt/c" }, has("/opt/c", DEBIAN_CHROMIUM)), "/opt/c");
  assert.equal(findChromium({ CHROMIUM_PATH: "/opt/c" }, has(DEBIAN_CHROMIUM)), DEBIAN_CHROMIUM);
  assert.equal(findChromium({}, has()), undefined);
});

test("this machine: the browser found is one that exists, and nothing is installed for it", (t) => {
  const d = decideBrowser({ ...browserFacts(), installAllowed: false });
  if (d.action !== "use") return t.skip("no Chromium on this machine (npm run test:e2e would install one)");
  const lines: string[] = [];
  const used = ensureBrowser((l) => lines.push(l));
  assert.deepEqual(used, d);
  assert.ok(existsSync(used.path));
  assert.equal(lines.filter((l) => /installing/.test(l)).length, 0, lines.join("\n"));
  assert.match(lines.at(-1) ?? "", /using .* Chromium: \//);
});
