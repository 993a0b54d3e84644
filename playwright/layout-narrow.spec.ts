import { expect, test } from "./test";

/** Phone widths (issue 26: at 360 px the header was 393 px wide and every page scrolled sideways). */
for (const path of ["/", "/docs?server=builtin:demo", "/playground?server=builtin:demo"]) {
  test(`${path} at 360 px: the header fits and nothing scrolls sideways`, async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(path);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    const widths = await page.evaluate(() => {
      const nav = document.querySelector<HTMLElement>('nav[aria-label="Main"]')!;
      return { page: document.documentElement.scrollWidth, nav: nav.scrollWidth, navBox: nav.clientWidth };
    });
    expect(widths.nav, "the header's row").toBeLessThanOrEqual(widths.navBox);
    expect(widths.page, "the page").toBeLessThanOrEqual(360);
    // The wordmark is for screen readers only at this width: the home link still says where it goes.
    await expect(page.getByRole("link", { name: "Toolscope" })).toBeVisible();
  });
}
