import { expect, test } from "./test";

import { demoRpc, openPlayground, send, setRequest } from "./helpers";

/**
 * An "unknown tool" answer means the list the browser holds may be out of date (caching.mdx §Freshness
 * Calculation): the playground fetches it again past the proxy's cache, and completion/diagnostics follow.
 */
test("an unknown-tool answer makes the playground fetch the tool list again", async ({ page, request }) => {
  const toggle = (enabled: boolean) =>
    demoRpc(request, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "toggle_beta_tools", arguments: { enabled } } });
  await toggle(true);
  try {
    // The proxy may hold the demo's list from before the switch (its ttlMs): refresh it, as a page would after list_changed.
    const { connection } = await (await request.post("/api/connect", { data: { url: "builtin:demo" } })).json();
    const fresh = await (await request.post("/api/tools", { data: { connection, fresh: true } })).json();
    expect(fresh.tools.map((t: { name: string }) => t.name)).toContain("beta_summarize_issue");
    // The playground's listen stream would hear the switch and fetch the list at once (the notifications pane); this
    // test is about the other path, an unknown-tool answer, so the page does not listen here.
    await page.route("**/api/rpc", (route) =>
      route.request().postData()?.includes('"subscriptions/listen"') ? route.abort() : route.continue(),
    );
    await openPlayground(page, "builtin:demo");
    await toggle(false);
    const freshLists: unknown[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/tools") && (req.postDataJSON() as { fresh?: boolean }).fresh === true)
        freshLists.push(req.postDataJSON());
    });
    // The browser still lists the beta tool, so the editor accepts the call; the server no longer knows it.
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "beta_summarize_issue", arguments: { issue_id: 1 } } }),
    );
    await expect(page.getByTestId("problems-none")).toBeVisible();
    await send(page);
    await expect(page.getByTestId("tools-notice")).toContainText("tool list was fetched again");
    expect(freshLists).toHaveLength(1);
    // With the new list, the editor now flags the name.
    await expect(page.getByTestId("problems")).toContainText('unknown tool "beta_summarize_issue"');
  } finally {
    await toggle(false);
  }
});
