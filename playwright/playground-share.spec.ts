import { expect, test } from "./test";

import { decodeShare } from "../lib/share/share-codec";
import { editorText, expectEditor, openPlayground, send, setRequest } from "./helpers";

const SECRET = "Bearer sk-live-do-not-share-123";
const REQUEST = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "search_issues", arguments: { query: "share_marker_42" } } };

test.describe("share links", () => {
  // Two page loads with Monaco each, on a shared (busy) machine.
  test.describe.configure({ timeout: 120_000 });

  test("share → open the link in a fresh context → editor filled, response shown, nothing sent until Send", async ({ page, browser }) => {
    // A credential configured for the server in this tab: it must never reach the link.
    await page.addInitScript(
      (secret) => sessionStorage.setItem("toolscope.headers.v1", JSON.stringify({ "builtin:demo": { Authorization: secret } })),
      SECRET,
    );
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(page, JSON.stringify(REQUEST));
    await send(page);
    await expect(page.getByTestId("rendered-result")).toBeVisible();

    await page.getByTestId("share-button").click();
    const dialog = page.getByTestId("share-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByTestId("share-with-response").check();
    const link = await dialog.getByTestId("share-url").inputValue();
    expect(link).toMatch(/\/playground#v1\.[A-Za-z0-9_-]+$/);
    expect(link).not.toContain("sk-live");
    const decoded = decodeShare(new URL(link).hash);
    expect(decoded.server).toBe("builtin:demo");
    expect(decoded.era).toBe("modern");
    expect(JSON.parse(decoded.request)).toEqual(REQUEST);
    expect(JSON.stringify(decoded)).not.toContain("sk-live");
    expect((decoded.response as { result?: unknown }).result).toBeTruthy();

    const fresh = await browser.newContext();
    try {
      const other = await fresh.newPage();
      const rpcCalls: string[] = [];
      other.on("request", (req) => {
        if (new URL(req.url()).pathname === "/api/rpc") rpcCalls.push(req.url());
      });
      await other.goto(link);
      await expectEditor(other);
      await expect(other.getByTestId("share-banner")).toContainText("Nothing has been sent");
      await expect.poll(() => editorText(other)).toContain("share_marker_42");
      await expect(other.getByTestId("shared-response")).toContainText("nothing was sent from here");
      await other.waitForTimeout(1500);
      expect(rpcCalls, "opening a share link sends nothing").toEqual([]);

      // Send is what sends.
      await other.getByTestId("send").click();
      await expect(other.getByTestId("result-tabs")).toBeVisible();
      expect(rpcCalls.length).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  test("a damaged or unknown-version link says why and still opens the playground", async ({ page }) => {
    await page.goto("/playground#v9.abcdef");
    await expect(page.getByTestId("share-error")).toContainText("format v9");
    await expectEditor(page);
    await page.goto("/playground#v1.@@@");
    await expect(page.getByTestId("share-error")).toContainText("damaged");
  });
});
