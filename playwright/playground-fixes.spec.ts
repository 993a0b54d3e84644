import type { Page } from "@playwright/test";
import { expect, test } from "./test";
import { startEverythingServer } from "./fixtures/everything-server";
import { editorText, ensureClosedIssue, expectEditor, focusEditor, mrtrDialog, openPlayground, send, setRequest } from "./helpers";

/**
 * Defects found by using the playground: focus after dialogs, the result on narrow screens, one message for a request
 * Send refuses, the default server log level, ids that continue, completion types, narrow-screen wrapping, and the
 * error for a URL that is not an MCP endpoint. Screenshots go to FIXES_SHOTS_DIR when it names a directory.
 */

const SHOTS = process.env.FIXES_SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/** The keyboard focus is in Monaco (its input element depends on the browser: EditContext or a textarea). */
async function expectEditorFocused(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('[data-testid="request-editor"] .monaco-editor') != null))
    .toBe(true);
}

/** The demo's tool call, written into the editor (the page may restore another request than the `tool` parameter's). */
async function writeCall(page: Page, name: string, args: Record<string, unknown> = {}) {
  await setRequest(page, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }));
}

/** The focus is back in the editor, and Ctrl/Cmd+Enter sends from there (the caller counts the history entries). */
async function expectSendsFromEditor(page: Page) {
  await expectEditorFocused(page);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done");
}

test.describe("focus returns where it was when a dialog closes", () => {
  test("palette (Escape, a command, Show history), Share from the palette, Save: the editor keeps the focus and Ctrl/Cmd+Enter sends", async ({
    page,
  }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const exchanges = page.locator('[data-testid="exchange"][data-state="done"]');

    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+K");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("command-palette")).toBeHidden();
    await expectEditorFocused(page);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(exchanges).toHaveCount(1);

    // A command that changes the page (the history panel opens): the focus is still in the editor.
    await page.keyboard.press("ControlOrMeta+K");
    await page.keyboard.type("show history");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("history-entry").first()).toBeVisible();
    await expectSendsFromEditor(page);
    await expect(page.getByTestId("history-entry")).toHaveCount(2);

    // Share opened from the palette: the palette's origin is handed on, so closing Share returns to the editor.
    await page.keyboard.press("ControlOrMeta+K");
    await page.keyboard.type("share this");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("share-dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("share-dialog")).toBeHidden();
    await expectSendsFromEditor(page);
    await expect(page.getByTestId("history-entry")).toHaveCount(3);

    // Save (Ctrl/Cmd+S from the editor), saved: the focus comes back too.
    await page.keyboard.press("ControlOrMeta+S");
    await expect(page.getByTestId("save-dialog")).toBeVisible();
    await page.getByTestId("save-name").fill(`focus check ${Date.now()}`);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("save-dialog")).toBeHidden();
    await expectSendsFromEditor(page);
    await expect(page.getByTestId("history-entry")).toHaveCount(4);

    // Hide history through the palette, opened from the toolbar button: the focus goes back to that button.
    await page.getByTestId("palette-button").click();
    await page.keyboard.type("hide history");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("history-entry")).toHaveCount(0);
    await expect(page.getByTestId("palette-button")).toBeFocused();
  });

  test("the MRTR dialog gives the focus back to the editor after the call, even when Send was clicked", async ({ page, request }) => {
    await ensureClosedIssue(request);
    await openPlayground(page, "builtin:demo", "purge_closed_issues");
    await writeCall(page, "purge_closed_issues");
    await page.getByTestId("pref-confirm-destructive").uncheck();
    // Sent with the button, which is disabled while the call runs: the origin cannot take the focus back, the editor does.
    await page.getByTestId("send").click();
    const dialog = mrtrDialog(page);
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.locator('[data-testid="exchange"][data-state="done"]')).toHaveCount(1);
    await expectEditorFocused(page);

    // From the editor with the shortcut: back to the editor, and the shortcut sends again at once.
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("mrtr-abandon").click();
    await expect(dialog).toBeHidden();
    await expectEditorFocused(page);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
  });
});

test.describe("the server-request dialog", () => {
  let everything: { url: string; stop: () => void } | undefined;
  test.beforeAll(async () => {
    everything = await startEverythingServer("streamableHttp");
  });
  test.afterAll(() => everything?.stop());

  test("gives the focus back to the editor when it closes, so Ctrl/Cmd+Enter sends again at once", async ({ page }) => {
    await page.goto(`/playground?${new URLSearchParams({ server: everything!.url })}`);
    await expectEditor(page);
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "trigger-elicitation-request", arguments: {} } }),
    );
    const dialog = page.getByTestId("server-request-dialog");
    // Sent with the button (disabled while the call runs): the editor takes the focus back.
    await page.getByTestId("send").click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expectEditorFocused(page);
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-state", "done");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("elicit-decline").click();
    await expect(dialog).toBeHidden();
    await expectEditorFocused(page);
  });
});

test.describe("narrow screens", () => {
  test("at 400 px the result of a Send is brought into view; at 1280 px nothing scrolls", async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 800 });
    await openPlayground(page, "builtin:demo", "search_issues");
    await send(page);
    // Most of the result is on screen (not a sliver at the bottom), and the page scrolled past the editor to get there.
    await expect(page.getByTestId("result-tabs")).toBeInViewport({ ratio: 0.6 });
    await expect(page.getByTestId("request-editor")).not.toBeInViewport();
    await shot(page, "result-400");

    // Side by side: the result is beside the editor, and the page stays where it is.
    await page.setViewportSize({ width: 1280, height: 800 });
    await focusEditor(page);
    const before = await page.evaluate(() => window.scrollY);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("history-entry")).toHaveCount(0); // (history closed: nothing else moves the page)
    await expect(page.locator('[data-testid="exchange"][data-state="done"]')).toBeVisible();
    await page.waitForTimeout(800);
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
  });

  test("at 400 px the history × and the ? button stay on their row; the log level sits beside Send", async ({ page }) => {
    await page.setViewportSize({ width: 400, height: 800 });
    await openPlayground(page, "builtin:demo", "search_issues");
    await send(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId("history-button").click();
    const entry = page.getByTestId("history-entry").first();
    await expect(entry).toBeVisible();
    const replay = (await entry.getByTestId("history-replay").boundingBox())!;
    const remove = (await entry.getByRole("button", { name: /Delete the entry/ }).boundingBox())!;
    expect(Math.abs(remove.y + remove.height / 2 - (replay.y + replay.height / 2))).toBeLessThan(4);

    const help = (await page.getByTestId("help-button").boundingBox())!;
    const copy = (await page.getByTestId("copy-code-button").boundingBox())!;
    expect(Math.abs(help.y - copy.y)).toBeLessThan(4);

    const picker = (await page.getByTestId("pref-log-level").boundingBox())!;
    const sendButton = (await page.getByTestId("send").boundingBox())!;
    expect(Math.abs(picker.y + picker.height / 2 - (sendButton.y + sendButton.height / 2))).toBeLessThan(6);
    await shot(page, "history-400");
  });
});

test.describe("a request Send refuses", () => {
  test("one message everywhere (what, where, not sent until fixed); the result on screen is marked as the previous one", async ({
    page,
  }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await send(page);
    await expect(page.getByTestId("previous-result")).toHaveCount(0);

    await setRequest(page, '{"jsonrpc": "2.0" "id": 5, "method": "tools/list"}');
    const blocked = page.getByTestId("send-blocked");
    await expect(blocked).toHaveText(
      /^Line \d+, column \d+: The request is not valid JSON: A comma is expected\. Send will not send the request until this is fixed\.$/,
    );
    const expected = (await blocked.textContent()) ?? "";
    await expect(page.getByTestId("send-preview-problem")).toHaveText(expected);
    await expect(page.getByTestId("send-preview-toggle")).toContainText("Send will not send it until fixed");
    await expect(page.getByText(/you can still send it/)).toHaveCount(0);

    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("send-blocked")).toHaveText(`Not sent. ${expected}`);
    await expect(page.getByTestId("previous-result")).toContainText("Result of the previous send");
    await expect(page.getByTestId("exchange")).toHaveAttribute("data-previous", "true");
    await shot(page, "refused-1280");

    // Fixed and sent: the new result is current again.
    await setRequest(page, '{"jsonrpc": "2.0", "id": 5, "method": "tools/list"}');
    await expect(page.getByTestId("send-blocked")).toHaveCount(0);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("previous-result")).toHaveCount(0);
  });

  test("schema problems do not block: they say the request can still be sent", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_issues", arguments: { status: "done" } } }),
    );
    await expect(page.getByTestId("send-still-possible")).toContainText("it can still be sent");
    await expect(page.getByTestId("problems")).toContainText("Line 1, column");
  });
});

test("server log level: debug by default, so the demo's reindex shows its log lines", async ({ page }) => {
  await openPlayground(page, "builtin:demo", "reindex");
  await writeCall(page, "reindex");
  await expect(page.getByTestId("pref-log-level")).toHaveValue("debug");
  await send(page);
  await expect(page.getByTestId("log-messages")).toContainText("Reindex started");
  await expect(page.getByTestId("rendered-result")).toContainText("Reindex complete");
});

test("templates continue the ids: one more than the editor's and the last sent request's", async ({ page }) => {
  await openPlayground(page, "builtin:demo", "search_issues");
  await setRequest(page, '{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}');
  await send(page);
  await page.keyboard.press("ControlOrMeta+K");
  await page.keyboard.type("list tools");
  await page.keyboard.press("Enter");
  await expect.poll(() => editorText(page)).toContain('"id": 8');
  await page.keyboard.press("ControlOrMeta+K");
  await page.keyboard.type("call reindex");
  await page.keyboard.press("Enter");
  await expect.poll(() => editorText(page)).toContain('"id": 9');
});

test("completion shows a type for every argument, enum values included", async ({ page }) => {
  await openPlayground(page, "builtin:demo", "search_issues");
  const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "search_issues", "arguments": {}}}`;
  await setRequest(page, text);
  await page.keyboard.press("End");
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Control+Space");
  const suggest = page.locator(".suggest-widget.visible");
  await expect(suggest).toBeVisible();
  await expect(suggest.locator(".monaco-list-row").filter({ hasText: "limit" })).toContainText("integer");
  await expect(suggest.locator(".monaco-list-row").filter({ hasText: "status" })).toContainText(
    'string: "open" | "in_progress" | "closed"',
  );
  await shot(page, "completion-1280");
});

test("a URL that is not an MCP server: the error says what each transport got back and to check the path", async ({ page, baseURL }) => {
  // Our own health route: JSON, but not JSON-RPC, and no event stream.
  const url = `${baseURL}/api/health`;
  await page.goto(`/playground?server=${encodeURIComponent(url)}`);
  const banner = page.getByRole("alert").filter({ hasText: "did not answer like an MCP server" });
  await expect(banner).toContainText("Streamable HTTP: POST");
  await expect(banner).toContainText("Then HTTP+SSE: GET → HTTP 200 (application/json)");
  await expect(banner).toContainText("/mcp");
  await shot(page, "not-mcp-1280");
});

test("screens: toolbar with the log level, a refused send over the previous result, history (light and dark, 1280 and 400 px)", async ({
  page,
}) => {
  test.skip(!SHOTS, "FIXES_SHOTS_DIR names no directory");
  test.setTimeout(180_000);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      await openPlayground(page, "builtin:demo", "reindex");
      await writeCall(page, "reindex");
      await send(page);
      await expect(page.getByTestId("log-messages")).toContainText("Reindex started");
      await shot(page, `sent-${scheme}-${width}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `top-${scheme}-${width}`);
      await setRequest(page, '{"jsonrpc": "2.0" "id": 5, "method": "tools/list"}');
      await page.keyboard.press("ControlOrMeta+Enter");
      await expect(page.getByTestId("previous-result")).toBeVisible();
      await page.getByTestId("send-blocked").scrollIntoViewIfNeeded();
      await shot(page, `refused-${scheme}-${width}`);
      await page.getByTestId("previous-result").scrollIntoViewIfNeeded();
      await shot(page, `previous-${scheme}-${width}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByTestId("history-button").click();
      await expect(page.getByTestId("history-entry").first()).toBeVisible();
      await shot(page, `history-${scheme}-${width}`);
    }
  }
});
