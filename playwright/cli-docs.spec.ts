import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "./test";
import { expectClean, watch } from "./fixtures/hostile-dom";

/**
 * `toolscope docs`: the static site the command line writes, opened from file:// in Chromium with no Toolscope
 * behind it: the demo (through this instance's demo endpoint), the published server-everything, and the hostile
 * server, whose definitions must run nothing there either. Screens: test-results/cli-docs/, light and dark, 1280 and
 * 400 px.
 */
const SCREENS = "test-results/cli-docs";
const dir = mkdtempSync(join(tmpdir(), "toolscope-site-"));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function toolscopeDocs(server: string, out: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", "docs", server, "--out", out, "--timeout", "20000"],
      { env: { ...process.env, NODE_OPTIONS: "" } },
      (err, _o, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? -1) : 0, stderr }),
    );
  });
}

async function site(name: string, server: string): Promise<string> {
  const out = join(dir, name);
  const run = await toolscopeDocs(server, out);
  expect(run.code, run.stderr).toBe(0);
  return out;
}

const fileUrl = (folder: string, file: string) => pathToFileURL(join(folder, file)).toString();

async function shoot(page: import("@playwright/test").Page, name: string) {
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    for (const dark of [false, true]) {
      await page.evaluate((d) => document.documentElement.classList.toggle("dark", d), dark);
      await page.screenshot({ path: `${SCREENS}/${name}-${width}-${dark ? "dark" : "light"}.png` });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("toolscope docs: a static site from file://", () => {
  test("the demo: every page written, relative links that resolve, search and the sidebar filter, the theme switch", async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const out = await site("demo", `${baseURL}/api/demo/mcp`);
    const files = readdirSync(out);
    expect(files).toContain("index.html");
    expect(files).toContain("toolscope.css");
    const w = watch(page);
    await page.goto(fileUrl(out, "index.html"));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Toolscope demo");
    const rows = page.locator('[data-testid^="tool-row-"]');
    const total = await rows.count();
    expect(total).toBeGreaterThan(10);
    expect(files.filter((f) => f.startsWith("tool-")).length).toBe(total);
    // No playground, no Try it: nothing here is live.
    await expect(page.getByTestId("open-in-playground")).toHaveCount(0);
    // Every link is relative and names a file that was written.
    const hrefs = await page.locator("a[href]").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
    for (const href of hrefs.filter((h) => !h.startsWith("#") && !/^https?:/.test(h)))
      expect(existsSync(join(out, href.split("#")[0])), href).toBe(true);

    // The index search (the web index's rule) and the sidebar filter, by keyboard.
    await page.locator("#tool-search").focus();
    await page.keyboard.type("basket");
    await expect(page.getByTestId("tool-count")).toHaveText(`(3 of ${total})`);
    await expect(rows.filter({ visible: true })).toHaveCount(3);
    await page.locator("#sidebar-search").fill("close");
    await expect(page.locator("a[data-sidebar-link]").filter({ visible: true })).toHaveCount(2);
    await page.keyboard.press("Escape");
    await expect(page.locator("a[data-sidebar-link]").filter({ visible: true })).toHaveCount(total);
    await page.locator("#tool-search").fill("");
    await shoot(page, "demo-index");

    // The theme switch, remembered across pages.
    await page.getByTestId("theme-toggle").click();
    await page.getByTestId("tool-row-search_issues").getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Search issues");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await expect(page.getByTestId("try-it-static")).toBeVisible();
    await expect(page.getByTestId("tool-lints")).toBeVisible();
    await page.evaluate(() => localStorage.removeItem("toolscope.theme"));
    await shoot(page, "demo-tool");
    await expectClean(page, w);
  });

  test("server-everything (published): its tools, resources and prompts' server, rendered", async ({ page }) => {
    test.setTimeout(120_000);
    const out = await site("everything", process.env.EVERYTHING_URL!);
    await page.goto(fileUrl(out, "index.html"));
    await expect(page.getByTestId("tool-row-echo")).toBeVisible();
    await shoot(page, "everything-index");
    await page.getByTestId("tool-row-echo").getByRole("link").first().click();
    await expect(page.getByTestId("input-schema")).toContainText("message");
    await shoot(page, "everything-tool");
  });

  test("a hostile server's site runs nothing from a definition: no script, handler, dialog or request", async ({ page }) => {
    test.setTimeout(180_000);
    const out = await site("hostile", process.env.HOSTILE_URL!);
    const index = readFileSync(join(out, "index.html"), "utf8");
    // The pages' policy lets only the site's own scripts run.
    expect(index).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#x27;none&#x27;; script-src &#x27;sha256-/);
    const w = watch(page);
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/.test(m.text())) violations.push(m.text());
    });
    await page.goto(fileUrl(out, "index.html"));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectClean(page, w);
    const xss = readdirSync(out).find((f) => f.startsWith("tool-xss_everywhere"));
    expect(xss).toBeTruthy();
    await page.goto(fileUrl(out, xss!));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("<script>alert(1)</script> Evil title");
    await expect(page.getByTestId("input-schema")).toContainText("<img src=x onerror=window.__pwned=1>");
    await expectClean(page, w);
    await shoot(page, "hostile-tool");
    // Nothing a definition carried was even tried: the only refusals the policy logged are remote icons, if any.
    expect(violations.filter((v) => !/img-src/.test(v))).toEqual([]);
  });
});
