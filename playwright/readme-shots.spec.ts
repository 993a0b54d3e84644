import { expect, test } from "./test";
import { openPlayground, send } from "./helpers";

/**
 * The README's screenshots (docs/images/), taken only when README_SHOTS_DIR names a directory:
 * `README_SHOTS_DIR=docs/images npx playwright test playwright/readme-shots.spec.ts`.
 */
const dir = process.env.README_SHOTS_DIR;

test.describe("README screenshots", () => {
  test.skip(!dir, "README_SHOTS_DIR is not set");

  test("playground, home and a tool's docs at 1280 px", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 860 });
    await openPlayground(page, "builtin:demo", "search_issues");
    await page
      .getByTestId("arguments-form")
      .getByLabel(/^query/)
      .fill("login");
    await send(page);
    await expect(page.getByTestId("structured-content")).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/playground-light.png` });

    await page.goto("/");
    await page.screenshot({ path: `${dir}/home-light.png` });

    await page.goto("/docs/tools/search_issues?server=builtin:demo");
    await page.evaluate(() => {
      document.documentElement.classList.add("dark");
      document.documentElement.style.colorScheme = "dark";
    });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: `${dir}/docs-tool-dark.png` });
  });
});
