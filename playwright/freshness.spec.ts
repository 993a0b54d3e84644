import type { APIRequestContext, Page } from "@playwright/test";
import { encodeShare } from "../lib/share/share-codec";
import { demoRpc, expectEditor, openPlayground, send, setRequest } from "./helpers";
import { expect, test } from "./test";

/**
 * No stale tool lists: the tester's sequence on the demo server. `toggle_beta_tools` changes the list for everyone;
 * afterwards the playground's templates and completion, a docs page opened right after, "Compare with live" and
 * Share all show the new list. The demo's switch is process-wide, so each test puts it in a known state first.
 */
const BETA = "beta_summarize_issue";
const SHOTS = process.env.FRESHNESS_SHOTS_DIR;

const toggle = (enabled: boolean) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "toggle_beta_tools", arguments: { enabled } } });

/**
 * Set the demo's switch through our API (a modern call: nobody hears a list_changed), then list past the cache, so
 * every cached view starts from the switch's state (a fetch that finds another list drops the others).
 */
async function setBeta(request: APIRequestContext, enabled: boolean) {
  const response = await demoRpc(request, JSON.parse(toggle(enabled)) as Record<string, unknown>);
  expect((response.result as { structuredContent: { enabled: boolean } }).structuredContent.enabled).toBe(enabled);
  const { connection } = await (await request.post("/api/connect", { data: { url: "builtin:demo", era: "auto" } })).json();
  const listed = await request.post("/api/tools", { data: { connection, fresh: true } });
  expect(((await listed.json()) as { tools: { name: string }[] }).tools.some((t) => t.name === BETA)).toBe(enabled);
}

/** The playground's own call templates for the beta tool, as the command palette offers them. */
async function paletteOffersBeta(page: Page): Promise<boolean> {
  await page.getByTestId("request-editor").locator(".monaco-editor .view-lines").click();
  await page.keyboard.press("ControlOrMeta+K");
  const palette = page.getByTestId("command-palette");
  await expect(palette).toBeVisible();
  await page.keyboard.type("call beta_");
  const offered =
    (await palette
      .getByTestId("palette-item")
      .filter({ hasText: `Call ${BETA}` })
      .count()) > 0;
  await page.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  return offered;
}

/** Monaco's completion in a tools/call's name: whether it offers the beta tool (sorted by name, it is near the top). */
async function completionOffersBeta(page: Page): Promise<boolean> {
  const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "", "arguments": {}}}`;
  await setRequest(page, text);
  await page.keyboard.press("End");
  for (let i = 0; i < `", "arguments": {}}}`.length; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Control+Space");
  const suggest = page.locator(".suggest-widget.visible");
  await expect(suggest).toBeVisible();
  await expect(suggest.locator(".monaco-list-row").filter({ hasText: "add_to_basket" })).toHaveCount(1);
  const offered = (await suggest.locator(".monaco-list-row").filter({ hasText: BETA }).count()) > 0;
  await page.keyboard.press("Escape");
  return offered;
}

/**
 * The playground opened from a share link (which pins the era) with `request` in the editor. Such a page sends
 * nothing until asked: no listen stream either.
 */
async function openSharedPlayground(page: Page, era: "modern" | "legacy", request: string) {
  await page.goto(`/playground#${encodeShare({ server: "builtin:demo", era, request })}`);
  await expectEditor(page);
}

/** The tool names a stored snapshot holds (its JSON export). */
async function snapshotTools(request: APIRequestContext, id: string): Promise<string[]> {
  const stored = (await (await request.get(`/s/${id}/export.json`)).json()) as { list: { tools: { name: string }[] } };
  return stored.list.tools.map((t) => t.name);
}

async function shareDocs(page: Page): Promise<{ id: string; fetchedAt: string }> {
  await page.getByTestId("share-button").click();
  const link = await page.getByTestId("share-link").inputValue();
  const fetchedAt = (await page.getByTestId("share-fetched-at").locator("time").getAttribute("datetime"))!;
  return { id: new URL(link).pathname.split("/").pop()!, fetchedAt };
}

test.describe("no stale tool lists", () => {
  // Several page loads with Monaco, on a shared (busy) machine; the demo's switch is shared, so one test at a time.
  test.describe.configure({ mode: "serial", timeout: 150_000 });

  test("toggle_beta_tools in the playground: templates, completion, docs, Compare with live and Share follow", async ({
    page,
    request,
  }) => {
    await setBeta(request, true);
    // Every cache holds the list with the beta tool: the docs page (its snapshot, the proxy's list cache) and a snapshot.
    await page.goto("/docs?server=builtin:demo");
    await expect(page.getByTestId(`tool-row-${BETA}`)).toBeVisible();
    const before = await shareDocs(page);

    // The playground, on a legacy session (whose stream carries the server's list_changed), lists the beta tool.
    await openSharedPlayground(page, "legacy", toggle(false));
    expect(await paletteOffersBeta(page)).toBe(true);
    expect(await completionOffersBeta(page)).toBe(true);

    // Remove it by a call from the playground: the list_changed that comes with the call refreshes the list.
    await setRequest(page, toggle(false));
    await send(page);
    await expect(page.getByTestId("rendered-result")).toBeVisible();
    await expect(page.getByTestId("tools-notice")).toContainText(
      "The server announced that its tool list changed, so the tool list was fetched again",
    );
    expect(await paletteOffersBeta(page)).toBe(false);
    expect(await completionOffersBeta(page)).toBe(false);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/playground-notice.png` });

    // A docs page opened right after shows the new list (the proxy heard the change: every cached view was dropped).
    const docs = await page.context().newPage();
    await docs.goto("/docs?server=builtin:demo");
    await expect(docs.getByTestId("tool-row-search_issues")).toBeVisible();
    await expect(docs.getByTestId(`tool-row-${BETA}`)).toHaveCount(0);

    // Compare with live: the snapshot taken before against the server now, fetched just now.
    const started = Date.now();
    await docs.goto(`/diff?a=${before.id}&b=live`);
    await expect(docs.getByTestId("diff-summary")).toContainText("1 removed");
    await expect(docs.getByTestId("diff-removed")).toContainText(BETA);
    const liveWhen = (await docs.getByTestId("diff-sides").locator("dd").nth(1).innerText()).match(/fetched (.+)$/m)?.[1];
    expect(Date.parse(liveWhen!)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    if (SHOTS) await docs.screenshot({ path: `${SHOTS}/diff-live.png`, fullPage: true });

    // Share right after: the snapshot holds the new list, fetched now.
    await docs.goto("/docs?server=builtin:demo");
    const after = await shareDocs(docs);
    expect(after.id).not.toBe(before.id);
    expect(Date.parse(after.fetchedAt)).toBeGreaterThanOrEqual(started - 1_000);
    await expect(docs.getByTestId("share-fetched-at")).toContainText("Tool list fetched");
    if (SHOTS) await docs.screenshot({ path: `${SHOTS}/share-fetched.png` });
    expect(await snapshotTools(request, after.id)).not.toContain(BETA);

    // And back: adding it is followed the same way (the new tool is offered).
    await setRequest(page, toggle(true));
    await send(page);
    await expect(page.getByTestId("rendered-result")).toBeVisible();
    await expect.poll(() => paletteOffersBeta(page)).toBe(true);
    expect(await completionOffersBeta(page)).toBe(true);
    await docs.goto("/docs?server=builtin:demo");
    await expect(docs.getByTestId(`tool-row-${BETA}`)).toBeVisible();
  });

  test("the tester's sequence on a 2026-07-28 session: the playground's listen stream hears the change", async ({ page, request }) => {
    await setBeta(request, true);
    await openPlayground(page, "builtin:demo", "toggle_beta_tools");
    expect(await paletteOffersBeta(page)).toBe(true);
    await setRequest(page, toggle(false));
    await send(page);
    await expect(page.getByTestId("tools-notice")).toContainText("The server announced that its tool list changed");
    expect(await paletteOffersBeta(page)).toBe(false);
    expect(await completionOffersBeta(page)).toBe(false);
    const docs = await page.context().newPage();
    await docs.goto("/docs?server=builtin:demo");
    await expect(docs.getByTestId("tool-row-search_issues")).toBeVisible();
    await expect(docs.getByTestId(`tool-row-${BETA}`)).toHaveCount(0);
  });

  test("the server changes its list unannounced: Share and Compare with live still take the list as it is now", async ({
    page,
    request,
  }) => {
    await setBeta(request, false);
    await page.goto("/docs?server=builtin:demo");
    await expect(page.getByTestId("tool-row-search_issues")).toBeVisible();
    const before = await shareDocs(page);
    // Through the modern demo with nobody listening (the docs page's live updates closed): the caches keep the old list.
    await page.goto("about:blank");
    await demoRpc(request, JSON.parse(toggle(true)) as Record<string, unknown>);

    const started = Date.now();
    await page.goto(`/diff?a=${before.id}&b=live`);
    await expect(page.getByTestId("diff-summary")).toContainText("1 added");
    await page.goto("/docs?server=builtin:demo");
    // What Compare with live found is news for the docs page too.
    await expect(page.getByTestId(`tool-row-${BETA}`)).toBeVisible();
    const shared = await request.post("/api/snapshots", { data: { server: "builtin:demo" } });
    expect(shared.status()).toBe(200);
    const body = (await shared.json()) as { id: string; fetchedAt: string };
    expect(Date.parse(body.fetchedAt)).toBeGreaterThanOrEqual(started - 1_000);
    expect(await snapshotTools(request, body.id)).toContain(BETA);
  });

  test("screens: Share says when the list was fetched (light and dark, 1280 and 400 px)", async ({ page }) => {
    test.skip(!SHOTS, "set FRESHNESS_SHOTS_DIR to a folder to take the screenshots");
    for (const colorScheme of ["light", "dark"] as const)
      for (const width of [1280, 400]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/docs?server=builtin:demo");
        await shareDocs(page);
        await page.getByTestId("share-button").focus();
        await page.screenshot({ path: `${SHOTS}/share-${colorScheme}-${width}.png` });
      }
  });

  test("an unknown-tool answer refreshes the playground's list", async ({ page, request }) => {
    await setBeta(request, true);
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: BETA, arguments: { issue_id: 1 } } });
    await openSharedPlayground(page, "modern", call);
    expect(await paletteOffersBeta(page)).toBe(true);
    // Removed behind the playground's back (opened from a link, it has no listen stream: it hears nothing).
    await setBeta(request, false);
    expect(await paletteOffersBeta(page)).toBe(true);
    await setRequest(page, call);
    await send(page);
    await expect(page.getByTestId("tools-notice")).toContainText("The server did not know that tool, so the tool list was fetched again");
    expect(await paletteOffersBeta(page)).toBe(false);
    expect(await completionOffersBeta(page)).toBe(false);
    await setBeta(request, false);
  });
});
