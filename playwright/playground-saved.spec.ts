import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { editorText, expectEditor, focusEditor, openPlayground, setRequest } from "./helpers";

/**
 * Saved requests: save from the editor (Ctrl/Cmd+S and the toolbar), kept across reloads, grouped by server, opened
 * without sending, renamed, exported without any header value, deleted, imported back; a junk file changes nothing.
 * Screenshots go to $SAVED_SCREENS_DIR (default test-results/saved-screens/) in light and dark, 1280 and 400 px wide.
 */

const SECRET = "Bearer sk-live-saved-requests-secret";
const call = (query: string) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_issues", arguments: { query } } });
const SCREENS = process.env.SAVED_SCREENS_DIR ?? "test-results/saved-screens";

async function saveAs(page: Page, name: string) {
  const dialog = page.getByTestId("save-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("save-name").fill(name);
  await page.keyboard.press("Enter");
}

const entries = (page: Page) => page.getByTestId("saved-entry");

test.describe("saved requests", () => {
  // Two page loads with Monaco each, on a shared (busy) machine.
  test.describe.configure({ timeout: 150_000 });

  test("save, reload, open without sending, rename, export without headers, delete, import back; junk changes nothing", async ({
    page,
  }) => {
    // A credential configured for the demo in this tab: it must never reach a saved request or an export.
    await page.addInitScript(
      (secret) => sessionStorage.setItem("toolscope.headers.v1", JSON.stringify({ "builtin:demo": { Authorization: secret } })),
      SECRET,
    );
    await openPlayground(page, "builtin:demo", "search_issues");

    // Ctrl/Cmd+S in the editor opens the save dialog (not the browser's "save page").
    await setRequest(page, call("saved-login"));
    await focusEditor(page);
    await page.keyboard.press("ControlOrMeta+S");
    await expect(page.getByTestId("save-name")).toHaveValue("search_issues");
    await saveAs(page, "  Login search ");
    await expect(page.getByTestId("save-dialog")).toBeHidden();
    await expect(page.getByTestId("saved-status")).toHaveText("Saved “Login search” for builtin:demo.");

    await setRequest(page, call("saved-webhook"));
    await page.getByTestId("save-button").click();
    await saveAs(page, "Webhook");
    await expect(entries(page)).toHaveCount(2);

    // The same name (any case) on the same server asks before replacing.
    await page.getByTestId("save-button").click();
    await saveAs(page, "login SEARCH");
    await expect(page.getByTestId("save-clash")).toContainText("“Login search” is already saved for this server");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("save-dialog")).toBeHidden();

    // Kept across a reload, grouped under the demo server (first: it is this playground's server).
    await page.reload();
    await expectEditor(page);
    await expect(page.getByTestId("saved-button")).toContainText("(2)");
    await page.keyboard.press("ControlOrMeta+K");
    await page.keyboard.type("show saved");
    await page.keyboard.press("Enter");
    const group = page.getByTestId("saved-group").first();
    await expect(group).toHaveAttribute("data-server", "builtin:demo");
    await expect(group).toContainText("this server");
    await expect(group.getByTestId("saved-name")).toHaveText(["Login search", "Webhook"]);

    // Open fills the editor; nothing is sent.
    const rpc: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname.startsWith("/api/rpc")) rpc.push(req.url());
    });
    await setRequest(page, call("something-else"));
    await page.locator('[data-testid="saved-entry"][data-name="Login search"]').getByTestId("saved-open").click();
    await expect.poll(() => editorText(page)).toContain('"query":"saved-login"');
    await page.waitForTimeout(500);
    expect(rpc).toEqual([]);

    // Rename: Enter commits; a name taken on this server is refused.
    const webhook = page.locator('[data-testid="saved-entry"][data-name="Webhook"]');
    await webhook.getByTestId("saved-rename").click();
    await page.getByTestId("saved-rename-input").fill("login search");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "already saved for this server" })).toBeVisible();
    await page.getByTestId("saved-rename-input").fill("Webhook search");
    await page.keyboard.press("Enter");
    await expect(group.getByTestId("saved-name")).toHaveText(["Login search", "Webhook search"]);

    // Export: the whole set, with no header value anywhere.
    const downloading = page.waitForEvent("download");
    await page.getByTestId("saved-export-all").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^toolscope-saved-requests-\d{4}-\d{2}-\d{2}\.json$/);
    const exportedPath = await download.path();
    const exported = await readFile(exportedPath, "utf8");
    expect(exported).not.toContain("sk-live");
    expect(exported).not.toMatch(/authorization|headers/i);
    const doc = JSON.parse(exported);
    expect(doc).toMatchObject({ toolscope: "saved-requests", version: 1 });
    expect(doc.requests.map((r: { name: string; server: string }) => [r.name, r.server])).toEqual([
      ["Login search", "builtin:demo"],
      ["Webhook search", "builtin:demo"],
    ]);

    // Delete all, with undo; then import the export back.
    await page.getByTestId("saved-delete-all").click();
    await expect(entries(page)).toHaveCount(0);
    await expect(page.getByTestId("saved-status")).toContainText("Deleted 2 saved requests.");
    await page.getByTestId("saved-undo").click();
    await expect(entries(page)).toHaveCount(2);
    await page.getByTestId("saved-delete-all").click();
    await expect(entries(page)).toHaveCount(0);
    await expect(page.getByTestId("saved-button")).toHaveText("Saved");

    await page
      .getByTestId("saved-import-file")
      .setInputFiles({ name: "saved.json", mimeType: "application/json", buffer: Buffer.from(exported) });
    await expect(page.getByTestId("saved-status")).toHaveText("saved.json: Imported 2.");
    await expect(group.getByTestId("saved-name")).toHaveText(["Login search", "Webhook search"]);

    // A junk file: a specific error, nothing lost.
    const junk = JSON.stringify({ toolscope: "saved-requests", version: 9, requests: [] });
    await page
      .getByTestId("saved-import-file")
      .setInputFiles({ name: "junk.json", mimeType: "application/json", buffer: Buffer.from(junk) });
    await expect(page.getByTestId("saved-status")).toHaveAttribute("data-kind", "error");
    await expect(page.getByTestId("saved-status")).toHaveText(
      "junk.json was not imported (nothing changed): The file has format version 9; this Toolscope reads version 1 only.",
    );
    await expect(entries(page)).toHaveCount(2);

    // Entry by entry: a bad one is named by its path; a headers field is dropped and said so; a same-named one replaces.
    const mixed = JSON.stringify({
      toolscope: "saved-requests",
      version: 1,
      requests: [
        { name: "", server: "builtin:demo", request: "{}" },
        { name: "With headers", server: "builtin:demo", request: call("h"), headers: { Authorization: "Bearer sk-live-imported" } },
        { name: "Webhook search", server: "builtin:demo", request: call("replaced") },
      ],
    });
    await page
      .getByTestId("saved-import-file")
      .setInputFiles({ name: "mixed.json", mimeType: "application/json", buffer: Buffer.from(mixed) });
    await expect(page.getByTestId("saved-status")).toHaveText(
      "mixed.json: Imported 1, replaced 1, skipped 1 invalid: requests[0].name must be a non-empty string. Dropped the headers field of 1 entry: header values are never imported.",
    );
    await expect(group.getByTestId("saved-name")).toHaveText(["Login search", "Webhook search", "With headers"]);
    const stored = await page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const req = indexedDB.open("toolscope");
          req.onsuccess = () => {
            const all = req.result.transaction("saved").objectStore("saved").getAll();
            all.onsuccess = () => resolve(JSON.stringify(all.result));
            all.onerror = () => reject(all.error);
          };
          req.onerror = () => reject(req.error);
        }),
    );
    expect(stored).not.toContain("sk-live");
    expect(stored).toContain("replaced");
  });

  test("another server's request opens its playground with the request, like a share link: nothing sent", async ({ page }) => {
    const everything = process.env.EVERYTHING_URL!;
    await openPlayground(page, "builtin:demo");
    const echo = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo", arguments: { message: "from a saved request" } },
    });
    const seed = JSON.stringify({
      toolscope: "saved-requests",
      version: 1,
      requests: [{ name: "Echo", server: everything, request: echo }],
    });
    await page.keyboard.press("ControlOrMeta+K");
    await expect(page.getByTestId("palette-item").filter({ hasText: "Save request…" })).toBeVisible();
    await page.keyboard.type("show saved");
    await page.keyboard.press("Enter");
    await page
      .getByTestId("saved-import-file")
      .setInputFiles({ name: "seed.json", mimeType: "application/json", buffer: Buffer.from(seed) });
    const group = page.locator(`[data-testid="saved-group"][data-server="${everything}"]`);
    await expect(group).toBeVisible();

    const rpc: string[] = [];
    page.on("request", (req) => {
      if (new URL(req.url()).pathname.startsWith("/api/rpc")) rpc.push(req.url());
    });
    await group.getByTestId("saved-open").click();
    await expect(page).toHaveURL(/\/playground#v1\./);
    await expect(page.getByTestId("share-banner")).toContainText(everything);
    await expectEditor(page);
    await expect.poll(() => editorText(page)).toContain("from a saved request");
    expect(rpc).toEqual([]);

    await page.getByTestId("help-button").click();
    await expect(page.getByTestId("help-dialog")).toContainText("Ctrl/Cmd+S");
  });

  test("screenshots: the panel and the save dialog, light and dark, wide and narrow", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const seed = JSON.stringify({
      toolscope: "saved-requests",
      version: 1,
      requests: [
        {
          name: "Login bugs",
          server: "builtin:demo",
          era: "modern",
          request: call("login"),
          note: "The query from the bug report of 2 December.",
        },
        { name: "List tools", server: "builtin:demo", request: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) },
        {
          name: "Everything: echo",
          server: "https://mcp.example.com/mcp",
          era: "legacy",
          request: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "hi" } } }),
        },
        {
          name: "Files: read",
          server: "stdio:files",
          request: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "read_file", arguments: { path: "README.md" } },
          }),
        },
      ],
    });
    await page.getByTestId("saved-button").click();
    await page
      .getByTestId("saved-import-file")
      .setInputFiles({ name: "seed.json", mimeType: "application/json", buffer: Buffer.from(seed) });
    await expect(entries(page)).toHaveCount(4);
    await expect(page.getByTestId("saved-group").nth(2)).toContainText("open its playground to use these");

    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      for (const scheme of ["light", "dark"] as const) {
        await page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
        await page.getByTestId("saved-panel").scrollIntoViewIfNeeded();
        await page.getByTestId("saved-panel").screenshot({ path: path.join(SCREENS, `saved-panel-${width}-${scheme}.png`) });
        await page.getByTestId("save-button").click();
        await page.getByTestId("save-name").fill("login bugs");
        await page.keyboard.press("Enter");
        await expect(page.getByTestId("save-clash")).toBeVisible();
        await page.screenshot({ path: path.join(SCREENS, `save-dialog-${width}-${scheme}.png`) });
        await page.keyboard.press("Escape");
      }
    }
  });
});
