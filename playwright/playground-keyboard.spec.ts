import { expect, test } from "./test";
import { openPlayground } from "./helpers";

/** Keyboard paths of the request pane (issue 26, item 7). */
test.describe("the request pane from the keyboard", () => {
  test("Ctrl+Enter sends from the arguments form, not only from the editor", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const query = page.getByTestId("arguments-form").getByLabel(/query/);
    await query.fill("login");
    await query.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("result-tabs")).toBeVisible();
    await expect(page.getByTestId("structured-content")).toContainText("issues");
  });

  test("the editor shows a focus ring and says how Tab behaves there while it has the focus", async ({ page }) => {
    await openPlayground(page, "builtin:demo", "search_issues");
    const box = page.getByTestId("request-editor");
    const hint = page.getByTestId("editor-tab-hint");
    await expect(hint).toBeHidden();
    await box.focus(); // the box hands the focus to the editor, as after Tab or a closed dialog
    await expect(box.locator(":focus")).toHaveCount(1);
    await expect(hint).toBeVisible();
    await expect(hint).toContainText("Ctrl+M");
    const ring = await box.evaluate((el) => getComputedStyle(el).boxShadow);
    expect(ring, "a ring is drawn around the editor").not.toBe("none");
    // Ctrl+M makes Tab leave the editor; the hint goes with the focus.
    await page.keyboard.press("Control+m");
    await page.keyboard.press("Tab");
    await expect(hint).toBeHidden();
  });
});
