import { expect, test } from "./test";

import { editorText, expectEditor, openPlayground, send, setRequest } from "./helpers";

const call = (id: number, query: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_issues", arguments: { query } } });

test.describe("history, palette, copy as code, help", () => {
  // Two page loads with Monaco each, on a shared (busy) machine.
  test.describe.configure({ timeout: 120_000 });

  test("every exchange is kept: search, replay into the editor, compare two responses", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(page, call(1, "login"));
    await send(page);
    await expect(page.getByTestId("rendered-result")).toBeVisible();
    await setRequest(page, call(2, "webhook"));
    await send(page);
    await expect(page.getByTestId("rendered-result")).toContainText(/webhook/i);

    await page.getByTestId("history-button").click();
    const entries = page.getByTestId("history-entry");
    await expect(entries).toHaveCount(2);
    await page.getByTestId("history-search").fill("login");
    await expect(entries).toHaveCount(1);
    await page.getByTestId("history-search").fill("tool:search_issues method:tools/call");
    await expect(entries).toHaveCount(2);
    await page.getByTestId("history-search").fill("");

    // Newest first: the second entry is the "login" call. Replay puts it back without sending.
    const before = await page.getByTestId("exchange").getAttribute("data-rounds");
    await entries.nth(1).getByTestId("history-replay").click();
    await expect.poll(() => editorText(page)).toContain('"query":"login"');
    expect(await page.getByTestId("exchange").getAttribute("data-rounds")).toBe(before);

    await entries.nth(0).getByTestId("history-compare").check();
    await entries.nth(1).getByTestId("history-compare").check();
    const diff = page.getByTestId("diff-view");
    await expect(diff).toBeVisible();
    await expect(page.getByTestId("diff-summary")).toContainText("difference");
    await expect(diff.locator('tr[data-kind="changed"]').first()).toBeVisible();

    // Kept across a reload (IndexedDB).
    await page.reload();
    await expectEditor(page);
    await expect(page.getByTestId("history-button")).toContainText("(2)");
  });

  test("command palette inserts a template by keyboard; progress and logs show for reindex", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    // debug is the default level (2026-07-28: the server sends log messages only when a request asks for a level).
    await expect(page.getByTestId("pref-log-level")).toHaveValue("debug");
    await page.getByTestId("request-editor").locator(".monaco-editor .view-lines").click();
    await page.keyboard.press("ControlOrMeta+K");
    const palette = page.getByTestId("command-palette");
    await expect(palette).toBeVisible();
    await page.keyboard.type("call reindex");
    await expect(palette.getByTestId("palette-item")).toHaveCount(1);
    await page.keyboard.press("Enter");
    await expect(palette).toBeHidden();
    await expect.poll(() => editorText(page)).toContain('"name": "reindex"');
    await send(page);
    await expect(page.getByTestId("progress-bar")).toHaveAttribute("aria-valuenow", "100");
    await expect(page.getByTestId("log-messages")).toContainText("Reindex started");
    await expect(page.getByTestId("rendered-result")).toContainText("Reindex complete");
  });

  test("progress and log messages stream in while a long call runs; Cancel stops it", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "reindex");
    await page.getByTestId("pref-log-level").selectOption("info");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "reindex", arguments: { steps: 20 } } }),
    );
    await page.getByTestId("send").click();
    const running = page.locator('[data-testid="exchange"][data-state="running"]');
    await expect(running.getByTestId("progress-text")).toContainText("/ 20");
    await expect(running.getByTestId("log-messages")).toContainText("Reindex started: 20 shards.");
    await page.getByTestId("cancel").click();
    await expect(page.locator('[data-testid="exchange"][data-state="cancelled"]')).toBeVisible();
    await expect(page.getByTestId("send")).toBeEnabled();
  });

  test("templates menu, copy as curl and the help panel", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await page.getByTestId("templates-button").click();
    await page.keyboard.type("list tools");
    await page.keyboard.press("Enter");
    await expect.poll(() => editorText(page)).toContain('"method": "tools/list"');

    await page.getByTestId("copy-code-button").click();
    const snippet = page.getByTestId("code-snippet");
    await expect(snippet).toContainText("curl -sS -X POST");
    await expect(snippet).toContainText("Mcp-Method: tools/list");
    await expect(snippet).toContainText("MCP-Protocol-Version: 2026-07-28");
    await page.getByRole("radio", { name: "TypeScript (SDK)" }).check({ force: true });
    await expect(snippet).toContainText("client.listTools()");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("copy-as-code")).toBeHidden();

    await page.getByTestId("history-button").focus();
    await page.keyboard.press("?");
    await expect(page.getByTestId("help-dialog")).toContainText("Ctrl/Cmd+K");
  });

  test("the server log level is debug by default, off when picked, asked per request, and shown in the preview", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "reindex");
    const request = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "reindex", arguments: { steps: 2 } } });
    await setRequest(page, request);
    await expect(page.getByTestId("send-preview")).toContainText('"debug"');
    await page.getByTestId("pref-log-level").selectOption("off");
    await expect(page.getByTestId("send-preview")).toContainText("progressToken");
    await expect(page.getByTestId("send-preview")).not.toContainText("logLevel");
    await page.getByTestId("send").click();
    await expect(page.getByTestId("rendered-result")).toContainText("Reindex complete");
    await expect(page.getByTestId("log-messages")).toHaveCount(0);

    // Above the demo's info messages: asked for, and still none come back.
    await page.getByTestId("pref-log-level").selectOption("warning");
    await expect(page.getByTestId("send-preview")).toContainText('"warning"');
    await page.getByTestId("send").click();
    await expect(page.getByTestId("rendered-result")).toContainText("Reindex complete");
    await expect(page.getByTestId("log-messages")).toHaveCount(0);

    await page.getByTestId("pref-log-level").selectOption("info");
    await page.getByTestId("send").click();
    await expect(page.getByTestId("log-messages")).toContainText("Shard 2/2 rebuilt.");
    await page.reload();
    await expectEditor(page);
    await expect(page.getByTestId("pref-log-level")).toHaveValue("info");
  });
});
