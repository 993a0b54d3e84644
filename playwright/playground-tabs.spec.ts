import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { editorText, expectEditor, focusEditor, setRequest } from "./helpers";

/**
 * Playground tabs: several requests open at once, kept in this browser across reloads; the address opens tabs without
 * overwriting one; a tab's server changes through the switcher; recent servers keep header names, never values; the
 * header's Playground link keeps a docs page's server.
 */
const everything = () => process.env.EVERYTHING_URL!;
const tabs = (page: Page) => page.getByRole("tablist", { name: "Requests" }).getByRole("tab");
const activeTab = (page: Page) => page.getByRole("tablist", { name: "Requests" }).getByRole("tab", { selected: true });
const playgroundFor = (server: string, tool?: string) => `/playground?${new URLSearchParams({ server, ...(tool ? { tool } : {}) })}`;

/** Console errors on the page; the proxy's 502 for a refused connection is the browser's note of an expected failure. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/Failed to load resource: .*502/.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(err.message));
  return errors;
}

async function titles(page: Page): Promise<string[]> {
  return (await tabs(page).allInnerTexts()).map((t) => t.replace("×", "").trim());
}

/** Wait until the active tab's playground is connected and its editor holds `text`. */
async function expectRequest(page: Page, text: string) {
  await expectEditor(page);
  await expect.poll(() => editorText(page)).toContain(text);
}

test.describe("playground tabs", () => {
  test("two tabs on two servers, one sent: a reload brings both back with the result; rename, move and close by keyboard", async ({
    page,
  }) => {
    const errors = consoleErrors(page);
    await page.goto("/playground");
    await expectEditor(page);
    await expect(tabs(page)).toHaveCount(1);
    await expect(activeTab(page)).toContainText("tools/list · demo");

    await page.goto(playgroundFor(everything(), "echo"));
    await expectEditor(page);
    await expect(tabs(page)).toHaveCount(2);
    const host = new URL(everything()).host;
    await expect(activeTab(page)).toContainText(`echo · ${host}`);
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "hello tabs" } } }),
    );
    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("response-panel")).toContainText("hello tabs");

    // The demo tab kept its own text; give it another request.
    await tabs(page).first().click();
    await expectRequest(page, '"tools/list"');
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_issues", arguments: { query: "tabs-demo" } } }),
    );
    await expect(activeTab(page)).toContainText("search_issues · demo");
    await expect(page).toHaveURL(/\/playground\?server=builtin%3Ademo$/);

    await page.reload();
    await expect(tabs(page)).toHaveCount(2);
    expect(await titles(page)).toEqual(["search_issues · demo", `echo · ${host}`]);
    await expectRequest(page, "tabs-demo");
    await tabs(page).nth(1).click();
    await expectRequest(page, "hello tabs");
    const kept = page.getByTestId("shared-response");
    await expect(kept).toContainText("kept in this browser");
    await expect(kept).toContainText("hello tabs");

    // Keyboard: ← to the demo tab, Alt+Shift+→ moves it after the other, F2 renames it.
    await activeTab(page).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(tabs(page).first()).toBeFocused();
    await page.keyboard.press("Alt+Shift+ArrowRight");
    expect(await titles(page)).toEqual([`echo · ${host}`, "search_issues · demo"]);
    await expect(tabs(page).nth(1)).toBeFocused();
    await page.keyboard.press("F2");
    await page.getByTestId("rename-tab").fill("Demo search");
    await page.keyboard.press("Enter");
    await expect(tabs(page).nth(1)).toHaveText(/Demo search/);
    await expect(tabs(page).nth(1)).toBeFocused();

    await page.reload();
    await expect(tabs(page)).toHaveCount(2);
    expect(await titles(page)).toEqual([`echo · ${host}`, "Demo search"]);

    // Delete closes the focused tab; the focus moves to its neighbour. Alt+Shift+T opens a new one.
    await tabs(page).nth(1).focus();
    await page.keyboard.press("Delete");
    await expect(tabs(page)).toHaveCount(1);
    await expect(tabs(page).first()).toBeFocused();
    await page.keyboard.press("Alt+Shift+T");
    await expect(tabs(page)).toHaveCount(2);
    await expect(activeTab(page)).toContainText(host);
    // Middle click closes too.
    await tabs(page).nth(1).click({ button: "middle" });
    await expect(tabs(page)).toHaveCount(1);
    expect(errors).toEqual([]);
  });

  test("?server= focuses a pristine tab or opens a new one: it never overwrites a tab someone worked in", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto(playgroundFor("builtin:demo", "search_issues"));
    await expectRequest(page, "search_issues");
    await expect(tabs(page)).toHaveCount(1);
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "search_issues", arguments: { query: "clobber-guard" } },
      }),
    );

    await page.goto(playgroundFor(everything()));
    await expectRequest(page, '"tools/list"');
    await expect(tabs(page)).toHaveCount(2);

    // The demo tab was edited: a new demo tab opens with the asked tool, the edited one keeps its text.
    await page.goto(playgroundFor("builtin:demo", "create_issue"));
    await expectRequest(page, "create_issue");
    await expect(tabs(page)).toHaveCount(3);
    await tabs(page).first().click();
    await expectRequest(page, "clobber-guard");

    // The server-everything tab is still pristine: it is focused, no fourth tab.
    await page.goto(playgroundFor(everything()));
    await expect(tabs(page)).toHaveCount(3);
    await expect(tabs(page).nth(1)).toHaveAttribute("aria-selected", "true");
    expect(errors).toEqual([]);
    await expect(page).toHaveURL(new RegExp(`server=${encodeURIComponent(everything()).replace(/[.]/g, "\\.")}$`));
  });

  test("the switcher changes a tab's server; a failing URL says why and keeps the old one; recent servers keep header names only", async ({
    page,
  }) => {
    const errors = consoleErrors(page);
    await page.goto("/playground");
    await expectEditor(page);
    const switcher = page.getByTestId("server-switcher");
    await expect(switcher).toContainText("demo");

    // A server that refuses connections: the proxy's message, in the dialog; the tab stays on the demo.
    await switcher.click();
    const dialog = page.getByTestId("server-switcher-dialog");
    await expect(page.getByLabel("Server URL")).toBeFocused();
    await page.getByLabel("Server URL").fill("ftp://example.com/mcp");
    await dialog.getByTestId("switch-connect").click();
    await expect(dialog.getByTestId("switch-problem")).toContainText("not an http(s) URL");
    await page.getByLabel("Server URL").fill(`http://127.0.0.1:${process.env.CLOSED_PORT}/mcp`);
    await dialog.getByTestId("switch-connect").click();
    await expect(dialog.getByTestId("proxy-error")).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toContainText("This tab stays on demo");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(switcher).toContainText("demo");
    await expect(page.getByTestId("connection-era")).toContainText("modern");

    // server-everything with a header: the tab moves there, keeping its text.
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { message: "switched" } } }),
    );
    await switcher.click();
    await page.getByLabel("Server URL").fill(everything());
    await page.getByLabel("Protocol era").selectOption("auto");
    await page.getByLabel(/Headers, one per line/).fill("Authorization: Bearer secret-xyz");
    await dialog.getByTestId("switch-connect").click();
    await expect(dialog).toBeHidden({ timeout: 20_000 });
    const host = new URL(everything()).host;
    await expect(switcher).toContainText(host);
    await expectRequest(page, "switched");
    await expect(page).toHaveURL(new RegExp(`server=${encodeURIComponent(everything()).replace(/[.]/g, "\\.")}$`));
    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("response-panel")).toContainText("switched");

    // Recent servers: the server and the header's name, never its value.
    await switcher.click();
    const recent = dialog.getByTestId("switcher-recent");
    await expect(recent).toContainText(everything());
    await expect(recent).toContainText("headers: Authorization");
    expect(await recent.innerText()).not.toContain("secret-xyz");
    await page.keyboard.press("Escape");
    await page.waitForTimeout(500); // past the tabs' save delay
    const local = await page.evaluate(() => JSON.stringify(Object.entries(localStorage)));
    expect(local).toContain(everything());
    expect(local).not.toContain("secret-xyz");
    // sessionStorage holds header values under the headers key only (this browser tab, by design): nowhere else.
    const session = await page.evaluate(() => Object.entries(sessionStorage));
    expect(session.filter(([k, v]) => k !== "toolscope.headers.v1" && v.includes("secret-xyz"))).toEqual([]);

    await page.goto("/");
    const home = page.getByTestId("home-recent");
    await expect(home).toContainText(everything());
    await expect(home).toContainText("headers: Authorization");
    expect(await page.locator("body").innerText()).not.toContain("secret-xyz");

    // Forget one, then Clear.
    await home
      .getByRole("button", { name: /^Forget / })
      .first()
      .click();
    await expect(home.getByTestId("recent-server")).toHaveCount(1);
    await home.getByTestId("recent-clear").click();
    await expect(page.getByTestId("home-recent")).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test("the header's Playground link keeps the server of a docs page", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto(`/docs/tools/search_issues?server=builtin:demo`);
    const link = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Playground" });
    await expect(link).toHaveAttribute("href", "/playground?server=builtin%3Ademo");
    await page.goto(`/docs?server=${encodeURIComponent(everything())}`);
    await expect(link).toHaveAttribute("href", `/playground?server=${encodeURIComponent(everything())}`);
    await link.click();
    await expect(page).toHaveURL(/\/playground\?server=/);
    await expectEditor(page);
    await expect(page.getByTestId("server-switcher")).toContainText(new URL(everything()).host);
    await page.goto("/");
    await expect(link).toHaveAttribute("href", "/playground");
    expect(errors).toEqual([]);
  });

  test("a history replay to a stdio server opens its request in a tab of its own, even with a pristine tab there", async ({ page }) => {
    const errors = consoleErrors(page);
    await page.goto(playgroundFor("stdio:everything", "echo"));
    await expectRequest(page, "echo");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { message: "handed-off" } } }),
    );
    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("response-panel")).toContainText("handed-off");
    // A pristine stdio tab beside it, then the demo: replaying from there hands the request off.
    await page.keyboard.press("Alt+Shift+T");
    await expect(tabs(page)).toHaveCount(2);
    await expectRequest(page, '"tools/list"');
    await page.goto(playgroundFor("builtin:demo"));
    await expectEditor(page);
    await expect(tabs(page)).toHaveCount(3);
    await page.getByTestId("history-button").click();
    await page.getByTestId("history-entry").filter({ hasText: "echo" }).first().getByTestId("history-replay").click();
    await expect(tabs(page)).toHaveCount(4);
    await expect(activeTab(page)).toContainText("echo · everything");
    await expectRequest(page, "handed-off");
    expect(errors).toEqual([]);
  });

  test("screenshots: the tab strip and the switcher, light and dark, wide and narrow", async ({ page }) => {
    const dir = process.env.TABS_SHOTS_DIR;
    test.skip(!dir, "TABS_SHOTS_DIR names a directory for the screenshots");
    mkdirSync(dir!, { recursive: true });
    await page.goto(playgroundFor("builtin:demo", "search_issues"));
    await expectEditor(page);
    await page.goto(playgroundFor(everything(), "echo"));
    await expectEditor(page);
    for (let i = 0; i < 4; i++) await page.keyboard.press("Alt+Shift+T");
    await expect(tabs(page)).toHaveCount(6);
    await tabs(page).nth(1).click();
    await expectEditor(page);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [1280, 400]) {
        await page.setViewportSize({ width, height: 800 });
        await page.reload();
        await expectEditor(page);
        await activeTab(page).focus();
        await page.screenshot({ path: `${dir}/tabs-${scheme}-${width}.png` });
        await page.getByTestId("server-switcher").click();
        await expect(page.getByTestId("server-switcher-dialog")).toBeVisible();
        await page.screenshot({ path: `${dir}/switcher-${scheme}-${width}.png` });
        await page.keyboard.press("Escape");
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await page.screenshot({ path: `${dir}/home-recent-light-1280.png`, fullPage: true });
  });
});
