import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { demoRpc, editorText, openPlayground, send, setRequest } from "./helpers";

/**
 * The playground's explorer (tools, excluded tools, resources, templates, prompts) and its notifications pane, on
 * the demo server, server-everything (resource templates and prompts) and the hostile fixture (excluded tools).
 * Screenshots go to $EXPLORER_SHOTS_DIR when it is set (light and dark, 1280 and 400 px wide).
 */
const SHOTS = process.env.EXPLORER_SHOTS_DIR;

/** Console errors fail the test (a React warning, a failed fetch the page did not handle). */
function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

/** The editor's text as JSON (Monaco may render only what is in view: the requests here are short). */
async function editorJson(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse(await editorText(page)) as Record<string, unknown>;
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const scheme of ["light", "dark"] as const) {
    // The theme is a class on <html> (the header's Dark button), not the media query.
    await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
    await page.screenshot({ path: `${SHOTS}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
}

test.describe("playground explorer", () => {
  test.beforeEach(async ({ page }) => {
    // The explorer starts open, the notifications pane closed (the defaults), whatever an earlier test chose.
    await page.addInitScript(() => {
      if (!sessionStorage.getItem("explorer-spec-init")) {
        localStorage.removeItem("toolscope.playground-prefs.v1");
        sessionStorage.setItem("explorer-spec-init", "1");
      }
    });
  });

  test("search narrows the tools; choosing one puts its call in the editor (next id) and shows its doc", async ({ page }) => {
    const errors = watchConsole(page);
    await openPlayground(page, "builtin:demo", "search_issues");
    const explorer = page.getByTestId("explorer");
    const tools = explorer.getByTestId("explorer-tool");
    const total = await tools.count();
    expect(total).toBeGreaterThan(5);

    await explorer.getByTestId("explorer-search").fill("sql");
    await expect(tools.filter({ hasText: "execute_sql" })).toHaveCount(1);
    await expect(tools.filter({ hasText: "reindex" })).toHaveCount(0);
    const matching = await tools.count();
    expect(matching).toBeLessThan(total);
    await expect(explorer.getByTestId("explorer-tools")).toContainText(`${matching} of ${total}`);

    const before = (await editorJson(page)).id as number;
    await tools.filter({ hasText: "execute_sql" }).click();
    await expect.poll(async () => (await editorJson(page)).params).toMatchObject({ name: "execute_sql" });
    const call = await editorJson(page);
    expect(call.method).toBe("tools/call");
    expect(call.id).toBe(before + 1);

    const doc = explorer.getByTestId("explorer-tool-doc");
    await expect(doc.getByTestId("explorer-params")).toContainText("region");
    await expect(doc.getByTestId("explorer-headers")).toContainText("Mcp-Param-Region");
    await expect(doc.getByTestId("explorer-hint-readOnlyHint")).toBeVisible();
    await expect(doc.getByTestId("explorer-cache")).toContainText(/fresh for|not cacheable/);
    await expect(doc.getByTestId("explorer-docs-link")).toHaveAttribute("href", /\/docs\/tools\/execute_sql\?server=builtin%3Ademo/);

    await explorer.getByTestId("explorer-search").fill("no such tool at all");
    await expect(explorer.getByTestId("explorer-no-match")).toBeVisible();
    await shoot(page, "explorer-doc-1280");
    expect(errors).toEqual([]);
  });

  test("keyboard: ↓ from the search goes through the list, Enter chooses, the toggle collapses and is remembered", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const explorer = page.getByTestId("explorer");
    await explorer.getByTestId("explorer-search").fill("issue");
    await explorer.getByTestId("explorer-search").press("ArrowDown");
    const first = explorer.getByTestId("explorer-tool").first();
    await expect(first).toBeFocused();
    await page.keyboard.press("ArrowDown");
    const second = explorer.getByTestId("explorer-tool").nth(1);
    await expect(second).toBeFocused();
    const name = await second.getAttribute("data-tool");
    await shoot(page, "explorer-focus-1280");
    await page.keyboard.press("Enter");
    await expect.poll(async () => ((await editorJson(page)).params as { name?: string }).name).toBe(name);
    await expect(explorer.getByTestId("explorer-tool-doc")).toBeVisible();

    const toggle = explorer.getByTestId("explorer-toggle");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(explorer.getByTestId("explorer-search")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("explorer-toggle")).toHaveAttribute("aria-expanded", "false");
    await page.getByTestId("explorer-toggle").click();
    await expect(page.getByTestId("explorer-search")).toBeVisible();
  });

  test("keyboard: the list is one tab stop (Tab enters it once and the next Tab leaves), arrows move within", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const explorer = page.getByTestId("explorer");
    const items = explorer.locator("[data-explorer-item]");
    expect(await items.count()).toBeGreaterThan(10);
    await explorer.getByTestId("explorer-search").focus();
    await page.keyboard.press("Tab");
    await expect(page.locator(":focus")).toHaveAttribute("data-explorer-item");
    await page.keyboard.press("ArrowDown");
    const moved = await page.evaluate(() => document.activeElement?.getAttribute("data-tool"));
    // Tab now leaves the tools: past the chosen tool's doc and the other sections' one stop, never tool after tool.
    for (let i = 0; i < 2; i++) {
      await page.keyboard.press("Tab");
      const tool = await page.evaluate(() => document.activeElement?.getAttribute("data-tool") ?? null);
      expect(tool, `Tab ${i + 1} did not step to another tool`).toBeNull();
    }
    // And Shift+Tab back into the list returns to where the arrows left off.
    for (let i = 0; i < 2; i++) await page.keyboard.press("Shift+Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-tool"))).toBe(moved);
  });

  test("a resource opens resources/read, and Send returns its content", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const resource = page.getByTestId("explorer-resource").first();
    await expect(resource).toContainText("Issues export");
    await resource.click();
    await expect.poll(async () => (await editorJson(page)).method).toBe("resources/read");
    expect((await editorJson(page)).params).toEqual({ uri: expect.stringMatching(/.+/) });
    await send(page);
    await page.getByRole("tab", { name: "JSON" }).click();
    await expect(page.getByTestId("raw-json")).toContainText('"contents"');
    await expect(page.getByTestId("raw-json")).toContainText("text/csv");
  });

  test("server-everything: a template's variable fills the uri; a prompt opens prompts/get with required arguments first", async ({
    page,
  }) => {
    await openPlayground(page, process.env.EVERYTHING_URL!);
    const explorer = page.getByTestId("explorer");
    // A legacy session lists its resources and prompts at once, like a modern one (issue 26: they waited behind "Load").
    await expect(explorer.getByTestId("explorer-deferred")).toHaveCount(0);
    const template = explorer.getByTestId("explorer-template").filter({ hasText: "/text/" }).first();
    await template.click();
    const form = explorer.getByTestId("explorer-template-form");
    await expect(form.getByTestId("explorer-template-uri")).toContainText("{resourceId}");
    await form.getByTestId("explorer-template-var-resourceId").fill("3");
    await expect(form.getByTestId("explorer-template-uri")).toHaveText(/\/text\/3$/);
    await form.getByTestId("explorer-template-var-resourceId").press("Enter");
    await expect.poll(async () => ((await editorJson(page)).params as { uri?: string }).uri).toMatch(/\/text\/3$/);
    await send(page);
    await expect(page.getByTestId("response-panel")).toContainText("Resource 3");
    // Rendered as text, not a JSON tree (issue 26).
    await expect(page.getByTestId("resource-contents").first()).toContainText("Resource 3");
    await shoot(page, "resource-rendered-1280");

    const prompt = explorer.getByTestId("explorer-prompt").filter({ hasText: /args-prompt|Arguments Prompt/ });
    await prompt.click();
    await expect.poll(async () => (await editorJson(page)).method).toBe("prompts/get");
    const params = (await editorJson(page)).params as { name: string; arguments: Record<string, string> };
    expect(params.name).toBe("args-prompt");
    expect(Object.keys(params.arguments)).toEqual(["city", "state"]);
    await shoot(page, "explorer-everything-1280");
    // The prompt's messages, by role (issue 26).
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "prompts/get", params: { name: "args-prompt", arguments: { city: "Paris" } } }),
    );
    await send(page);
    const messages = page.getByTestId("prompt-message");
    await expect(messages.first()).toHaveAttribute("data-role", "user");
    await expect(messages.first()).toContainText("Paris");
    await shoot(page, "prompt-rendered-1280");
  });

  test("the hostile server's excluded tools are listed with the reason", async ({ page }) => {
    await openPlayground(page, process.env.HOSTILE_URL!);
    const excluded = page.getByTestId("explorer-excluded");
    await expect(excluded).toContainText("bad_header");
    await expect(excluded).toContainText("bad_header_token");
    await expect(page.getByTestId("explorer-tool").filter({ hasText: /^bad_header$/ })).toHaveCount(0);
  });
});

test.describe("notifications pane", () => {
  test.afterEach(async ({ request }) => {
    // toggle_beta_tools changes the demo for everyone: leave it off.
    await demoRpc(request, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "toggle_beta_tools", arguments: { enabled: false } },
    });
  });

  test("log messages and a tool list change show up newest first; the filter works; the explorer follows the change", async ({ page }) => {
    const errors = watchConsole(page);
    await page.addInitScript(() => localStorage.removeItem("toolscope.playground-prefs.v1"));
    await openPlayground(page, "builtin:demo");
    await expect(page.getByTestId("notifications-listen")).toHaveAttribute("data-state", "subscribed");
    await page.getByTestId("pref-log-level").selectOption("debug");
    await page.getByTestId("explorer-search").fill("reindex");
    await page.getByTestId("explorer-tool").first().click();
    await expect.poll(async () => ((await editorJson(page)).params as { name?: string }).name).toBe("reindex");
    await send(page);
    await expect(page.getByTestId("notifications-unseen")).toHaveText(/\d+/);

    const toggle = page.getByTestId("notifications-toggle");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("notifications-unseen")).toHaveCount(0);
    const entries = page.getByTestId("notification-entry");
    await expect(entries.filter({ hasText: "Reindex started" })).toHaveCount(1);
    await expect(entries.filter({ hasText: "notifications/progress" }).first()).toBeVisible();
    // Newest first: the last shard's log line comes before the first one.
    await expect(entries.first()).not.toContainText("Reindex started");

    await page.getByTestId("explorer-search").fill("toggle_beta");
    await page.getByTestId("explorer-tool").first().click();
    await expect.poll(async () => ((await editorJson(page)).params as { name?: string }).name).toBe("toggle_beta_tools");
    await send(page);
    const changed = entries.filter({ hasText: "notifications/tools/list_changed" });
    await expect(changed.first()).toBeVisible();
    await page.getByTestId("explorer-search").fill("beta_summarize");
    await expect(page.locator('[data-testid="explorer-tool"][data-tool="beta_summarize_issue"]')).toHaveCount(1);
    await expect(page.getByTestId("tools-notice")).toContainText("tool list changed");

    await page.getByTestId("notifications-kind-list-changes").click();
    await expect(page.getByTestId("notifications-kind-list-changes")).toHaveAttribute("aria-pressed", "true");
    for (const kind of await entries.evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")))) expect(kind).toBe("list-changes");
    await page.getByTestId("notifications-kind-list-changes").click();
    await page.getByTestId("notifications-filter").fill("shard 2/");
    await expect(entries).not.toHaveCount(0);
    for (const text of await entries.allInnerTexts()) expect(text.toLowerCase()).toContain("shard 2/");

    // The full JSON on expand, by keyboard.
    await page.getByTestId("notifications-filter").fill("Reindex started");
    await entries.first().locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(entries.first().locator("pre")).toContainText('"logger": "reindex"');
    await shoot(page, "notifications-1280");

    await page.getByTestId("notifications-clear").click();
    await expect(entries).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});

test.describe("narrow screens", () => {
  test.use({ viewport: { width: 400, height: 900 } });

  test("the explorer is a collapsible section above the editor", async ({ page }) => {
    await page.addInitScript(() => localStorage.removeItem("toolscope.playground-prefs.v1"));
    await openPlayground(page, "builtin:demo", "search_issues");
    const explorer = page.getByTestId("explorer");
    const editor = page.getByTestId("request-editor");
    const [e, r] = [await explorer.boundingBox(), await editor.boundingBox()];
    expect(e!.y + e!.height).toBeLessThanOrEqual(r!.y);
    expect(e!.width).toBeLessThanOrEqual(400);
    await page.getByTestId("explorer-tool").first().click();
    await shoot(page, "explorer-400");
    await page.getByTestId("explorer-toggle").click();
    await expect(page.getByTestId("explorer-search")).toHaveCount(0);
  });
});
