/**
 * The HTTP status of docs pages: the request guard loads a page's docs before it renders (preloadDocsPage), answers
 * with the load's status, and hands the very load to the page by a one-time token (loadDocs), so the page shows the
 * same banner without asking the server twice.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dataDir = mkdtempSync(join(tmpdir(), "toolscope-docs-load-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_REQUEST_TIMEOUT_MS = "3000";
delete process.env.DATABASE_URL;

const { DOCS_LOAD_HEADER, docsPageStatus, loadDocs, preloadDocsPage } = await import("./docs-load.ts");
const { startFaultServer } = await import("../../upstream/testing/fault-server.ts");

type FaultServer = Awaited<ReturnType<typeof startFaultServer>>;
let faults: FaultServer;
before(async () => {
  faults = await startFaultServer();
});
after(async () => {
  await faults.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function page(path: string, extra: Record<string, string> = {}) {
  return { nextUrl: new URL(path, "http://127.0.0.1:3000"), headers: new Headers({ host: "127.0.0.1:3000", ...extra }), method: "GET" };
}
const docs = (server: string) => `/docs?server=${encodeURIComponent(server)}`;

test("a docs page that loads answers 200 and hands its load to the page, once", async () => {
  const pre = await preloadDocsPage(page(docs("builtin:demo")));
  assert.equal(pre?.status, 200);
  assert.ok(pre?.token);
  const handed = new Headers({ host: "127.0.0.1:3000", [DOCS_LOAD_HEADER]: pre.token });
  const first = await loadDocs("builtin:demo", handed);
  assert.ok(first.ok);
  // The token is spent: a second render (or a replayed header) loads on its own, with an equal result.
  const second = await loadDocs("builtin:demo", handed);
  assert.ok(second.ok && second !== first);
  // A token only serves the server it was made for.
  const other = await preloadDocsPage(page(docs("builtin:demo")));
  const mismatch = await loadDocs(faults.url("/text-500"), new Headers({ host: "127.0.0.1:3000", [DOCS_LOAD_HEADER]: other!.token! }));
  assert.ok(!mismatch.ok);
});

test("a tool page answers 404 for a tool the server does not list, 200 for one it does", async () => {
  assert.equal((await preloadDocsPage(page(`/docs/tools/search_issues?server=builtin:demo`)))?.status, 200);
  assert.equal((await preloadDocsPage(page(`/docs/tools/no_such_tool?server=builtin:demo`)))?.status, 404);
});

test("error pages answer with the error's status, and Retry-After for a rate limit", async () => {
  const cases: [string, number, string, Record<string, string>][] = [
    [docs(faults.url("/rate-limited")), 502, "upstream-rate-limited", { "retry-after": "30" }],
    [docs(faults.url("/text-500")), 502, "upstream-protocol", {}],
    [docs(faults.url("/reset")), 502, "upstream-unreachable", {}],
    [docs("http://127.0.0.1:1/mcp"), 502, "upstream-unreachable", {}],
    [docs("ftp://example.com/"), 400, "bad-request", {}],
    [`/docs/tools/x?server=${encodeURIComponent(faults.url("/loop-a"))}`, 502, "upstream-protocol", {}],
  ];
  for (const [path, status, kind, headers] of cases) {
    const pre = await preloadDocsPage(page(path));
    assert.equal(pre?.status, status, path);
    assert.deepEqual(pre?.headers, headers, path);
    // The page renders the load the guard made: the same error, with no second request upstream.
    const seen = faults.seen.length;
    const load = await loadDocs(new URL(path, "http://x").searchParams.get("server")!, new Headers({ [DOCS_LOAD_HEADER]: pre!.token! }));
    assert.ok(!load.ok);
    assert.equal(load.error.kind, kind, path);
    assert.equal(docsPageStatus(load), status);
    assert.ok(load.error.hint, `${kind} has a hint`);
    assert.equal(faults.seen.length, seen, "the page did not ask again");
  }
});

test("a hanging server answers 504 within the request timeout", async () => {
  const started = performance.now();
  const pre = await preloadDocsPage(page(docs(faults.url("/hang"))));
  assert.equal(pre?.status, 504);
  assert.ok(performance.now() - started < 3_500 * 2);
});

test("/diff: 404 for an unknown snapshot; nothing for pages without a comparison", async () => {
  assert.equal((await preloadDocsPage(page("/diff?a=doesnotexist0123456789")))?.status, 404);
  assert.equal(await preloadDocsPage(page("/diff")), undefined);
});

test("client-side navigations are loaded and handed over too, but answer 200 (the router would reload a non-2xx page)", async () => {
  const pre = await preloadDocsPage(page(docs(faults.url("/text-500")), { rsc: "1" }));
  assert.equal(pre?.status, 200);
  assert.deepEqual(pre?.headers, {});
  const load = await loadDocs(faults.url("/text-500"), new Headers({ [DOCS_LOAD_HEADER]: pre!.token! }));
  assert.ok(!load.ok && load.status === 502);
});

test("prefetches, other pages and other methods are left alone", async () => {
  assert.equal(await preloadDocsPage(page(docs("builtin:demo"), { rsc: "1", "next-router-prefetch": "1" })), undefined);
  assert.equal(await preloadDocsPage(page(docs("builtin:demo"), { rsc: "1", "next-router-segment-prefetch": "/_tree" })), undefined);
  assert.equal(await preloadDocsPage(page("/playground?server=builtin:demo")), undefined);
  assert.equal(await preloadDocsPage(page("/s/abc")), undefined);
  assert.equal(await preloadDocsPage({ ...page(docs("builtin:demo")), method: "POST" }), undefined);
});

test("the server is read as the pages read it: a repeated `server` means the demo", async () => {
  const pre = await preloadDocsPage(page(`/docs?server=${encodeURIComponent(faults.url("/text-500"))}&server=x`));
  assert.equal(pre?.status, 200, "the page shows the demo for an ambiguous link");
});

test("requests for one server's docs that arrive together share one load (and its stale copy, in an outage)", async () => {
  const seen = faults.seen.length;
  const [x, y] = await Promise.all([
    preloadDocsPage(page(docs(faults.url("/rpc-error-500")))),
    preloadDocsPage(page(docs(faults.url("/rpc-error-500")), { rsc: "1" })),
  ]);
  assert.equal(x?.status, 502);
  assert.equal(y?.status, 200);
  assert.equal(faults.seen.length - seen, 1, "one request upstream");
});
