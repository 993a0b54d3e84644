import { readFile } from "node:fs/promises";
import { expect, test } from "./test";
import type { Page } from "@playwright/test";
import { forbidExternalRequests } from "./helpers";

/** The tool rows of a docs page, by machine name, in page order. */
async function toolRows(page: Page): Promise<string[]> {
  await expect(page.getByTestId("tool-index")).toBeVisible();
  return page
    .locator('[data-testid^="tool-row-"]')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.testid!.slice("tool-row-".length)));
}

/** Click Share on a live docs page and return the permalink it shows. */
async function share(page: Page): Promise<string> {
  await page.getByTestId("share-button").click();
  const link = page.getByTestId("share-link");
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{22}$/);
  return link.inputValue();
}

test.describe("sharing, export and diff", () => {
  test("share the demo docs → permalink in a fresh context → tool page → export → diff", async ({ page, browser }) => {
    test.setTimeout(180_000); // one long journey over nine page loads, two contexts and a download
    const external = forbidExternalRequests(page);
    await page.goto("/docs?server=builtin:demo");
    const heading = await page.getByRole("heading", { level: 1 }).textContent();
    const liveTools = await toolRows(page);
    expect(liveTools.length).toBeGreaterThan(3);

    const permalink = await share(page);
    const id = permalink.split("/s/")[1];
    expect(await share(page), "the same definitions give the same link").toBe(permalink);

    // A fresh context: no cookies, no storage, nothing of the sharer.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    const otherExternal = forbidExternalRequests(other);
    const res = await other.goto(new URL(permalink).pathname);
    expect(res?.status()).toBe(200);
    await expect(other.getByTestId("snapshot-banner")).toContainText("Snapshot of");
    await expect(other.getByRole("heading", { level: 1 })).toHaveText(heading!);
    expect(await toolRows(other)).toEqual(liveTools);
    await expect(other.locator('meta[property="og:title"]')).toHaveAttribute("content", `${heading} — MCP tools`);
    await expect(other.locator('meta[property="og:description"]')).toHaveAttribute("content", new RegExp(`^${liveTools.length} tools`));

    // A tool page inside the snapshot.
    await other
      .getByTestId("tool-index")
      .getByRole("link", { name: /Search issues/ })
      .click();
    await expect(other).toHaveURL(new RegExp(`/s/${id}/tools/search_issues$`));
    await expect(other.getByRole("heading", { level: 1 })).toContainText("Search issues");
    await expect(other.getByTestId("snapshot-banner")).toBeVisible();
    await expect(other.getByTestId("input-schema")).toContainText("query");

    // Markdown export downloads a file naming every tool.
    const [download] = await Promise.all([other.waitForEvent("download"), other.getByTestId("export-md").click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`-${id}\\.md$`));
    const md = await readFile((await download.path())!, "utf8");
    expect(md).toContain(`# ${heading}`);
    for (const name of liveTools) expect(md).toContain(`\`${name}\``);
    const html = await other.request.get(`/s/${id}/export.html`);
    expect(html.headers()["content-type"]).toContain("text/html");
    // The export keeps its own policy (it runs nothing): the pages' nonce policy must not replace it.
    expect(html.headers()["content-security-policy"]).toMatch(/^default-src 'none'/);
    expect(await html.text()).not.toContain("<script");
    const json = await other.request.get(`/s/${id}/export.json`);
    expect(((await json.json()) as { list: { tools: unknown[] } }).list.tools).toHaveLength(liveTools.length);

    // Two identical snapshots: no changes. The snapshot against live: none either.
    await other.goto(`/diff?a=${id}&b=${id}`);
    await expect(other.getByTestId("diff-summary")).toContainText("No changes");
    await other.goto(`/s/${id}`);
    await other.getByTestId("compare-live").click();
    await expect(other.getByTestId("diff-summary")).toContainText("No changes");

    // The sharer's browser lists the snapshot on the diff page (the fresh context, which shared nothing, does not).
    await page.goto("/diff");
    const mine = page.getByTestId("my-snapshots");
    await expect(mine).toContainText(id);
    await mine.getByRole("link", { name: "Compare with live" }).first().click();
    await expect(page.getByTestId("diff-summary")).toContainText("No changes");
    await expect(other.getByTestId("my-snapshots")).toHaveCount(0);

    expect([...external, ...otherExternal]).toEqual([]);
    await fresh.close();
  });

  test("an unknown snapshot is a 404 page, and its exports are 404s", async ({ page, request }) => {
    const res = await page.goto("/s/AAAAAAAAAAAAAAAAAAAAAA");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("snapshot-not-found")).toBeVisible();
    expect((await request.get("/s/AAAAAAAAAAAAAAAAAAAAAA/export.md")).status()).toBe(404);
    expect((await page.goto("/s/not-an-id/tools/x"))?.status()).toBe(404);
  });

  test("sharing is done by the server: browser-sent definitions are not accepted", async ({ request }) => {
    const bad = await request.post("/api/snapshots", { data: { tools: [{ name: "x" }] } });
    expect(bad.status()).toBe(400);
    const ok = await request.post("/api/snapshots", { data: { server: "builtin:demo" } });
    expect(ok.status()).toBe(200);
    const body = (await ok.json()) as { id: string; url: string };
    expect(body.url).toMatch(new RegExp(`/s/${body.id}$`));
  });
});
