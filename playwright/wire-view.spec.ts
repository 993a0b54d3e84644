import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./test";
import { openPlayground, send, setRequest, shootSizes, watchConsole } from "./helpers";

/**
 * The HTTP exchange view on a published server nobody here wrote (issue 26: server-everything's long
 * `access-control-expose-headers` squeezed the value column to 7 px and ran the page off the pane; even the demo's
 * `accept` wrapped as "applica / tion/js / on"), and on the demo, at 1280 and 400 px, light and dark.
 */

/** Narrowest a header's name or value may be laid out, unless its text is shorter: six monospace characters at 12 px. */
const MIN_TEXT_PX = 6 * 7;

/**
 * Every element of the wire view holding text of its own that is laid out narrower than MIN_TEXT_PX (or than its
 * first six characters on one line, when that is less): whatever the markup, a squeezed column shows up here.
 */
async function squeezedText(within: Locator): Promise<string[]> {
  return within.evaluate((root, min) => {
    const out: string[] = [];
    for (const el of root.querySelectorAll<HTMLElement>("*")) {
      const own = [...el.childNodes]
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join("")
        .trim();
      if (!own || el.getClientRects().length === 0) continue;
      const probe = document.createElement("span");
      probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre;font:inherit";
      probe.textContent = own.slice(0, 6);
      el.appendChild(probe);
      const need = Math.min(min, probe.getBoundingClientRect().width);
      probe.remove();
      const width = el.getBoundingClientRect().width;
      if (width + 0.5 < need) out.push(`${el.tagName.toLowerCase()} "${own.slice(0, 40)}" (${Math.round(width)} px)`);
    }
    return out;
  }, MIN_TEXT_PX);
}

/** The page scrolls sideways, or the exchange runs past its own box. */
async function overflow(page: Page): Promise<{ page: number; exchange: number }> {
  return page.evaluate(() => {
    const x = document.querySelector<HTMLElement>('[data-testid="http-exchange"]')!;
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      exchange: x.scrollWidth - x.clientWidth,
    };
  });
}

async function checkWireView(page: Page, shots: string, said: string[]) {
  for (const width of [1280, 400]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.getByTestId("http-exchange")).toBeVisible();
    expect(await squeezedText(page.getByTestId("http-exchange")), `text squeezed at ${width} px`).toEqual([]);
    expect(await overflow(page), `sideways overflow at ${width} px`).toEqual({ page: 0, exchange: 0 });
  }
  await shootSizes(page, "test-results/wire-view", shots, { show: page.getByTestId("http-exchange") });
  expect(said, "console errors and warnings").toEqual([]);
}

test.describe("the HTTP exchange view holds on a real server", () => {
  test("server-everything over Streamable HTTP: every header laid out readably, nothing runs off the pane", async ({ page }) => {
    const said = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPlayground(page, process.env.EVERYTHING_URL!, "echo");
    await send(page);
    await page.getByRole("tab", { name: /^HTTP/ }).click();
    await expect(page.getByTestId("http-exchange")).toContainText("access-control-expose-headers");
    await checkWireView(page, "everything", said);
  });

  test("the demo: the same at both widths, light and dark", async ({ page }) => {
    const said = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPlayground(page, "builtin:demo", "search_issues");
    await send(page);
    await page.getByRole("tab", { name: /^HTTP/ }).click();
    await checkWireView(page, "demo", said);
  });
});

test.describe("resources and prompts of a real server, rendered", () => {
  test("server-everything: a text resource and a prompt's messages, at 1280 and 400 px, light and dark", async ({ page }) => {
    const said = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPlayground(page, process.env.EVERYTHING_URL!);
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "resources/read",
        params: { uri: "demo://resource/static/document/architecture.md" },
      }),
    );
    await send(page);
    const resource = page.getByTestId("resource-contents").first();
    await expect(resource).toBeVisible();
    expect(await squeezedText(page.getByTestId("rendered-result"))).toEqual([]);
    await shootSizes(page, "test-results/real-server", "resource", { show: page.getByTestId("rendered-result") });

    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "prompts/get",
        params: { name: "args-prompt", arguments: { city: "Paris", state: "Texas" } },
      }),
    );
    await send(page);
    await expect(page.getByTestId("prompt-message").first()).toContainText("Paris");
    await shootSizes(page, "test-results/real-server", "prompt", { show: page.getByTestId("rendered-result") });
    expect(said, "console errors and warnings").toEqual([]);
  });
});
