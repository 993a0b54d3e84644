/**
 * MCP Apps in the playground (issue 29): a tool's view rendered after a call through the official host library, in a
 * frame at an opaque origin inside the relay frame; what it asks of its server goes through Toolscope with the app
 * rule. Against the apps fixture (a 2026-07-28 server on SDK v2, its view written by hand so the test reads exactly
 * what the host sent) and the published ext-apps example server-basic-vanillajs over stdio and over HTTP.
 */
import type { Frame, Page } from "@playwright/test";
import { expect, test } from "./test";
import { focusEditor, openPlayground, send, setRequest, shootSizes, watchConsole } from "./helpers";
import { startAppsFixture, startExampleOverHttp } from "./fixtures/app-servers";
import { startApp } from "./fixtures/app-instance";
import { appCalls, CLOCK_URI } from "../lib/upstream/testing/apps-server";

/** The view's frame: the child of the relay frame. */
async function viewFrame(page: Page): Promise<Frame> {
  await expect(page.getByTestId("app-host")).toHaveAttribute("data-state", "running", { timeout: 20_000 });
  const relay = await page.getByTestId("app-frame").elementHandle();
  const outer = await relay!.contentFrame();
  await expect.poll(() => outer!.childFrames().length).toBe(1);
  return outer!.childFrames()[0];
}

const call = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });

test.describe("the apps fixture (2026-07-28)", () => {
  let fixture: Awaited<ReturnType<typeof startAppsFixture>>;
  test.beforeAll(async () => {
    fixture = await startAppsFixture();
  });
  test.afterAll(async () => fixture.stop());

  test("the view gets the input as sent and the result, in order; its calls go through Toolscope with the app rule", async ({ page }) => {
    test.setTimeout(90_000);
    appCalls.clear();
    await openPlayground(page, fixture.url, "clock");
    await setRequest(page, call("clock", { zone: "Europe/Paris" }));
    await send(page);
    const view = await viewFrame(page);
    await expect(view.locator("#input")).toHaveText('{"zone":"Europe/Paris"}');
    await expect(view.locator("#result")).toHaveText("12:00 in Europe/Paris");
    await expect(view.locator("#order")).toHaveText("initialized,input,result");

    // An app-only tool: reached.
    await view.locator("#tick").click();
    await expect(view.locator("#last")).toContainText("tick 1");
    // A model-only tool: refused by the host, never reaching the server.
    await view.locator("#secret").click();
    await expect(view.locator("#last")).toContainText('visibility does not include "app"');
    expect(appCalls.get("secret")).toBeUndefined();
    // A tool that may modify: asked first; refused, then allowed.
    await view.locator("#bump").click();
    await page.getByTestId("app-ask-refuse").click();
    await expect(view.locator("#last")).toContainText("did not allow");
    expect(appCalls.get("bump")).toBeUndefined();
    await view.locator("#bump").click();
    await expect(page.getByTestId("app-ask")).toContainText('"bump"');
    await page.getByTestId("app-ask-allow").click();
    await expect(view.locator("#last")).toContainText("bumped 1");

    // A call the server answers input_required (MRTR): the person answers in the playground's own input dialog, and
    // the call goes again with the answer; closing the dialog instead sends nothing more.
    await view.locator("#stamp").click();
    let dialog = page.getByTestId("mrtr-dialog");
    await expect(dialog.getByTestId("elicitation-message")).toContainText("Which label");
    await expect(dialog.getByTestId("mrtr-server")).toContainText(new URL(fixture.url).host);
    await page.keyboard.press("Escape");
    await expect(view.locator("#last")).toContainText("not stamped: cancel");
    expect(appCalls.get("stamp")).toBeUndefined();
    await view.locator("#stamp").click();
    dialog = page.getByTestId("mrtr-dialog");
    await dialog.getByLabel("Label").fill("approved");
    await page.screenshot({ path: "test-results/apps/app-mrtr-dialog.png" });
    await dialog.getByTestId("elicit-submit").click();
    await expect(view.locator("#last")).toContainText("stamped approved");
    await expect(dialog).toBeHidden();
    expect(appCalls.get("stamp")).toBe(1);

    // A link only after the person agrees; refused here.
    await view.locator("#link").click();
    await expect(page.getByTestId("app-ask")).toContainText("https://example.com/docs");
    await page.keyboard.press("Tab"); // from Allow (focused) to Refuse: the keyboard way
    await page.keyboard.press("Enter");
    await expect(view.locator("#last")).toContainText('"isError":true');

    // Fullscreen when asked; Esc goes back inline.
    await view.locator("#full").click();
    await expect(page.getByTestId("app-host")).toHaveAttribute("data-mode", "fullscreen");
    await expect(view.locator("#last")).toContainText('"mode":"fullscreen"');
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("app-host")).toHaveAttribute("data-mode", "inline");

    // The theme follows the page.
    await page.evaluate(() => document.documentElement.classList.toggle("dark", true));
    await expect(view.locator("#theme")).toHaveText("dark");

    // Every message both ways is in the event list.
    await page.getByTestId("app-events").locator("summary").click();
    await expect(page.getByTestId("app-event").filter({ hasText: "ui/initialize" }).first()).toBeVisible();
    const seen = await page
      .getByTestId("app-event")
      .evaluateAll((els) => els.map((e) => `${e.getAttribute("data-direction")} ${e.getAttribute("data-label")}`));
    const lifecycle = seen.filter((s) => / ui\/(initialize|notifications\/(initialized|tool-input|tool-result))$/.test(s));
    expect(lifecycle, seen.join("\n")).toEqual([
      "app→host ui/initialize",
      "app→host ui/notifications/initialized",
      "host→app ui/notifications/tool-input",
      "host→app ui/notifications/tool-result",
    ]);
  });

  test("a hostile view cannot leave its frame: no cookies, storage, parent, top navigation, popups, Toolscope's API or other hosts", async ({
    page,
    cspViolations,
  }) => {
    test.setTimeout(90_000);
    appCalls.clear();
    await openPlayground(page, fixture.url, "clock");
    await send(page);
    const view = await viewFrame(page);
    const tries = await view.evaluate(async () => {
      const attempt = async (f: () => unknown) => {
        try {
          const r = await f();
          return r === null || r === undefined ? "nothing" : `got ${String(r).slice(0, 80)}`;
        } catch (err) {
          return `refused: ${(err as Error).name}`;
        }
      };
      return {
        origin: location.origin,
        cookie: await attempt(() => document.cookie),
        storage: await attempt(() => localStorage.length),
        parentDocument: await attempt(() => parent.document.title),
        topDocument: await attempt(() => top!.document.title),
        popup: await attempt(() => window.open("http://127.0.0.1:9/")),
        api: await attempt(() => fetch("/api/tools", { method: "POST", body: "{}" }).then((r) => r.status)),
        apiAbsolute: await attempt(() =>
          fetch(`${document.referrer || "http://127.0.0.1"}/api/rpc`, { method: "POST" }).then((r) => r.status),
        ),
      };
    });
    expect(tries.origin).toBe("null");
    expect(tries.cookie).toMatch(/^refused: SecurityError/);
    expect(tries.storage).toMatch(/^refused: SecurityError/);
    expect(tries.parentDocument).toMatch(/^refused: SecurityError/);
    expect(tries.topDocument).toMatch(/^refused: SecurityError/);
    expect(tries.popup).toBe("nothing");
    expect(tries.api).toMatch(/^refused: TypeError/);
    expect(tries.apiAbsolute).toMatch(/^refused: TypeError/);
    // A top navigation is refused without leaving the playground.
    await view.evaluate(() => {
      try {
        top!.location.href = "http://127.0.0.1:9/";
      } catch {
        /* refused */
      }
    });
    await page.waitForTimeout(500);
    expect(new URL(page.url()).pathname).toBe("/playground");
    // Toolscope's API refuses a request from an opaque origin, whatever reaches it.
    const status = await page.evaluate(() =>
      fetch("/api/apps/rpc", { method: "POST", headers: { "content-type": "application/json", origin: "null" }, body: "{}" }).then(
        (r) => r.status,
      ),
    );
    expect([403, 400]).toContain(status);
    // The two fetches were stopped by the view's policy (connect-src grants only the declared domain), and said so.
    expect(cspViolations.length).toBeGreaterThan(0);
    expect(cspViolations.every((v) => v.includes("connect-src https://api.example.com") || /Refused to connect/.test(v))).toBe(true);
    cspViolations.length = 0;
  });

  test("a view too large or of the wrong type is a plain message in place of the frame", async ({ page }) => {
    await openPlayground(page, fixture.url, "big");
    await send(page);
    await expect(page.getByTestId("app-problem")).toContainText("TOOLSCOPE_MAX_APP_HTML_BYTES");
    await setRequest(page, call("wrong-type", {}));
    await send(page);
    await expect(page.getByTestId("app-problem")).toContainText("an app's view must be text/html;profile=mcp-app");
  });

  test("the docs preview runs nothing until Send; then the app runs with the example input and the result", async ({ page }) => {
    test.setTimeout(90_000);
    appCalls.clear();
    // Every request of ours, and whether it came after the click; the host library's chunk is known by its content.
    let clicked = false;
    const ours: { path: string; after: boolean }[] = [];
    const hostChunks: boolean[] = [];
    page.on("request", (r) => ours.push({ path: new URL(r.url()).pathname, after: clicked }));
    page.on("response", async (r) => {
      if (!r.url().endsWith(".js")) return;
      const after = clicked;
      const body = await r.text().catch(() => "");
      if (body.includes("ui/notifications/sandbox-resource-ready")) hostChunks.push(after);
    });
    await page.goto(`/docs/tools/clock?server=${encodeURIComponent(fixture.url)}`);
    await expect(page.getByTestId("tool-app-resource")).toHaveText(CLOCK_URI);
    await page.getByTestId("try-it-card").scrollIntoViewIfNeeded();
    await expect(page.getByTestId("try-it")).toBeVisible();
    await page.waitForTimeout(1_000);
    // Nothing of the app before the click: no frame, no app route, no host code, and the server never read its view.
    await expect(page.locator("iframe")).toHaveCount(0);
    expect(ours.filter((r) => r.path.startsWith("/api/apps"))).toEqual([]);
    expect(hostChunks).toEqual([]);
    expect(appCalls.get(`read ${CLOCK_URI}`)).toBeUndefined();

    // The poster stands where the view will run, and runs it (the keyboard way: focus and Enter).
    await expect(page.getByTestId("app-poster")).toContainText(CLOCK_URI);
    await shootSizes(page, "test-results/apps", "docs-poster", { show: page.getByTestId("app-poster") });
    clicked = true;
    await page.getByTestId("app-poster-run").focus();
    await page.keyboard.press("Enter");
    const view = await viewFrame(page);
    await expect(page.getByTestId("app-poster")).toHaveCount(0);
    await expect(view.locator("#result")).toHaveText(/^12:00 in /);
    await expect(view.locator("#order")).toHaveText("initialized,input,result");
    expect(appCalls.get(`read ${CLOCK_URI}`)).toBe(1);
    expect(hostChunks).toEqual([true]);
    expect(ours.filter((r) => r.path.startsWith("/api/apps")).every((r) => r.after)).toBe(true);
    await shootSizes(page, "test-results/apps", "docs-preview", { show: page.getByTestId("app-host") });
  });

  test("with a sandbox origin of its own, the relay runs there and that host serves nothing else", async ({ page }) => {
    test.setTimeout(90_000);
    const app = await startApp({ TOOLSCOPE_MODE: "local" }, { sandboxOriginIsSelf: true });
    try {
      const port = new URL(app.url).port;
      const home = `http://localhost:${port}`;
      const sandbox = `http://127.0.0.1:${port}`;
      await page.goto(`${home}/playground?${new URLSearchParams({ server: fixture.url, tool: "clock" })}`);
      await send(page);
      const view = await viewFrame(page);
      await expect(view.locator("#result")).toHaveText("12:00 in UTC");
      const relay = view.parentFrame()!;
      expect(await relay.evaluate(() => location.origin)).toBe(sandbox);
      expect(await view.evaluate(() => location.origin)).toBe("null");
      // The sandbox host: the relay only.
      for (const path of ["/", "/playground", "/api/health?ready=0", "/api/stdio"]) {
        const res = await page.request.get(`${sandbox}${path}`, { headers: { origin: sandbox } });
        expect(res.status(), path).toBe(path.startsWith("/api/health") ? 200 : 404);
      }
    } finally {
      await app.stop();
    }
  });

  test("with MCP Apps switched off, no view is shown", async ({ page }) => {
    await openPlayground(page, fixture.url, "clock");
    await page.getByTestId("pref-apps").uncheck();
    await send(page);
    await expect(page.getByTestId("rendered-result")).toContainText("12:00 in UTC");
    await expect(page.getByTestId("app-host")).toHaveCount(0);
    await page.getByTestId("pref-apps").check();
  });
});

for (const transport of ["stdio", "HTTP"] as const) {
  test(`server-basic-vanillajs over ${transport}: the app shows the server's time and its button calls through Toolscope`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const said = watchConsole(page);
    const example = transport === "HTTP" ? await startExampleOverHttp("server-basic-vanillajs") : undefined;
    try {
      await openPlayground(page, example?.url ?? "stdio:basic-vanillajs", "get-time");
      // get-time gives no hints, so it counts as destructive: Send asks first.
      await focusEditor(page);
      await page.keyboard.press("ControlOrMeta+Enter");
      await page.getByTestId("confirm-send").click();
      await expect(page.getByTestId("result-tabs")).toBeVisible();
      const result = await page.getByTestId("rendered-result").innerText();
      const time = result.match(/\d{4}-\d\d-\d\dT[\d:.]+Z/)?.[0];
      expect(time).toBeTruthy();
      const view = await viewFrame(page);
      await expect(view.locator("#server-time")).toHaveText(time!, { timeout: 10_000 });
      // get-time is not marked read-only: the host asks before the app's call goes out.
      await view.locator("#get-time-btn").click();
      await page.getByTestId("app-ask-allow").click();
      await expect(view.locator("#server-time")).not.toHaveText(time!, { timeout: 10_000 });
      if (transport === "stdio") {
        await shootSizes(page, "test-results/apps", "basic-vanillajs", { show: page.getByTestId("app-host") });
        await page.getByTestId("app-fullscreen").click();
        await shootSizes(page, "test-results/apps", "basic-vanillajs-fullscreen");
        await page.keyboard.press("Escape");
      }
      expect(said.filter((s) => !/Content Security Policy|Failed to load resource/.test(s))).toEqual([]);
    } finally {
      example?.stop();
    }
  });
}

test("server-system-monitor over stdio: the app polls its app-only tool through Toolscope, allowed once for the view", async ({ page }) => {
  test.setTimeout(120_000);
  const said = watchConsole(page);
  await openPlayground(page, "stdio:system-monitor", "get-system-info");
  await focusEditor(page);
  await page.keyboard.press("ControlOrMeta+Enter");
  await page.getByTestId("confirm-send").click();
  await expect(page.getByTestId("result-tabs")).toBeVisible();
  await viewFrame(page);
  // poll-system-stats gives no hints either: the first poll asks, and "Allow for this view" covers the next ones.
  await expect(page.getByTestId("app-ask")).toContainText('"poll-system-stats"', { timeout: 20_000 });
  await page.getByTestId("app-ask-allow-view").click();
  const polls = page.getByTestId("app-event").filter({ hasText: /allowed the app's call of poll-system-stats/ });
  await expect.poll(() => polls.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId("app-ask")).toHaveCount(0);
  expect(said.filter((s) => !/Content Security Policy|Failed to load resource/.test(s))).toEqual([]);
});
