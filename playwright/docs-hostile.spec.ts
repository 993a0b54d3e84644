import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { expectClean, watch } from "./fixtures/hostile-dom";
import { bigTools, BIG_TOOL_COUNT } from "./fixtures/hostile-server";

/**
 * Docs of a hostile MCP server (playwright/fixtures/hostile-server.ts): nothing it sends may run, load, or hang.
 * Screenshots go to $DOCS_SCREENS_DIR (default test-results/docs-screens/) in light and dark.
 */
const SCREENS = process.env.DOCS_SCREENS_DIR ?? "test-results/docs-screens";

const hostile = () => process.env.HOSTILE_URL!;
const docsPage = (server: string) => `/docs?server=${encodeURIComponent(server)}`;
const toolPage = (server: string, name: string) => `/docs/tools/${encodeURIComponent(name)}?server=${encodeURIComponent(server)}`;

async function canaryHits(): Promise<string[]> {
  return (await fetch(`${process.env.HOSTILE_BASE}/canary-hits`)).json();
}

async function screenshots(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.reload();
    await page.screenshot({ path: `${SCREENS}/${name}-${scheme}.png`, fullPage: false });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

test.describe("docs of a hostile server", () => {
  test("the server page shows every payload as text, groups namespaces and lists excluded tools", async ({ page }) => {
    const w = watch(page);
    await page.goto(docsPage(hostile()));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Hostile server <script>alert(1)</script>");
    await expect(page.getByTestId("server-icon")).toHaveAttribute("data-fallback", "true");

    const index = page.getByTestId("tool-index");
    await expect(index).toHaveAttribute("data-grouped", "true");
    await expect(index.getByTestId("tool-row-xss_everywhere")).toContainText("<script>alert(1)</script> Evil title");
    // jira.get_issue is listed twice (once per page it appeared on); the jira group counts both rows.
    await expect(index.getByTestId("tool-row-jira.get_issue")).toHaveCount(2);
    const jira = index.locator('[data-testid="tool-group"][data-prefix="jira."]');
    await expect(jira.getByTestId("tool-group-count")).toHaveText("4 tools");
    await expect(index.locator('[data-testid="tool-group"][data-prefix="github_"]').getByTestId("tool-group-count")).toHaveText("2 tools");
    await expect(page.getByTestId("tool-groups-nav")).toContainText("jira.");
    await expect(page.getByTestId("cache-metadata")).toContainText(/jira\.get_issue.*2 times/);

    const excluded = page.getByTestId("excluded-tools");
    await expect(excluded).toContainText("bad_header");
    await expect(excluded).toContainText("not number");
    await expect(excluded).toContainText("bad_header_token");
    await expect(excluded).toContainText("control characters");

    // The huge description's row shows a short summary only.
    const hugeRow = index.getByTestId("tool-row-huge_description");
    expect((await hugeRow.innerText()).length).toBeLessThan(600);

    await expectClean(page, w);
    await screenshots(page, "hostile-server");

    // The jump list and a plain link work.
    await page
      .getByTestId("tool-groups-nav")
      .getByRole("link", { name: /jira\./ })
      .click();
    await expect(page).toHaveURL(/#ns-\d+-jira/);
    await index.getByTestId("tool-row-cyclic_schema").getByRole("link").click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cyclic schema");
    expect(await canaryHits()).toEqual([]);
  });

  test("a tool page with script tags, javascript: links and icons, remote images and onerror payloads runs nothing", async ({ page }) => {
    const w = watch(page);
    await page.goto(toolPage(hostile(), "xss_everywhere"));
    await expect(page.getByRole("heading", { level: 1 })).toContainText("<script>alert(1)</script> Evil title");
    // Neither the javascript:, the http: nor the data:text/html icon is used.
    await expect(page.locator("header").getByTestId("tool-icon")).toHaveAttribute("data-fallback", "true");
    const description = page.getByTestId("tool-description");
    await expect(description).toContainText('<a href="javascript:alert(1)">raw anchor</a>');
    await expect(description).toContainText("onerror=");
    // javascript:, JAVASCRIPT: and data: links lose their href (the tab-split one is not a Markdown link at all).
    expect(await description.getByTestId("md-dropped-link").count()).toBeGreaterThanOrEqual(3);
    await expect(description.getByTestId("md-image-placeholder").first()).toBeVisible();
    const safe = description.getByRole("link", { name: "the spec" });
    await expect(safe).toHaveAttribute("rel", "nofollow noopener noreferrer");
    await expect(safe).toHaveAttribute("href", "https://modelcontextprotocol.io/specification");
    // Parameter descriptions, names, enums and defaults are text too.
    const params = page.getByTestId("input-schema");
    await expect(params).toContainText("<img src=x onerror=window.__pwned=1>");
    await expect(params).toContainText("<script>alert(1)</script>");
    await expect(page.locator('a[href^="javascript:" i], [src^="javascript:" i]')).toHaveCount(0);
    await expectClean(page, w);
    await screenshots(page, "hostile-tool");
    expect(await canaryHits()).toEqual([]);
  });

  test("tool poisoning is flagged: invisible characters, <IMPORTANT>, ignore previous instructions, secrecy, ~/.ssh", async ({ page }) => {
    const w = watch(page);
    await page.goto(toolPage(hostile(), "add_numbers"));
    await expect(page.getByTestId("tool-description")).toContainText("<IMPORTANT>");
    const lints = page.getByTestId("tool-lints");
    for (const id of [
      "poison-invisible-chars",
      "poison-ignore-instructions",
      "poison-important-tag",
      "poison-file-access",
      "poison-secrecy",
      "poison-html-comment",
    ]) {
      await expect(lints.locator(`[data-lint-id="${id}"]`).first()).toBeVisible();
    }
    await expect(lints.locator('[data-lint-id="poison-ignore-instructions"][data-severity="error"]').first()).toBeVisible();
    await expectClean(page, w);
  });

  test("a cyclic $ref renders as a link to its definition and a network $ref is shown, never fetched", async ({ page }) => {
    const w = watch(page);
    await page.goto(toolPage(hostile(), "cyclic_schema"));
    const input = page.getByTestId("input-schema");
    // Recursion sits below the first level, which starts collapsed: expand everything as a reader would.
    await input.locator("details").evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await expect(input.getByTestId("param-cycle").first()).toContainText("Recursive");
    const link = input.getByTestId("param-cycle-link").first();
    const target = (await link.getAttribute("href"))!.slice(1);
    await expect(page.locator(`[id="${target}"]`)).toHaveCount(1);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`#${target}$`));
    expect(await page.getByTestId("output-schema").getByTestId("param-cycle-link").count()).toBeGreaterThan(0);
    await expectClean(page, w);

    await page.goto(toolPage(hostile(), "network_ref"));
    await expect(page.getByTestId("input-schema").getByTestId("param-external-ref").first()).toContainText("/canary/schema.json");
    await expect(page.getByTestId("tool-lints").locator('[data-lint-id="schema-network-ref"]').first()).toBeVisible();
    await expectClean(page, w);
    expect(await canaryHits()).toEqual([]);
  });

  test("a 1 MB description: cut where it is read, the page loads fast, says what was cut and stays responsive", async ({ page }) => {
    const w = watch(page);
    const started = Date.now();
    await page.goto(toolPage(hostile(), "huge_description"));
    const loadMs = Date.now() - started;
    test.info().annotations.push({ type: "huge description page load", description: `${loadMs} ms` });
    expect(loadMs).toBeLessThan(15_000);
    const description = page.getByTestId("tool-description");
    await expect(description).toContainText("Start of the huge description");
    // Cut to TOOLSCOPE_MAX_DESCRIPTION_CHARS when the list is read, and the cut says so in the text itself.
    await expect(description).toContainText(/more characters cut: TOOLSCOPE_MAX_DESCRIPTION_CHARS is 16384/);
    expect((await description.innerText()).length).toBeLessThan(20_000);
    // The lint speaks of what the server sent, not of what is shown.
    await expect(page.getByTestId("tool-lints").locator('[data-lint-id="description-very-long"]')).toContainText(
      /is \d{7} characters long \(shown cut\)/,
    );
    await expectClean(page, w);
    const t0 = Date.now();
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").click();
    await expect(page.getByTestId("tool-index")).toBeVisible();
    expect(Date.now() - t0).toBeLessThan(5_000);
    // The server's page names the limit that cut it.
    await expect(
      page.getByText(/description or title longer than 16384 characters \(TOOLSCOPE_MAX_DESCRIPTION_CHARS\)/).first(),
    ).toBeVisible();
  });

  test("an excluded tool's page says why it cannot be called", async ({ page }) => {
    await page.goto(toolPage(hostile(), "bad_header"));
    await expect(page.getByRole("note")).toContainText("x-mcp-header is only allowed on string, integer or boolean parameters, not number");
  });

  test("a schema 10,000 levels deep and one of 3 MB are excluded with the reason, and neither slows the pages or the API", async ({
    page,
    request,
  }) => {
    // /api/tools: answers quickly, the two tools excluded with the measured size and the limit's setting.
    const connection = (await (await request.post("/api/connect", { data: { url: hostile(), era: "modern" } })).json()).connection;
    const t0 = Date.now();
    const res = await request.post("/api/tools", { data: { connection, fresh: true } });
    const apiMs = Date.now() - t0;
    expect(res.status()).toBe(200);
    const list = (await res.json()) as {
      tools: { name: string }[];
      excluded: { tool: { name: string; inputSchema: unknown }; reason: string }[];
    };
    const reasons = Object.fromEntries(list.excluded.map((e) => [e.tool.name, e.reason]));
    expect(reasons.deep_schema).toBe("inputSchema is nested 10,003 levels deep (the limit is 64, TOOLSCOPE_MAX_SCHEMA_DEPTH)");
    expect(reasons.huge_schema).toMatch(
      /^inputSchema is 3,\d{3},\d{3} bytes of JSON \(the limit is 262,144, TOOLSCOPE_MAX_SCHEMA_BYTES\)$/,
    );
    expect(list.tools.map((t) => t.name)).not.toContain("deep_schema");
    // The schemas themselves never leave the server: a stub names the reason.
    expect(list.excluded.find((e) => e.tool.name === "deep_schema")?.tool.inputSchema).toEqual({
      "x-toolscope-omitted": reasons.deep_schema,
    });
    const bytes = (await res.body()).length;
    test.info().annotations.push({ type: "schema bombs", description: `/api/tools (fresh, 4 pages) in ${apiMs} ms, ${bytes} bytes` });
    expect(apiMs).toBeLessThan(10_000);

    const w = watch(page);
    const started = Date.now();
    await page.goto(docsPage(hostile()));
    const excluded = page.getByTestId("excluded-tools");
    await expect(excluded).toContainText("deep_schema");
    await expect(excluded).toContainText("nested 10,003 levels deep (the limit is 64, TOOLSCOPE_MAX_SCHEMA_DEPTH)");
    await expect(excluded).toContainText("huge_schema");
    await expect(excluded).toContainText("TOOLSCOPE_MAX_SCHEMA_BYTES");
    const loadMs = Date.now() - started;
    test.info().annotations.push({ type: "schema bombs", description: `docs page in ${loadMs} ms` });
    expect(loadMs).toBeLessThan(15_000);
    await expect(page.getByTestId("tool-index").getByTestId("tool-row-deep_schema")).toHaveCount(0);
    await excluded.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/schema-limits-excluded.png`, fullPage: false });

    // The excluded tool's own page says why, fast.
    const t1 = Date.now();
    await page.goto(toolPage(hostile(), "deep_schema"));
    await expect(page.getByRole("note").filter({ hasText: "Excluded from calling" })).toContainText("TOOLSCOPE_MAX_SCHEMA_DEPTH");
    expect(Date.now() - t1).toBeLessThan(15_000);
    await expectClean(page, w);
  });

  test("5,000 tools: the server page renders grouped, and a search filters it", async ({ page }) => {
    test.setTimeout(180_000);
    const w = watch(page);
    const started = Date.now();
    await page.goto(docsPage(process.env.BIG_URL!));
    const loadMs = Date.now() - started;
    await expect(page.getByRole("heading", { name: /Tools/ })).toContainText("(5000)");
    const rows = page.locator('[data-testid="tool-index"] [data-testid^="tool-row-"]');
    await expect(rows).toHaveCount(5000);
    await expect(page.getByTestId("tool-group")).toHaveCount(10);
    const domNodes = await page.evaluate(() => document.getElementsByTagName("*").length);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        ttfb: Math.round(nav.responseStart),
        html: Math.round(nav.responseEnd),
        domContentLoaded: Math.round(nav.domContentLoadedEventEnd),
        load: Math.round(nav.loadEventEnd),
        bytes: nav.decodedBodySize,
      };
    });
    const note = `${loadMs} ms to load, ${domNodes} DOM elements, navigation timing ${JSON.stringify(timing)}`;
    test.info().annotations.push({ type: "5,000-tool page", description: note });
    console.log(`5,000-tool page: ${note}`);
    expect(loadMs).toBeLessThan(60_000); // generous: the machine is shared; the figure is logged above
    await screenshots(page, "big-server-grouped");

    await page.getByLabel("Search tools").fill("item_4999");
    await page.getByLabel("Search tools").press("Enter");
    await expect(page).toHaveURL(/q=item_4999/);
    await expect(rows).toHaveCount(1);
    await expect(page.getByRole("heading", { name: /Tools/ })).toContainText("(1 of 5000)");
    await expect(page.getByTestId("tool-row-admin_update_item_4999")).toBeVisible();

    await page.getByLabel("Search tools").fill("");
    await page.getByLabel("Behaviour").selectOption("destructive");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/behaviour=destructive/);
    const destructive = bigTools(BIG_TOOL_COUNT).filter(
      (t) => !t.annotations?.readOnlyHint && t.annotations?.destructiveHint !== false,
    ).length;
    await expect(rows).toHaveCount(destructive);
    await expectClean(page, w);
  });
});
