import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

/** Fails the test if the page makes any request to a host other than our own (no CDN, no remote images). */
export function forbidExternalRequests(page: Page): string[] {
  const external: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (!["http:", "https:", "ws:", "wss:"].includes(url.protocol)) return;
    if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") external.push(req.url());
  });
  return external;
}

/**
 * Every console error and warning of the page, and every uncaught error, from now on: a page that works on a real
 * server says nothing there (issue 26: every page warned about its Permissions-Policy).
 */
export function watchConsole(page: Page): string[] {
  const said: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.type() === "warning") said.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on("pageerror", (err) => said.push(`uncaught: ${err.message}`));
  return said;
}

/** Open the playground for a server and tool, and wait until the editor holds the prefilled request. */
export async function openPlayground(page: Page, server: string, tool?: string) {
  const q = new URLSearchParams({ server, ...(tool ? { tool } : {}) });
  await page.goto(`/playground?${q}`);
  await expectEditor(page);
}

/** Wait for Monaco (a lazy chunk of several MB: slow on a busy machine, hence the longer wait). */
export async function expectEditor(page: Page) {
  await expect(page.getByTestId("request-editor").locator(".monaco-editor")).toBeVisible({ timeout: 45_000 });
}

/** Put the keyboard focus in the editor the way a user does: by clicking its text. */
export async function focusEditor(page: Page) {
  await page.getByTestId("request-editor").locator(".monaco-editor .view-lines").click();
}

/** Replace the editor's text (insertText bypasses Monaco's auto-closing of brackets and quotes). */
export async function setRequest(page: Page, text: string) {
  await focusEditor(page);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

/** Send with the keyboard shortcut, as a user would, and wait for the result tabs. */
export async function send(page: Page) {
  await focusEditor(page);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("result-tabs")).toBeVisible();
}

/** Send one JSON-RPC message to the demo server through our API (setup steps that are not under test). */
export async function demoRpc(request: APIRequestContext, message: Record<string, unknown>): Promise<Record<string, unknown>> {
  const connected = await request.post("/api/connect", { data: { url: "builtin:demo", era: "auto" } });
  expect(connected.ok(), `${connected.status()} ${await connected.text()}`).toBe(true);
  const { connection } = await connected.json();
  const res = await request.post("/api/rpc", { data: { connection, message } });
  expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()).response;
}

/** Make sure the demo tracker has at least one closed issue (purge_closed_issues only asks when there is one). */
export async function ensureClosedIssue(request: APIRequestContext): Promise<void> {
  const created = await demoRpc(request, {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "create_issue", arguments: { title: "Stale issue for the purge test" } },
  });
  const text = (created.result as { content: { text: string }[] }).content[0].text;
  const id = (JSON.parse(text) as { id?: number }).id;
  expect(typeof id).toBe("number");
  await demoRpc(request, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "close_issue", arguments: { issue_id: id } } });
}

/** The MRTR dialog, once open. */
export function mrtrDialog(page: Page) {
  return page.getByTestId("mrtr-dialog");
}

/** The editor's visible text (Monaco renders spaces as no-break spaces). */
export async function editorText(page: Page): Promise<string> {
  const text = await page.getByTestId("request-editor").locator(".view-lines").innerText();
  return text.replace(/\u00a0/g, " ");
}

/**
 * Screenshots of the page as it is now at 1280 and 400 px wide, light and dark, as `<dir>/<name>-<width>-<scheme>.png`;
 * the viewport and colour scheme are put back afterwards.
 */
export async function shootSizes(page: Page, dir: string, name: string, { show }: { show?: Locator } = {}) {
  mkdirSync(dir, { recursive: true });
  // The theme is chosen once at load (app/layout.tsx): set it the way that script does, so the page keeps its state.
  const theme = (scheme: "light" | "dark") =>
    page.evaluate((dark) => document.documentElement.classList.toggle("dark", dark), scheme === "dark");
  const before = await page.evaluate(() => document.documentElement.classList.contains("dark"));
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await theme(scheme);
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 900 });
      // The part under review, scrolled to the top of the viewport (at 400 px it is far below the fold).
      await show?.evaluate((el) => el.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${dir}/${name}-${width}-${scheme}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: null });
  await theme(before ? "dark" : "light");
  await page.setViewportSize({ width: 1280, height: 900 });
}
