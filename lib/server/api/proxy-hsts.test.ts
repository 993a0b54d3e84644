/**
 * Strict-Transport-Security on what a hosted https instance answers: pages and the guard's own refusals pass
 * proxy.ts, API routes their own guard (guarded-route.ts); both set it from TOOLSCOPE_HSTS_MAX_AGE.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "toolscope-hsts-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "hosted";
process.env.TOOLSCOPE_PUBLIC_URL = "https://toolscope.example.com";
process.env.TOOLSCOPE_HSTS_MAX_AGE = "600";
process.env.TOOLSCOPE_LIMITS = "off";
delete process.env.DATABASE_URL;

const { NextRequest } = await import("next/server");
const { proxy } = await import("../../../proxy.ts");
const { POST: toolsRoute } = await import("@/app/api/tools/route");

test.after(() => rmSync(dataDir, { recursive: true, force: true }));

const request = (path: string, headers: Record<string, string>) =>
  new NextRequest(new URL(path, "https://toolscope.example.com"), { headers: { host: "toolscope.example.com", ...headers } });

test("a hosted https instance sends Strict-Transport-Security with the configured max-age, refusals included", async () => {
  const cases: [string, Record<string, string>, number][] = [
    ["/", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" }, 200],
    ["/api/tools", { origin: "https://toolscope.example.com", "sec-fetch-site": "same-origin", "content-type": "application/json" }, 200],
    // Another site's page calling the API: refused by the guard, still over https.
    ["/api/tools", { origin: "https://evil.example", "sec-fetch-site": "cross-site", "content-type": "application/json" }, 403],
  ];
  for (const [path, headers, status] of cases) {
    const res = await proxy(request(path, headers));
    assert.equal(res.status, status, path);
    assert.equal(res.headers.get("strict-transport-security"), "max-age=600", `${path} ${status}`);
  }
});

test("an API route guards itself: a cross-site call is refused with nosniff and Strict-Transport-Security", async () => {
  const res = await toolsRoute(
    new Request("https://toolscope.example.com/api/tools", {
      method: "POST",
      headers: {
        host: "toolscope.example.com",
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
        "content-type": "application/json",
      },
      body: "{}",
    }),
  );
  assert.equal(res.status, 403);
  assert.equal(res.headers.get("strict-transport-security"), "max-age=600");
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
});
