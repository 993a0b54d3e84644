/** The MCP Apps extension on the wire, and the playground's switch that connects again without it (demo, 2026-07-28). */
import { expect, test } from "./test";
import { openPlayground, send } from "./helpers";

const UI = "io.modelcontextprotocol/ui";

test("every request declares MCP Apps support; the switch, worked by keyboard, connects again without it", async ({ page }) => {
  await openPlayground(page, "builtin:demo", "search_issues");
  await send(page);
  await page.getByRole("tab", { name: /HTTP/ }).click();
  const sent = page.getByTestId("http-exchange").locator("pre").first();
  await expect(sent).toContainText(UI);
  await expect(sent).toContainText("text/html;profile=mcp-app");

  const toggle = page.getByTestId("pref-apps");
  await expect(toggle).toBeChecked();
  await toggle.focus();
  await page.keyboard.press("Space");
  await expect(toggle).not.toBeChecked();
  // The preview follows the new connection before anything is sent.
  await expect(page.getByTestId("send-preview-body")).not.toContainText(UI);
  await expect(page.getByTestId("send-preview-body")).toContainText("io.modelcontextprotocol/clientCapabilities");

  await send(page);
  await page.getByRole("tab", { name: /HTTP/ }).click();
  await expect(page.getByTestId("http-exchange").locator("pre").first()).not.toContainText(UI);
  await expect(page.getByTestId("http-exchange").locator("pre").first()).toContainText('"elicitation"');

  // Remembered in this browser: a reload connects without it too.
  await page.reload();
  await expect(page.getByTestId("pref-apps")).not.toBeChecked();
  await expect(page.getByTestId("send-preview-body")).not.toContainText(UI);
});
