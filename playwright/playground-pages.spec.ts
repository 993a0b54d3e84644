import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { editorText, openPlayground, send, setRequest } from "./helpers";

/**
 * One page at a time in the playground: a tools/list sent by hand answers one page, and its Rendered view offers
 * "Next page" (the request with `params.cursor` into the editor) and "Send next page" (and send it) until the last
 * page. Against the demo server: TOOLSCOPE_DEMO_PAGE_SIZE 5, about 20 tools. Screenshots go to $PAGES_SCREENS_DIR.
 */
const SCREENS = process.env.PAGES_SCREENS_DIR ?? "test-results/playground-pages";
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });

/** The tool names of the page on show (from the JSON tab), then back to Rendered. */
async function pageNames(page: Page): Promise<string[]> {
  await page.getByRole("tab", { name: "JSON" }).click();
  const raw = JSON.parse(await page.getByTestId("raw-json").innerText()) as { result: { tools: { name: string }[] } };
  await page.getByRole("tab", { name: "Rendered" }).click();
  return raw.result.tools.map((t) => t.name);
}

test.describe("playground: paginated lists one page at a time", () => {
  test.describe.configure({ timeout: 120_000 });

  test("tools/list: Next page fills the editor, Send next page sends it, the last page offers no next", async ({ page, request }) => {
    const connection = (await (await request.post("/api/connect", { data: { url: "builtin:demo", era: "auto" } })).json()).connection;
    const all = (
      (await (await request.post("/api/tools", { data: { connection, fresh: true } })).json()) as {
        tools: { name: string }[];
        pages: number;
      }
    ).tools.map((t) => t.name);
    expect(all.length).toBeGreaterThan(15);

    await openPlayground(page, "builtin:demo");
    await setRequest(page, LIST);
    await send(page);
    const bar = page.getByTestId("next-page-bar");
    await expect(bar).toContainText("5 items on this page; the server has more");
    const seen = await pageNames(page);
    expect(seen).toHaveLength(5);

    // Next page only edits: the request carries the cursor, the answer on show is still page 1.
    await page.getByTestId("next-page").click();
    await expect.poll(() => editorText(page)).toMatch(/"cursor": "[^"]+"/);
    const editor = await editorText(page);
    // The next page's request continues the ids (one more than the request sent).
    expect(JSON.parse(editor)).toMatchObject({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { cursor: expect.any(String) } });
    expect(await pageNames(page)).toEqual(seen);
    await send(page);
    await expect.poll(async () => (await pageNames(page))[0]).not.toBe(seen[0]);
    seen.push(...(await pageNames(page)));

    // Send next page inserts and sends at once, until the server has no more.
    for (let n = 3; await bar.isVisible(); n++) {
      expect(n, "more pages than the demo has").toBeLessThan(10);
      const before = (await pageNames(page))[0];
      await page.getByTestId("send-next-page").click();
      await expect.poll(async () => (await pageNames(page))[0]).not.toBe(before);
      seen.push(...(await pageNames(page)));
      await expect(page.getByTestId("last-page").or(bar)).toBeVisible();
    }
    await expect(page.getByTestId("last-page")).toContainText("last page (no nextCursor)");
    await expect(page.getByTestId("next-page")).toHaveCount(0);
    await expect(page.getByTestId("send-next-page")).toHaveCount(0);
    // Page by page, the same tools as the docs' full walk, in order.
    expect(seen).toEqual(all);
    expect(Math.ceil(all.length / 5)).toBeGreaterThanOrEqual(4);
  });

  test("resources/list and resources/templates/list say where the list stands too; screenshots of the bar", async ({ page }) => {
    await openPlayground(page, "builtin:demo");
    // (The demo has no prompts; prompts/list is covered by the unit tests of lib/editor/next-page.ts.)
    for (const method of ["resources/list", "resources/templates/list"]) {
      await setRequest(page, JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: {} }));
      await send(page);
      // The demo may or may not page these lists; either way the Rendered view says where the list stands.
      await expect(page.getByTestId("next-page-bar").or(page.getByTestId("last-page"))).toBeVisible();
    }
    await setRequest(page, LIST);
    await send(page);
    await expect(page.getByTestId("next-page-bar")).toBeVisible();
    // The theme toggle switches in place (a reload would lose the answer on show).
    const toggle = page.getByRole("button", { name: "Toggle dark mode" });
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      for (const scheme of ["light", "dark"] as const) {
        if ((await page.evaluate(() => document.documentElement.classList.contains("dark"))) !== (scheme === "dark")) await toggle.click();
        await page.getByTestId("next-page-bar").scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENS}/next-page-${width}-${scheme}.png` });
      }
    }
    if (await page.evaluate(() => document.documentElement.classList.contains("dark"))) await toggle.click();
  });
});
