import { execSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { chromium, type Browser, type Page, type Response } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./browser";
import { startApp } from "./fixtures/app-instance";
import { freePort } from "./fixtures/free-port";
import { openPlayground, send } from "./helpers";
import { expect, test } from "./test";

/**
 * An attacker's pages against the running app: another origin (attacker.test, mapped to 127.0.0.1 by Chromium's
 * host resolver rules) and a DNS-rebinding page (rebind.test, a name that "now" resolves to 127.0.0.1, so the page
 * is same-origin with the app's port). Every attack must fail, checked by what reached the app and by side effects:
 * a loopback canary server counts every request that reaches it, the demo's issues are searched for the title the
 * attacker tried to create.
 */

const MARK = `PWNED-${Date.now()}`;

interface Canary {
  url: string;
  hits: () => number;
  close: () => Promise<void>;
}

/** A loopback "MCP server" that only counts requests: any hit means an attack made Toolscope contact it. */
async function startCanary(): Promise<Canary> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    res.writeHead(404).end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}/mcp`, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}

/** The attacker's own web server: serves whatever page the test asks it to. */
async function startAttackerSite(pages: Record<string, string>): Promise<{ port: number; server: Server }> {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url ?? "/", "http://x").pathname];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html" }).end(body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { port, server };
}

/** Blind cross-site requests a page of another origin can send without a CORS preflight. */
function blindPostsPage(app: string, posts: [string, unknown][]): string {
  return `<!doctype html><title>cute cats</title><body><script>
(async () => {
  const posts = ${JSON.stringify(posts)};
  for (const [path, body] of posts) {
    try { await fetch(${JSON.stringify(app)} + path, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) }); } catch {}
  }
  try { await fetch(${JSON.stringify(app)} + "/api/stdio", { mode: "no-cors" }); } catch {}
  document.title = "posted";
})();
</script></body>`;
}

function collectAppResponses(page: Page, app: string): Response[] {
  const seen: Response[] = [];
  page.on("response", (r) => {
    if (r.url().startsWith(app)) seen.push(r);
  });
  return seen;
}

test.describe("an attacker's pages cannot drive Toolscope", () => {
  let browser: Browser;
  let canary: Canary;
  let app: string;
  let appPort: number;

  test.beforeAll(async ({ baseURL }) => {
    app = new URL(baseURL!).origin;
    appPort = Number(new URL(app).port);
    canary = await startCanary();
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        ...CHROMIUM_ARGS,
        "--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1",
        // Chromium's own local-network protection would stop some of these requests first; Toolscope must not rely
        // on it (other browsers, older versions, and rebinding tricks that evade it), so it is off here.
        "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights,PrivateNetworkAccessRespectPreflightResults",
      ],
    });
  });

  test.afterAll(async () => {
    await browser?.close();
    await canary?.close();
  });

  test("blind cross-site POSTs to every API route, an <img> and an <iframe> of docs and playground all fail", async ({ playwright }) => {
    // A Toolscope of its own, so the test can read its log: what reached it and what it refused.
    const target = await startApp({ TOOLSCOPE_MODE: "local", TOOLSCOPE_STDIO_CONFIG: "playwright/fixtures/stdio-servers.json" });
    const api = await playwright.request.newContext({ baseURL: target.url, extraHTTPHeaders: { origin: target.url } });
    // A valid descriptor, as if the attacker had guessed one: the guard must refuse before it is even read.
    const connected = await (await api.post("/api/connect", { data: { url: "builtin:demo", era: "auto", headers: {} } })).json();
    const demo = connected.connection;
    const forgedCanary = { ...demo, url: canary.url };
    const call = (name: string, args: object) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
    const posts: [string, unknown][] = [
      ["/api/connect", { url: "stdio:memory", era: "auto", headers: {} }],
      ["/api/connect", { url: canary.url, era: "auto", headers: {} }],
      ["/api/tools", { connection: forgedCanary, headers: {} }],
      ["/api/rpc", { connection: demo, headers: {}, message: call("create_issue", { title: MARK }) }],
      ["/api/rpc", { connection: forgedCanary, headers: {}, message: call("anything", {}) }],
      ["/api/disconnect", { connection: forgedCanary, headers: {} }],
      ["/api/snapshots", { server: canary.url }],
    ];
    const t = target.url;
    const site = await startAttackerSite({
      "/posts.html": blindPostsPage(t, posts),
      "/embeds.html": `<!doctype html><img src="${t}/docs?server=${encodeURIComponent(canary.url)}"><img src="${t}/docs/tools/x?server=${encodeURIComponent(canary.url)}"><iframe src="${t}/playground?server=builtin:demo&tool=delete_issue"></iframe><iframe src="${t}/docs?server=builtin:demo"></iframe>`,
      "/form.html": `<!doctype html><form id="f" method="post" enctype="text/plain" action="${t}/api/rpc"><input name='{"a":"' value='"}'></form><script>document.getElementById("f").submit()</script>`,
    });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const responses = collectAppResponses(page, t);
      await page.goto(`http://attacker.test:${site.port}/posts.html`);
      await expect(page).toHaveTitle("posted");
      await page.goto(`http://attacker.test:${site.port}/embeds.html`);
      await page.waitForLoadState("load");
      // Framing: the app never rendered inside the attacker's frames.
      for (const f of page.frames().slice(1)) expect(await f.locator("[data-testid=request-editor], main").count()).toBe(0);
      await page.goto(`http://attacker.test:${site.port}/form.html`);
      await page.waitForLoadState("load");
      // What the browser could observe (opaque answers may be blocked before a response event): never a success.
      for (const r of responses) expect([403, 415], `${r.url()} answered ${r.status()}`).toContain(r.status());
      await context.close();

      // What the app saw: each attack was refused by the guard, before any route ran.
      const refused = target
        .log()
        .split("\n")
        .filter((l) => l.includes("request refused"));
      const paths = [
        "POST /api/connect",
        "POST /api/tools",
        "POST /api/rpc",
        "POST /api/disconnect",
        "POST /api/snapshots",
        "GET /api/stdio",
        "GET /docs",
        "GET /docs/tools/x",
        "GET /playground",
      ];
      for (const p of paths) {
        const [method, route] = p.split(" ");
        expect(
          refused.some((l) => l.includes(`method=${method} route=${route} status=403`)),
          `${p} refused:\n${refused.join("\n")}`,
        ).toBe(true);
      }
      // 7 blind POSTs, GET /api/stdio, 2 images, 2 frames, the form.
      expect(refused.length).toBeGreaterThanOrEqual(13);
      // Side effects: nothing reached the canary, no stdio server started, no issue was created on the demo.
      expect(canary.hits()).toBe(0);
      expect(execSync(`ps --ppid ${target.pid} -o args= || true`).toString()).not.toContain("server-memory");
      const search = await api.post("/api/rpc", {
        data: { connection: demo, headers: {}, message: call("search_issues", { query: MARK }) },
      });
      expect(search.status()).toBe(200);
      expect((await search.json()).response.result.structuredContent.total).toBe(0);
    } finally {
      await new Promise<void>((r) => site.server.close(() => r()));
      await api.dispose();
      await target.stop();
    }
  });

  test("a DNS-rebinding page (same port, foreign Host) reads nothing and starts nothing", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const rebind = `http://rebind.test:${appPort}`;
    // The attacker's page, served under a name that now resolves to 127.0.0.1: every other request reaches the app.
    await page.route(`${rebind}/attack.html`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><pre id="out"></pre><script>
(async () => {
  const out = [];
  const json = { "content-type": "application/json" };
  for (const [path, init] of [
    ["/api/stdio", {}],
    ["/api/connect", { method: "POST", headers: json, body: JSON.stringify({ url: "stdio:memory", era: "auto", headers: {} }) }],
    ["/api/connect", { method: "POST", headers: json, body: JSON.stringify({ url: ${JSON.stringify(canary.url)}, era: "auto", headers: {} }) }],
    ["/docs?server=" + encodeURIComponent(${JSON.stringify(canary.url)}), {}],
  ]) {
    try {
      const r = await fetch(path, init);
      out.push(r.status + " " + path + " " + (await r.text()).slice(0, 300));
    } catch (e) {
      out.push("ERR " + path + " " + e);
    }
  }
  document.getElementById("out").textContent = out.join("\\n");
  document.title = "read";
})();
</script>`,
      }),
    );
    await page.goto(`${rebind}/attack.html`);
    await expect(page).toHaveTitle("read");
    const out = await page.locator("#out").textContent();
    const lines = (out ?? "").split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(/^403 .*answers only to localhost/);
    expect(out).not.toContain("configPath");
    expect(out).not.toContain("serverInfo");
    expect(canary.hits()).toBe(0);
    await context.close();
  });

  test("a link from another site to a local docs page asks before contacting the server", async () => {
    const target = `${app}/docs?server=${encodeURIComponent(canary.url)}`;
    const site = await startAttackerSite({ "/link.html": `<!doctype html><a id="go" href="${target}">free stuff</a>` });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`http://attacker.test:${site.port}/link.html`);
      await page.click("#go");
      await expect(page.getByRole("heading", { name: "Continue to this page?" })).toBeVisible();
      await expect(page.getByText(canary.url)).toBeVisible();
      expect(canary.hits()).toBe(0);
      // The user's own click, from our page: now it loads (the canary is not an MCP server, so an error page).
      await page.getByTestId("confirm-continue").click();
      await expect(page.getByTestId("proxy-error")).toBeVisible();
      expect(canary.hits()).toBeGreaterThan(0);
      await context.close();
    } finally {
      await new Promise<void>((r) => site.server.close(() => r()));
    }
  });

  test("the app's own pages keep working beside the attacks, under the real headers", async ({ page }) => {
    const res = await page.goto("/docs?server=builtin:demo");
    const headers = res!.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{22,}'/);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    await expect(page.getByRole("link", { name: /search_issues|Search issues/ }).first()).toBeVisible();
    await openPlayground(page, "builtin:demo", "search_issues");
    await send(page);
  });
});
