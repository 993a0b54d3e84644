import { expect, test } from "./test";

import { forbidExternalRequests, openPlayground, send, setRequest } from "./helpers";

test.describe("playground editor against the demo server", () => {
  test("a prefilled search_issues call is sent from the editor and its structured result rendered", async ({ page }) => {
    const external = forbidExternalRequests(page);
    await openPlayground(page, "builtin:demo", "search_issues");
    await expect(page.getByTestId("connection-era")).toContainText("modern");
    await send(page);
    const structured = page.getByTestId("structured-content");
    await expect(structured).toBeVisible();
    await expect(page.getByTestId("output-verdict")).toHaveText("matches outputSchema");
    await expect(structured).toContainText("issues");

    await page.getByRole("tab", { name: "JSON" }).click();
    await expect(page.getByTestId("raw-json")).toContainText('"structuredContent"');
    await page.getByRole("tab", { name: /HTTP/ }).click();
    const exchange = page.getByTestId("http-exchange");
    await expect(exchange.locator('[data-mcp-header="mcp-method"]')).toContainText("tools/call");
    await expect(exchange.locator('[data-mcp-header="mcp-name"]')).toContainText("search_issues");
    await expect(page.getByTestId("http-status").first()).toContainText("HTTP 200");
    expect(external).toEqual([]);
  });

  test("live diagnostics flag a bad enum value, and sending it anyway shows the tool's own error", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "search_issues", arguments: { query: "login", status: "done" } },
      }),
    );
    await expect(page.getByTestId("request-editor").locator(".squiggly-error").first()).toBeVisible();
    await expect(page.getByTestId("problems")).toContainText("status must be one of open, in_progress, closed");
    await send(page);
    await expect(page.getByTestId("tool-error")).toBeVisible();
    await expect(page.getByTestId("rendered-result")).toContainText("Allowed values");
  });

  test("an unknown tool name gets a did-you-mean diagnostic; a JSON-RPC error is shown by kind", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search_issue", arguments: {} } }),
    );
    await expect(page.getByTestId("problems")).toContainText("search_issues");
    await page.getByTestId("send").click();
    await expect(page.getByTestId("rpc-error")).toBeVisible();
  });

  test("image, audio and resource results render", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "render_chart");
    await send(page);
    await expect(page.getByTestId("content-image").locator("img")).toBeVisible();
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "speak_summary", arguments: {} } }),
    );
    await send(page);
    await expect(page.getByTestId("content-audio").locator("audio")).toBeAttached();
  });
});
