import { expect, test } from "./test";

import { forbidExternalRequests } from "./helpers";

test.describe("docs generated from tool definitions", () => {
  test("from the home page to the demo's docs, to search_issues, to the playground", async ({ page }) => {
    const external = forbidExternalRequests(page);
    await page.goto("/");
    await page.getByTestId("open-demo").click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Toolscope demo issue tracker");
    await expect(page.getByTestId("server-era")).toContainText("modern");
    const index = page.getByTestId("tool-index");
    await expect(index.getByRole("link", { name: /Search issues/ })).toBeVisible();
    // display name precedence: title first, machine name beside it
    await expect(index.getByTestId("tool-row-search_issues")).toContainText("search_issues");
    await index.getByRole("link", { name: /Search issues/ }).click();

    await expect(page.getByRole("heading", { level: 1 })).toContainText("Search issues");
    const params = page.getByTestId("input-schema");
    await expect(params).toContainText("status");
    await expect(params).toContainText("query");
    await expect(page.getByTestId("output-schema")).toContainText("issues");
    await expect(page.getByTestId("annotation-badges")).toContainText("read-only");
    await expect(page.getByTestId("copy-curl")).toBeVisible();

    await page.getByRole("link", { name: "Open in playground", exact: true }).click();
    await expect(page).toHaveURL(/\/playground\?server=builtin%3Ademo&tool=search_issues/);
    await expect(page.getByTestId("request-editor").locator(".monaco-editor")).toBeVisible();
    expect(external).toEqual([]);
  });

  test("a tool with no parameters, one with x-mcp-header, and the badges of a destructive tool", async ({ page }) => {
    await page.goto("/docs/tools/get_stats?url=builtin%3Ademo");
    await expect(page.getByTestId("input-schema")).toContainText(/takes no parameters/i);
    await page.goto("/docs/tools/execute_sql?server=builtin%3Ademo");
    await expect(page.getByTestId("input-schema")).toContainText("Mcp-Param-Region");
    await page.goto("/docs/tools/delete_issue?server=builtin%3Ademo");
    await expect(page.getByTestId("annotation-badges")).toContainText("destructive");
  });

  test("connecting to the published server-everything from the home page shows its tools (legacy era)", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("MCP server URL").fill(process.env.EVERYTHING_URL!);
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByTestId("server-era")).toContainText("legacy");
    await expect(page.getByTestId("tool-index").getByTestId("tool-row-echo")).toBeVisible();
  });

  test("a local URL typed without its scheme is taken as http (issue 26: the browser only said 'Please enter a URL')", async ({ page }) => {
    await page.goto("/");
    const field = page.getByLabel("MCP server URL");
    const bare = process.env.EVERYTHING_URL!.replace(/^http:\/\//, "");
    await field.fill(bare);
    await field.press("Enter");
    await expect(page.getByTestId("server-era")).toContainText("legacy");
    await expect(page).toHaveURL(new RegExp(`server=${encodeURIComponent(`http://${bare}`)}`));

    await page.goto("/");
    await page.getByLabel("MCP server URL").fill("my server");
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByTestId("connect-error")).toContainText("contains a space");
  });

  test("a non-MCP URL shows a clear error on the connect form", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("MCP server URL").fill(`${process.env.MISBEHAVING_BASE}/html`);
    await page.getByRole("button", { name: "Connect" }).click();
    // The proxy's upstream-protocol error for an answer that is not MCP: it names the URL, and the hint the mistake.
    const error = page.getByTestId("connect-error");
    await expect(error).toContainText(
      `${process.env.MISBEHAVING_BASE}/html did not answer like an MCP server: its answer has Content-Type text/html, not JSON or an event stream.`,
    );
    await expect(error).toContainText("Check that the URL is the MCP endpoint itself, not a web page");
  });
});
