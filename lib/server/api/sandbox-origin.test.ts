/**
 * A hosted instance with a sandbox origin of its own for MCP App views (TOOLSCOPE_SANDBOX_ORIGIN): that host serves the
 * relay and nothing else (no page, no API), the relay may be framed only by Toolscope's origin, Toolscope's pages may
 * frame it, and a sandbox origin equal to Toolscope's own refuses to start.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const APP = "https://toolscope.example.com";
const SANDBOX = "https://views.toolscope-sandbox.example";
const dataDir = mkdtempSync(join(tmpdir(), "toolscope-sandbox-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "hosted";
process.env.TOOLSCOPE_PUBLIC_URL = APP;
process.env.TOOLSCOPE_SANDBOX_ORIGIN = SANDBOX;
process.env.TOOLSCOPE_LIMITS = "off";
delete process.env.DATABASE_URL;

const { NextRequest } = await import("next/server");
const { proxy } = await import("../../../proxy.ts");
const { GET: relayRoute } = await import("@/app/api/apps/sandbox/route");
const { POST: toolsRoute } = await import("@/app/api/tools/route");

test.after(() => rmSync(dataDir, { recursive: true, force: true }));

const NAVIGATE = { "sec-fetch-site": "none", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
const request = (origin: string, path: string, headers: Record<string, string> = {}, init: RequestInit = {}) =>
  new NextRequest(new URL(path, origin), { ...init, headers: { host: new URL(origin).host, ...headers } } as ConstructorParameters<
    typeof NextRequest
  >[1]);

test("the sandbox host serves the relay, framed only by Toolscope's origin, even to a cross-site frame", async () => {
  const res = await relayRoute(request(SANDBOX, "/api/apps/sandbox", { "sec-fetch-site": "cross-site", "sec-fetch-dest": "iframe" }));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-security-policy"), `frame-ancestors 'self' ${APP}`);
  assert.match(await res.text(), /sandbox-proxy-ready/);
});

test("the sandbox host serves no page and no API", async () => {
  for (const path of ["/", "/playground", "/docs?server=builtin:demo", "/_next/static/chunks/x.js"]) {
    const res = await proxy(request(SANDBOX, path, NAVIGATE));
    assert.equal(res.status, 404, path);
  }
  const api = await toolsRoute(
    request(
      SANDBOX,
      "/api/tools",
      { origin: SANDBOX, "sec-fetch-site": "same-origin", "content-type": "application/json" },
      { method: "POST", body: "{}" },
    ),
  );
  assert.equal(api.status, 404);
});

test("Toolscope's pages may frame the sandbox origin and are framed by nobody", async () => {
  const res = await proxy(request(APP, "/", NAVIGATE));
  assert.equal(res.status, 200);
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, new RegExp(`frame-src 'self' ${SANDBOX.replace(/\./g, "\\.")}(;|$)`));
  assert.match(csp, /frame-ancestors 'none'/);
});

test("a sandbox origin equal to Toolscope's own, or without TOOLSCOPE_PUBLIC_URL, refuses to start", async () => {
  const load = (env: Record<string, string>) =>
    promisify(execFile)(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "-e", 'import("@/lib/server/platform/config").then((m) => m.config())'],
      { env: { ...process.env, TOOLSCOPE_MODE: "local", TOOLSCOPE_PUBLIC_URL: "", ...env } },
    ).then(
      () => "started",
      (err: { stderr: string }) => err.stderr,
    );
  assert.match(
    await load({ TOOLSCOPE_PUBLIC_URL: APP, TOOLSCOPE_SANDBOX_ORIGIN: APP }),
    /is Toolscope's own origin .*MCP App views must never run there/,
  );
  assert.match(await load({ TOOLSCOPE_SANDBOX_ORIGIN: SANDBOX }), /TOOLSCOPE_SANDBOX_ORIGIN needs TOOLSCOPE_PUBLIC_URL/);
  assert.equal(await load({ TOOLSCOPE_PUBLIC_URL: APP, TOOLSCOPE_SANDBOX_ORIGIN: SANDBOX }), "started");
});
