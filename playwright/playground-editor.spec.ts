/**
 * The editor's markers and completions, driven and read the way a user meets them: keys typed into Monaco, the
 * squiggle drawn under a value, the hover message over it, the suggestion list. Nothing is exposed on `window` for
 * these tests, so they run against the same production build people use (see README, "Testing the editor").
 */
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { expectEditor, openPlayground, setRequest } from "./helpers";

const editor = (page: Page) => page.getByTestId("request-editor");

/** The editor's text as shown (Monaco renders spaces as no-break spaces). */
async function editorText(page: Page): Promise<string> {
  return (await editor(page).locator(".view-lines").innerText()).replace(/\u00a0/g, " ");
}

/** Hold back the chunks that carry Monaco until the returned function is called (the textarea stage stays meanwhile). */
async function holdMonaco(page: Page): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes("MonacoEnvironment")) await gate;
    await route.fulfill({ response, body });
  });
  return release;
}

/** One-line request text with the caret put just before `before` (its last occurrence), as if clicked there. */
async function setRequestWithCaret(page: Page, text: string, before: string) {
  await setRequest(page, text);
  await page.keyboard.press("End");
  const left = text.length - text.lastIndexOf(before);
  for (let i = 0; i < left; i++) await page.keyboard.press("ArrowLeft");
}

/** The box of the token whose text is exactly `token` on the editor's lines. */
async function tokenBox(page: Page, token: string) {
  const span = editor(page)
    .locator(".view-lines span span")
    .filter({ hasText: new RegExp(`^${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) });
  await expect(span).toHaveCount(1);
  return (await span.boundingBox())!;
}

const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

test.describe("request editor: markers and completion (demo server)", () => {
  test.beforeEach(async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
  });

  test('an invalid enum value is underlined exactly, its hover says "status must be one of …", and fixing it removes the marker', async ({
    page,
  }) => {
    await setRequest(page, call("search_issues", { query: "login", status: "bogus" }));
    const squiggles = editor(page).locator(".squiggly-error");
    await expect(squiggles).toHaveCount(1);
    const mark = (await squiggles.boundingBox())!;
    const value = await tokenBox(page, '"bogus"');
    // The marker covers the value's range, quotes included, and nothing else on the line.
    expect(Math.abs(mark.x - value.x)).toBeLessThanOrEqual(2);
    expect(Math.abs(mark.x + mark.width - (value.x + value.width))).toBeLessThanOrEqual(2);
    expect(mark.y).toBeGreaterThanOrEqual(value.y - 2);
    expect(mark.y).toBeLessThanOrEqual(value.y + value.height + 2);

    await page.mouse.move(mark.x + mark.width / 2, mark.y + mark.height / 2);
    await expect(
      page.locator(".monaco-hover").filter({ hasText: "status must be one of open, in_progress, closed" }).first(),
    ).toBeVisible();

    // Fix it as a user would: select the word (double-click), put the right one in its place (one insertion, so the
    // suggestion list that typing opens cannot take a keystroke).
    await page.mouse.dblclick(value.x + value.width / 2, value.y + value.height / 2);
    await page.keyboard.insertText("open");
    await expect(squiggles).toHaveCount(0);
    expect(await editorText(page)).toContain('"status":"open"');
  });

  test("Ctrl+Space in the tool name offers the server's tools; accepting one writes it", async ({ page }) => {
    const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "", "arguments": {}}}`;
    await setRequestWithCaret(page, text, `", "arguments"`);
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget.visible");
    await expect(suggest).toBeVisible();
    // Sorted by name; the list only renders the rows in view, and these two are among the first.
    for (const name of ["add_to_basket", "execute_sql"])
      await expect(suggest.locator(".monaco-list-row").filter({ hasText: name })).toHaveCount(1);
    await suggest.locator(".monaco-list-row").filter({ hasText: "execute_sql" }).click();
    await expect.poll(() => editorText(page)).toContain('"name": "execute_sql"');
    // The value is a known tool now: no unknown-tool marker.
    await expect(page.getByTestId("problems")).not.toContainText("unknown tool");
  });

  test("Ctrl+Space in an enum value offers its values; accepting open writes it", async ({ page }) => {
    const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_issues", "arguments": {"query": "login", "status": ""}}}`;
    await setRequestWithCaret(page, text, `"}}}`);
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget.visible");
    await expect(suggest).toBeVisible();
    for (const v of ["open", "in_progress", "closed"])
      await expect(suggest.locator(".monaco-list-row").filter({ hasText: v }).first()).toBeVisible();
    await suggest
      .locator(".monaco-list-row")
      .filter({ hasText: /^"?open"?/ })
      .first()
      .click();
    await expect.poll(() => editorText(page)).toContain('"status": "open"');
    await expect(editor(page).locator(".squiggly-error")).toHaveCount(0);
  });

  test('an unknown tool name is underlined and its hover says "did you mean"', async ({ page }) => {
    await setRequest(page, call("search_issue", {}));
    const squiggle = editor(page).locator(".squiggly-error");
    await expect(squiggle).toHaveCount(1);
    const name = await tokenBox(page, '"search_issue"');
    const mark = (await squiggle.boundingBox())!;
    expect(Math.abs(mark.x - name.x)).toBeLessThanOrEqual(2);
    await page.mouse.move(mark.x + mark.width / 2, mark.y + mark.height / 2);
    await expect(page.locator(".monaco-hover").filter({ hasText: 'did you mean "search_issues"' }).first()).toBeVisible();
  });
});

test.describe("request editor: editing keys (demo server)", () => {
  test.beforeEach(async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
  });

  test("a syntax error is underlined once and listed; F8 opens the problem; Shift+Alt+F formats; Ctrl+M lets Tab out", async ({ page }) => {
    // A trailing comma: one error, from the same parse the problems list shows (there is no JSON worker to add a second).
    await setRequest(page, `{"jsonrpc": "2.0", "id": 1, "method": "tools/list",}`);
    await expect(editor(page).locator(".squiggly-error")).toHaveCount(1);
    await expect(page.getByTestId("problems")).toContainText("Trailing commas are not allowed in JSON");
    await page.keyboard.press("F8");
    await expect(page.locator(".marker-widget").filter({ hasText: "Trailing commas are not allowed in JSON" })).toBeVisible();
    await page.keyboard.press("Escape");

    await setRequest(page, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`);
    await page.keyboard.press("Shift+Alt+F");
    await expect.poll(() => editorText(page)).toBe(`{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list"\n}`);

    // Ctrl+M: Tab leaves the editor instead of indenting.
    await page.keyboard.press("Control+M");
    await page.keyboard.press("Tab");
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") == null)).toBe(true);
  });
});

test.describe("request editor: the plain text box before Monaco", () => {
  test("text typed before Monaco arrives survives with the caret and selection in place, and the focus moves on", async ({ page }) => {
    const release = await holdMonaco(page);
    await page.goto("/playground?server=builtin%3Ademo&tool=search_issues");
    // Monaco's input has the same accessible name, so the textarea is found as the one textarea outside Monaco.
    const plain = editor(page).locator("textarea:not(.monaco-editor *)");
    await expect(plain).toBeVisible({ timeout: 30_000 });
    await expect(plain).toHaveAccessibleName(/^JSON-RPC request \(Ctrl\+Enter/);
    await expect(plain).toHaveValue(/"name": "search_issues"/);
    await expect(editor(page).locator(".monaco-editor")).toHaveCount(0);

    await plain.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(`{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}`);
    // Caret before `"}`, one character typed there, then "listX" selected leftwards (the caret at its start).
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type("X");
    for (let i = 0; i < 5; i++) await page.keyboard.press("Shift+ArrowLeft");
    await expect(plain).toHaveValue(`{"jsonrpc": "2.0", "id": 1, "method": "tools/listX"}`);

    release();
    await expectEditor(page);
    await expect(plain).toHaveCount(0);
    await expect.poll(() => editorText(page)).toBe(`{"jsonrpc": "2.0", "id": 1, "method": "tools/listX"}`);
    // The focus and the selection came along: the next key replaces "listX" in Monaco.
    await page.keyboard.type("Z");
    await expect.poll(() => editorText(page)).toBe(`{"jsonrpc": "2.0", "id": 1, "method": "tools/Z"}`);
    // Monaco's diagnostics run on the text it took over.
    await expect(page.getByTestId("problems")).toContainText('"tools/Z" is not a method');
  });
});

test.describe("request editor: while the server is being connected", () => {
  test("the editor takes typing before the connection is up; Send waits for it and then goes with the typed text", async ({ page }) => {
    // Hold the connect answer until the editor has been used.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/connect", async (route) => {
      const response = await route.fetch();
      await gate;
      await route.fulfill({ response });
    });
    const rpcBeforeConnect: string[] = [];
    let connected = false;
    page.on("request", (r) => {
      if (!connected && new URL(r.url()).pathname === "/api/rpc") rpcBeforeConnect.push(r.url());
    });
    await page.goto("/playground?server=builtin%3Ademo");

    const plain = editor(page).locator("textarea:not(.monaco-editor *)");
    await expect(plain).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("playground-connecting")).toHaveText("Connecting to builtin:demo…");
    await expect(page.getByTestId("explorer-pending")).toBeVisible();
    await expect(plain).toHaveValue(/"method": "tools\/list"/);
    // Share, Save and Copy as code need the server's era and address: off until connected.
    await expect(page.getByTestId("share-button")).toBeDisabled();

    await plain.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(`{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}}`);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("send-queued")).toContainText("the request goes as soon as the connection is up");
    await expect(page.getByTestId("send")).toHaveText("Sending…");
    // Monaco waits for the tool list: its checks would otherwise speak of a server with no tools.
    await page.waitForTimeout(500);
    await expect(editor(page).locator(".monaco-editor")).toHaveCount(0);
    expect(rpcBeforeConnect).toEqual([]);

    connected = true;
    release();
    await expect(page.getByTestId("connection-era")).toBeVisible();
    await expect(page.getByTestId("result-tabs")).toBeVisible();
    await expect(page.getByTestId("response-panel")).toContainText("search_issues");
    await expect(page.getByTestId("send-queued")).toHaveCount(0);
    await expect(page.getByTestId("send")).toHaveText("Send");
    await expectEditor(page);
    await expect.poll(() => editorText(page)).toBe(`{"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}}`);
  });

  test("keys typed fast across the hand-over to Monaco all land at the caret, in order", async ({ page }) => {
    const release = await holdMonaco(page);
    await page.goto("/playground?server=builtin%3Ademo");
    const plain = editor(page).locator("textarea:not(.monaco-editor *)");
    await expect(page.getByTestId("connection-era")).toBeVisible({ timeout: 30_000 });
    await plain.click();
    await page.keyboard.press("ControlOrMeta+Home");
    await page.keyboard.press("End");
    // Keys keep coming while Monaco arrives, takes over and re-renders; each must land after the one before it.
    const keys = "0123456789".repeat(8);
    const typing = page.keyboard.type(keys, { delay: 10 });
    await page.waitForTimeout(150);
    release();
    await typing;
    await expectEditor(page);
    await expect(plain).toHaveCount(0);
    await expect.poll(async () => (await editorText(page)).split("\n")[0]).toBe(`{${keys}`);
  });
});
