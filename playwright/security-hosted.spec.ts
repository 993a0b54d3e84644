import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { startApp, type AppInstance } from "./fixtures/app-instance";
import { expect, test } from "./test";

/**
 * Hosted mode, on an instance of its own: it refuses to start without TOOLSCOPE_PUBLIC_URL, answers only to the
 * public host, builds every URL it prints from the configured origin (never from Host or X-Forwarded-Host), and
 * holds clients to the configured rates with 429 + Retry-After.
 */
test.describe("hosted mode", () => {
  test("refuses to start without TOOLSCOPE_PUBLIC_URL, and says which setting to add", async () => {
    const app = await startApp({ TOOLSCOPE_MODE: "hosted", TOOLSCOPE_PUBLIC_URL: "" }, { expectExit: true });
    expect(await app.exited).toBe(1);
    expect(app.log()).toContain("TOOLSCOPE_PUBLIC_URL is required in hosted mode");
  });

  test.describe("with a public URL", () => {
    let app: AppInstance;
    let api: APIRequestContext;
    let dataDir: string;

    test.beforeAll(async ({ playwright }) => {
      dataDir = mkdtempSync(join(tmpdir(), "toolscope-hosted-"));
      // The public origin is the address the instance listens on; the rates are low so the test reaches them.
      app = await startApp(
        {
          TOOLSCOPE_MODE: "hosted",
          TOOLSCOPE_DATA_DIR: dataDir,
          TOOLSCOPE_RATE_CONNECT_PER_MIN: "3",
          TOOLSCOPE_RATE_SNAPSHOTS_PER_MIN: "2",
        },
        { publicUrlIsSelf: true },
      );
      api = await playwright.request.newContext({ baseURL: app.url, extraHTTPHeaders: { origin: app.url } });
    });

    test.afterAll(async () => {
      await api?.dispose();
      await app?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test("a foreign Host is refused and X-Forwarded-Host never reaches a page or a snapshot", async ({ playwright }) => {
      const foreign = await api.get("/docs?server=builtin:demo", { headers: { host: "evil.example" } });
      expect(foreign.status()).toBe(403);
      expect((await foreign.json()).error.message).toContain("TOOLSCOPE_PUBLIC_URL");

      const forwarded = await api.get("/docs?server=builtin:demo", {
        headers: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      });
      expect(forwarded.status()).toBe(200);
      const html = await forwarded.text();
      expect(html).toContain(`${app.url}/api/demo/mcp`);
      expect(html).not.toContain("evil.example");

      // An ordinary visitor afterwards (the docs snapshot is cached for everyone) sees the real address too.
      const visitor = await playwright.request.newContext({ baseURL: app.url });
      expect(await (await visitor.get("/docs?server=builtin:demo")).text()).not.toContain("evil.example");
      await visitor.dispose();

      const shared = await api.post("/api/snapshots", {
        data: { server: "builtin:demo" },
        headers: { "x-forwarded-host": "evil.example" },
      });
      expect(shared.status()).toBe(200);
      const { id, url } = await shared.json();
      expect(url).toBe(`${app.url}/s/${id}`);
      const page = await (await api.get(`/s/${id}`)).text();
      expect(page).toContain(`${app.url}/api/demo/mcp`);
      expect(page).toContain(`<meta property="og:url" content="${app.url}/s/${id}"/>`);
      expect(page).not.toContain("evil.example");
    });

    test("every page carries the security headers", async () => {
      for (const path of ["/", "/docs?server=builtin:demo", "/playground", "/diff"]) {
        const res = await api.get(path);
        expect(res.status(), path).toBe(200);
        const h = res.headers();
        expect(h["content-security-policy"], path).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
        expect(h["x-content-type-options"], path).toBe("nosniff");
        expect(h["referrer-policy"], path).toBe("no-referrer");
        expect(h["x-frame-options"], path).toBe("DENY");
        expect(h["permissions-policy"], path).toContain("camera=()");
      }
    });

    test("connects over the per-client rate get 429 with Retry-After and a message naming the limit", async () => {
      const statuses: number[] = [];
      let refused: { status: number; retryAfter?: string; body: { error: { kind: string; message: string; hint?: string } } } | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await api.post("/api/connect", { data: { url: "builtin:demo", era: "auto", headers: {} } });
        statuses.push(res.status());
        if (res.status() === 429 && !refused) refused = { status: 429, retryAfter: res.headers()["retry-after"], body: await res.json() };
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(refused!.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused!.retryAfter)).toBeLessThanOrEqual(60);
      expect(refused!.body.error.kind).toBe("rate-limited");
      expect(refused!.body.error.message).toContain("TOOLSCOPE_RATE_CONNECT_PER_MIN");
      expect(refused!.body.error.hint).toMatch(/Try again in \d+ s/);
      // Other routes have their own budget: a tool list still works.
      expect((await api.get("/api/stdio")).status()).toBe(200);
    });

    test("the hosted proxy refuses loopback targets and stdio", async () => {
      const loop = await api.post("/api/snapshots", { data: { server: "http://[::127.0.0.1]:8080/mcp" } });
      expect(loop.status()).toBe(403);
      expect((await loop.json()).error.kind).toBe("blocked-target");
      expect(await (await api.get("/api/stdio")).json()).toMatchObject({ enabled: false, servers: [] });
    });
  });
});
