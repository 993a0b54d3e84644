import { expect, test } from "./test";

import { startEverythingServer } from "./fixtures/everything-server";

/**
 * A docs link must not break the moment its server goes down: the last copy that loaded stands in, marked stale
 * with when it was fetched and why the server could not be asked (caching.mdx allows stale data on a failed re-fetch).
 */
test("docs of a server that went down show the last good copy, marked stale", async ({ page }) => {
  const everything = await startEverythingServer();
  const server = everything.url;
  const docs = `/docs?server=${encodeURIComponent(server)}`;
  const toolPage = `/docs/tools/echo?server=${encodeURIComponent(server)}`;
  try {
    await page.goto(docs);
    await expect(page.getByTestId("tool-index").getByTestId("tool-row-echo")).toBeVisible();
    await expect(page.getByTestId("stale-docs")).toHaveCount(0);
    await page.goto(toolPage);
    await expect(page.getByTestId("stale-docs")).toHaveCount(0);
  } finally {
    everything.stop();
  }
  await expect
    .poll(
      async () =>
        await fetch(server, { method: "POST" }).then(
          () => "up",
          () => "down",
        ),
      { timeout: 10_000 },
    )
    .toBe("down");

  await page.goto(docs);
  const banner = page.getByTestId("stale-docs");
  await expect(banner).toContainText("could not be reached");
  // Refused for a new connection; "closed … before an answer" when a kept-alive socket from the last load is tried first.
  await expect(banner).toContainText(/connection refused|closed unexpectedly/);
  await expect(page.getByTestId("tool-index").getByTestId("tool-row-echo")).toBeVisible();
  await page.goto(toolPage);
  await expect(page.getByTestId("stale-docs")).toBeVisible();
  await expect(page.getByTestId("input-schema").getByTestId("param-name").first()).toHaveText("message");

  // A server never seen before has no copy: the outage is shown as the error it is.
  const never = server.replace(/\/mcp$/, "/other");
  await page.goto(`/docs?server=${encodeURIComponent(never)}`);
  await expect(page.getByTestId("proxy-error")).toHaveAttribute("data-kind", "upstream-unreachable");
});
