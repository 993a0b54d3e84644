import { mkdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { expect, test } from "./test";
import type { APIRequestContext, Page } from "@playwright/test";
import { forbidExternalRequests } from "./helpers";

/**
 * Docs navigation: the tool sidebar, the filter that applies without a reload, "Open in playground", Try it on the
 * tool page, the docs defects fixed with them, and the weight of the docs pages' JavaScript. Screenshots go to
 * $DOCS_NAV_SHOTS (default test-results/docs-navigation).
 */
const SHOTS = process.env.DOCS_NAV_SHOTS ?? "test-results/docs-navigation";
/** Docs pages ship at most this much JavaScript, gzipped. */
const JS_BUDGET_GZIP_BYTES = 160 * 1024;

const serverPage = "/docs?server=builtin%3Ademo";
const toolPage = (name: string) => `/docs/tools/${encodeURIComponent(name)}?server=builtin%3Ademo`;

/** Console errors of a page (a failing test lists them). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

/** A permanent snapshot of the demo's docs, as Share makes one. */
async function demoSnapshot(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/snapshots", { data: { server: "builtin:demo" } });
  expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { id: string }).id;
}

/** Scroll to Try it, which loads its form (and the schema checks) when the reader gets there. */
async function openTryIt(page: Page) {
  await page.getByTestId("try-it-card").scrollIntoViewIfNeeded();
  await expect(page.getByTestId("try-it")).toBeVisible();
}

/** Screenshots of a page at 1280 and 400 px, light and dark. */
async function shoot(page: Page, url: string, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url);
      await expect(page.getByTestId("tool-sidebar")).toBeAttached();
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe("docs sidebar", () => {
  test("lists every tool with markers, marks the current one, and its search filters it as you type", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(toolPage("search_issues"));
    const sidebar = page.getByTestId("tool-sidebar");
    await expect(sidebar).toBeVisible();
    const links = sidebar.locator("a[data-sidebar-link]");
    const total = await links.count();
    expect(total).toBeGreaterThan(5);
    // The same tools as the server page's index, in the same order.
    const current = sidebar.locator('a[aria-current="page"]');
    await expect(current).toHaveCount(1);
    await expect(current).toContainText("Search issues");
    await expect(current).toHaveAttribute("href", toolPage("search_issues"));
    // Behaviour markers, named for screen readers.
    await expect(current.locator("abbr")).toHaveAttribute("title", "read-only");
    await expect(
      sidebar
        .getByRole("link", { name: /Delete issue/ })
        .locator("abbr")
        .first(),
    ).toHaveAttribute("title", "destructive");

    const search = page.getByLabel("Find a tool");
    await search.fill("delete");
    await expect(links).toHaveCount(1);
    await expect(links.first()).toContainText("Delete issue");
    await search.fill("no such tool at all");
    await expect(page.getByTestId("sidebar-empty")).toContainText("No tool matches");
    await search.press("Escape");
    await expect(search).toHaveValue("");
    await expect(links).toHaveCount(total);

    // It stays in view while the page scrolls (sticky), and scrolls on its own.
    await page.mouse.wheel(0, 3000);
    await expect(search).toBeInViewport();
    expect(errors).toEqual([]);
  });

  test("keyboard: ↓ from the search into the list, ↑/↓ between tools, Enter opens one; focus is visible", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(serverPage);
    const search = page.getByLabel("Find a tool");
    await search.focus();
    await search.pressSequentially("issue");
    await search.press("ArrowDown");
    const sidebar = page.getByTestId("tool-sidebar");
    const first = sidebar.locator("a[data-sidebar-link]").first();
    await expect(first).toBeFocused();
    const outline = await first.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline, "a visible focus ring").not.toBe("none");
    await page.keyboard.press("ArrowDown");
    const second = sidebar.locator("a[data-sidebar-link]").nth(1);
    await expect(second).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(first).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await expect(search).toBeFocused();
    await page.keyboard.press("ArrowDown");
    const href = await first.getAttribute("href");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(href!);
    await expect(page.getByTestId("tool-sidebar").locator('a[aria-current="page"]')).toHaveAttribute("href", href!);
  });

  test("on a narrow screen it is a Tools disclosure above the content", async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto(toolPage("search_issues"));
    const toggle = page.getByTestId("sidebar-toggle");
    await expect(toggle).toBeVisible();
    await expect(toggle).toContainText("Tools");
    await expect(page.getByLabel("Find a tool")).toBeHidden();
    const toggleBox = (await toggle.boundingBox())!;
    const headingBox = (await page.getByRole("heading", { level: 1 }).boundingBox())!;
    expect(toggleBox.y).toBeLessThan(headingBox.y);
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Find a tool")).toBeVisible();
    await expect(page.getByTestId("tool-sidebar").locator('a[aria-current="page"]')).toBeVisible();
    // Nothing sticks out sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  });

  test("snapshot pages have it too, with links inside the snapshot", async ({ page, request }) => {
    const id = await demoSnapshot(request);
    await page.goto(`/s/${id}/tools/search_issues`);
    const current = page.getByTestId("tool-sidebar").locator('a[aria-current="page"]');
    await expect(current).toHaveAttribute("href", `/s/${id}/tools/search_issues`);
  });

  test("screenshots: server and tool pages, 1280 and 400 px, light and dark", async ({ page }) => {
    test.setTimeout(120_000);
    const errors = consoleErrors(page);
    await shoot(page, serverPage, "server");
    await shoot(page, toolPage("search_issues"), "tool");
    expect(errors).toEqual([]);
  });
});

test.describe("filter as you type", () => {
  test("text and behaviour filter the index in the browser, with the URL kept in sync and no navigation", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto(serverPage);
    const rows = page.locator('[data-testid="tool-index"] [data-testid^="tool-row-"]');
    const total = await rows.count();
    await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 42));
    // replaceState is a same-document navigation; a reload or a GET of the form would request a document.
    let documents = 0;
    page.on("request", (r) => {
      if (r.resourceType() === "document") documents++;
    });

    await page.getByLabel("Search tools").pressSequentially("delete_issue");
    await expect(page.getByTestId("tool-row-delete_issue")).toBeVisible();
    await expect(page.getByTestId("tool-row-search_issues")).toHaveCount(0);
    const shown = await rows.count();
    expect(shown).toBeLessThan(total);
    await expect(page.getByTestId("tool-count")).toHaveText(`(${shown} of ${total})`);
    await expect(page).toHaveURL(/[?&]q=delete_issue(&|$)/);
    await expect(page).toHaveURL(/server=builtin%3Ademo/);

    await page.getByLabel("Search tools").fill("");
    await page.getByLabel("Behaviour").selectOption("read-only");
    await expect(page).toHaveURL(/behaviour=read-only/);
    await expect(page).not.toHaveURL(/[?&]q=/);
    await expect(page.getByTestId("tool-row-search_issues")).toBeVisible();
    await expect(page.getByTestId("tool-row-delete_issue")).toHaveCount(0);
    // Enter in the box and the Filter button apply it too, without a reload.
    await page.getByLabel("Search tools").press("Enter");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByLabel("Behaviour").selectOption("");
    await expect(rows).toHaveCount(total);
    await expect(page).not.toHaveURL(/behaviour=/);

    expect(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload)).toBe(42);
    expect(documents).toBe(0);
    expect(errors).toEqual([]);
  });

  test("a filtered link renders filtered from the server (first paint right), and the form works without JavaScript", async ({
    browser,
    request,
  }) => {
    const html = await (await request.get(`${serverPage}&q=delete`)).text();
    expect(html).toContain('data-testid="tool-row-delete_issue"');
    expect(html).not.toContain('data-testid="tool-row-search_issues"');
    expect(html).toContain('value="delete"');

    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const page = await noJs.newPage();
    await page.goto(serverPage);
    await page.getByLabel("Search tools").fill("search");
    await page.getByLabel("Behaviour").selectOption("read-only");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/\/docs\?server=builtin%3Ademo&q=search&behaviour=read-only/);
    await expect(page.getByTestId("tool-row-search_issues")).toBeVisible();
    await expect(page.getByTestId("tool-row-delete_issue")).toHaveCount(0);
    await noJs.close();
  });
});

test.describe("Open in playground", () => {
  test("on the server page (the server) and on each tool page (a tools/call of the tool)", async ({ page }) => {
    await page.goto(serverPage);
    await expect(page.getByTestId("open-in-playground")).toHaveAttribute("href", "/playground?server=builtin%3Ademo");
    await page.goto(toolPage("search_issues"));
    const link = page.getByTestId("open-in-playground");
    await expect(link).toHaveAttribute("href", "/playground?server=builtin%3Ademo&tool=search_issues");
    await link.click();
    await expect(page).toHaveURL(/\/playground\?server=builtin%3Ademo/);
  });
});

test.describe("Try it on the tool page", () => {
  test("fill the form, Send, and see the rendered result without leaving the docs", async ({ page }) => {
    const errors = consoleErrors(page);
    const external = forbidExternalRequests(page);
    await page.goto(toolPage("search_issues"));
    await openTryIt(page);
    const tryIt = page.getByTestId("try-it");
    // The form generated from the inputSchema, prefilled with the example call's arguments.
    await tryIt.getByLabel(/^query/).fill("e");
    await tryIt.getByLabel(/^limit/).fill("2");
    await tryIt.getByRole("button", { name: "Send" }).click();
    const result = page.getByTestId("try-it-result");
    await expect(result.getByTestId("rendered-result")).toBeVisible();
    await expect(result.getByTestId("output-verdict")).toHaveText("matches outputSchema");
    await expect(page).toHaveURL(toolPage("search_issues"));
    mkdirSync(SHOTS, { recursive: true });
    for (const scheme of ["light", "dark"] as const) {
      // The theme is a class on <html> (set before paint, or by the theme toggle): switch it as the toggle does.
      await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
      await page.getByTestId("try-it-card").screenshot({ path: `${SHOTS}/try-it-result-${scheme}.png` });
    }
    expect(external).toEqual([]);
    expect(errors).toEqual([]);
  });

  test("arguments that break the input schema block Send with a message naming them", async ({ page }) => {
    await page.goto(toolPage("search_issues"));
    await openTryIt(page);
    let calls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/rpc") && (r.postData() ?? "").includes('"tools/call"')) calls++;
    });
    const tryIt = page.getByTestId("try-it");
    await tryIt.getByLabel(/^limit/).fill("0");
    await tryIt.getByRole("button", { name: "Send" }).click();
    const problems = page.getByTestId("try-it-problems");
    await expect(problems).toContainText("Not sent");
    await expect(problems).toContainText("limit");
    await expect(page.getByTestId("try-it-result")).toBeEmpty();
    expect(calls).toBe(0);
  });

  test("a destructive tool asks first; Cancel sends nothing", async ({ page }) => {
    await page.goto(toolPage("delete_issue"));
    await openTryIt(page);
    let calls = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/rpc") && (r.postData() ?? "").includes('"tools/call"')) calls++;
    });
    await page
      .getByTestId("try-it")
      .getByLabel(/^issue_id/)
      .fill("999999");
    await page.getByTestId("try-it-send").click();
    const dialog = page.getByTestId("confirm-destructive");
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    expect(calls).toBe(0);
    // Confirmed, the call goes; the tool's own error for an unknown id is rendered as its answer.
    await page.getByTestId("try-it-send").click();
    await page.getByTestId("confirm-send").click();
    await expect(page.getByTestId("try-it-result").getByTestId("rendered-result")).toBeVisible();
  });

  test("a snapshot offers Try it only as a link to the live server's playground", async ({ page, request }) => {
    const id = await demoSnapshot(request);
    await page.goto(`/s/${id}/tools/search_issues`);
    await expect(page.getByTestId("try-it")).toHaveCount(0);
    await expect(page.getByTestId("try-it-snapshot").getByRole("link")).toHaveAttribute(
      "href",
      "/playground?server=builtin%3Ademo&tool=search_issues",
    );
  });
});

test.describe("docs defects", () => {
  test("Output uses output wording: no 'No other arguments are accepted.' under it", async ({ page }) => {
    await page.goto(toolPage("search_issues"));
    const output = page.getByTestId("output-schema");
    await expect(output).toContainText("issues");
    await expect(output).not.toContainText("No other arguments are accepted.");
    await expect(output.getByTestId("param-tree-closed")).toHaveText("No other fields are returned.");
    // Input schemas keep their own wording (assign_issue's arguments are a closed object).
    await page.goto(toolPage("assign_issue"));
    await expect(page.getByTestId("input-schema").getByTestId("param-tree-closed").first()).toHaveText("No other arguments are accepted.");
  });

  test("a snapshot states the cache hints as recorded, with no countdown", async ({ page, request }) => {
    const id = await demoSnapshot(request);
    await page.goto(`/s/${id}`);
    const cache = page.getByTestId("cache-metadata");
    await expect(cache).toContainText('The server declared ttlMs 300000 (5 min) and cacheScope "public"; recorded');
    await expect(cache).not.toContainText("fresh for");
    await expect(cache).not.toContainText("expires");
    // Live docs still describe the live cache.
    await page.goto(serverPage);
    await expect(page.getByTestId("cache-metadata")).toContainText("fresh for 5 min");
  });

  test("the HTML export renders inline code like the page", async ({ request }) => {
    const id = await demoSnapshot(request);
    const html = await (await request.get(`/s/${id}/export.html`)).text();
    expect(html).toContain("(up to <code>limit</code>)");
    expect(html).not.toContain("<script");
  });

  test("default and not-applicable annotation badges are plain text, never struck through", async ({ page }) => {
    await page.goto(toolPage("search_issues"));
    const destructive = page.getByTestId("annotation-destructiveHint");
    await expect(destructive).toHaveText(/^destructive:\s*n\/a \(read-only\)/);
    await expect(destructive).not.toContainText("default");
    const decorations = await page
      .getByTestId("annotation-badges")
      .locator("li, li *")
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).textDecorationLine));
    expect(decorations.filter((d) => d.includes("line-through"))).toEqual([]);
    const opacity = await destructive.evaluate((el) => getComputedStyle(el).opacity);
    expect(opacity).toBe("1");
  });

  test("the demo's address is the one the browser uses, on docs pages as in the playground", async ({ page, baseURL }) => {
    // A first load under 127.0.0.1 fills the docs cache; a viewer at localhost must still see localhost.
    await page.goto(serverPage);
    const localhost = baseURL!.replace("127.0.0.1", "localhost");
    await page.goto(`${localhost}${serverPage}`);
    await expect(page.locator("header").getByText("/api/demo/mcp")).toHaveText(`${localhost}/api/demo/mcp`);
    await page.goto(`${localhost}${toolPage("search_issues")}`);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: localhost });
    await page.getByTestId("copy-curl").click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain(`${localhost}/api/demo/mcp`);
  });
});

test("docs pages stay free of Monaco and under 160 KB of gzipped JavaScript", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // Every script the page loads, gzipped here (the figure does not depend on whether this server compresses).
  let pending: Promise<{ url: string; gzip: number; monaco: boolean }>[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() !== "script") return;
    pending.push(
      res
        .body()
        .catch(() => Buffer.alloc(0))
        .then((body) => ({
          url: res.url(),
          gzip: gzipSync(body).length,
          monaco: /monaco/i.test(res.url()) || body.includes("monaco-editor"),
        })),
    );
  });
  const take = async () => {
    const scripts = await Promise.all(pending);
    pending = [];
    return { total: scripts.reduce((sum, s) => sum + s.gzip, 0), monaco: scripts.filter((s) => s.monaco).map((s) => s.url) };
  };
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const figures: string[] = [];
  const pages: { url: string; total: number; monaco: string[] }[] = [];
  for (const url of [serverPage, toolPage("search_issues")]) {
    pending = [];
    await page.goto(url);
    await expect(page.getByTestId("tool-sidebar")).toBeVisible();
    // Not "networkidle": the live-updates stream stays open. Every script of the first load is in by then.
    await page.waitForLoadState("load");
    await page.waitForTimeout(1_000);
    const loaded = await take();
    pages.push({ url, ...loaded });
    figures.push(`${url}: ${kb(loaded.total)} gzipped JS`);
  }
  // Try it's form and schema checks load when the reader reaches them: counted apart, and no Monaco there either.
  await openTryIt(page);
  const tryIt = await take();
  figures.push(`Try it, when reached: +${kb(tryIt.total)}`);
  console.log(`Docs JS weight: ${figures.join("; ")}`);
  test.info().annotations.push({ type: "docs JS weight", description: figures.join("; ") });
  expect(tryIt.monaco, "no Monaco in Try it").toEqual([]);
  for (const p of pages) {
    expect(p.monaco, `no Monaco on ${p.url}`).toEqual([]);
    expect(p.total, `${p.url} ships ${p.total} bytes of gzipped JS`).toBeLessThan(JS_BUDGET_GZIP_BYTES);
  }
});
