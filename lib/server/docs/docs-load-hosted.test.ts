/**
 * Docs pages of a blocked target in hosted mode: every docs page (the server's, one tool's) names the refusal, the
 * same way. Next.js loads the request guard and the pages as separate module graphs while the pooled egress agents
 * are shared by the process, so the refusal a page meets may have been raised by another graph's copy of the egress
 * module: here that graph is a second copy of egress.ts, loaded under another URL.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "toolscope-docs-hosted-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "hosted";
process.env.TOOLSCOPE_PUBLIC_URL = "https://toolscope.example.com";
process.env.TOOLSCOPE_LIMITS = "off";
process.env.TOOLSCOPE_REQUEST_TIMEOUT_MS = "3000";
delete process.env.DANGEROUSLY_ALLOW_PRIVATE_NETWORK;
delete process.env.TOOLSCOPE_EGRESS_ALLOW;
delete process.env.DATABASE_URL;

const { DOCS_LOAD_HEADER, loadDocs, preloadDocsPage } = await import("./docs-load.ts");
const { config } = await import("../platform/config.ts");
const mine: typeof import("../../upstream/egress/egress.ts") = await import("../../upstream/egress/egress.ts");
const graph = "guard";
const other: typeof import("../../upstream/egress/egress.ts") = await import(`../../upstream/egress/egress.ts?graph=${graph}`);

after(() => rmSync(dataDir, { recursive: true, force: true }));

function page(path: string) {
  return { nextUrl: new URL(path, "http://127.0.0.1:3000"), headers: new Headers({ host: "127.0.0.1:3000" }), method: "GET" };
}

test("a blocked target is named on the tool page as on the server page, whichever module graph built the agent", async () => {
  assert.notEqual(other.BlockedTargetError, mine.BlockedTargetError, "two copies of the egress module");
  // The other graph fetches first, so the process's pooled agent for this policy (the one the docs load uses, as
  // targets.ts builds it) raises its copy of BlockedTargetError.
  const c = config();
  const fetchThere = other.createSafeFetch({
    allowPrivate: c.allowPrivateNetwork,
    allow: c.egressAllow,
    connectTimeoutMs: c.requestTimeoutMs,
    maxConnectionsPerOrigin: c.maxConnectionsPerOrigin,
  });
  assert.ok((await fetchThere("http://localhost:9/mcp").catch((e: unknown) => e)) instanceof Error);

  for (const server of ["http://localhost:2/mcp", "http://127.0.0.1:3/mcp"]) {
    const host = new URL(server).hostname;
    const serverPage = await loadDocs(server, new Headers({ host: "127.0.0.1:3000" }));
    assert.ok(!serverPage.ok);
    assert.equal(serverPage.error.kind, "blocked-target", serverPage.error.message);
    assert.ok(serverPage.error.message.startsWith(`${host} is`), serverPage.error.message);

    const path = `/docs/tools/search?server=${encodeURIComponent(server)}`;
    const pre = await preloadDocsPage(page(path));
    assert.equal(pre?.status, 403, path);
    const toolPage = await loadDocs(server, new Headers({ host: "127.0.0.1:3000", [DOCS_LOAD_HEADER]: pre!.token! }));
    assert.ok(!toolPage.ok);
    assert.deepEqual(toolPage.error, serverPage.error, path);
    assert.doesNotMatch(toolPage.error.message, /fetch failed|Version negotiation/);
  }
});
