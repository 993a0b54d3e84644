import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createSafeFetch, type Resolver } from "../../upstream/egress/egress.ts";
import {
  createIconProxy,
  FAILED_ICON_CACHE_MS,
  ICON_USER_AGENT,
  iconResponse,
  MAX_ICON_SRC_CHARS,
  type IconProxyOptions,
} from "./icon-proxy.ts";

// Tiny but real images (1×1 pixel).
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
const MAX_BYTES = 4_096;
const TIMEOUT_MS = 400;

/** Requests per path, connections in all, and the headers of the last request. */
const hits = new Map<string, number>();
let connections = 0;
let lastHeaders: http.IncomingHttpHeaders = {};
let base = "";
let port = 0;

const server = http.createServer((req, res) => {
  const path = req.url ?? "/";
  hits.set(path, (hits.get(path) ?? 0) + 1);
  lastHeaders = req.headers;
  switch (path) {
    // Labelled as HTML on purpose: the bytes decide, not the header.
    case "/icon.png":
      return res.writeHead(200, { "content-type": "text/html" }).end(PNG);
    case "/icon.gif":
      return res.writeHead(200, { "content-type": "image/gif" }).end(GIF);
    case "/icon.svg":
      return res.writeHead(200, { "content-type": "image/png" }).end(SVG);
    case "/page.html":
      return res.writeHead(200, { "content-type": "image/png" }).end("<!doctype html><h1>hi</h1>");
    case "/empty":
      return res.writeHead(200, { "content-type": "image/png" }).end();
    case "/missing":
      return res.writeHead(404).end("no");
    case "/redirect":
      return res.writeHead(302, { location: "/icon.png" }).end();
    case "/slow.png":
      return void setTimeout(() => res.writeHead(200).end(PNG), 150);
    case "/declared-huge":
      res.writeHead(200, { "content-type": "image/png", "content-length": String(MAX_BYTES * 10) });
      return void res.write(PNG);
    case "/endless": {
      // Chunked, no Content-Length, never ends: only a reader that stops counting can refuse it.
      res.writeHead(200, { "content-type": "image/png" });
      res.write(PNG);
      const timer = setInterval(() => res.write(Buffer.alloc(1_024, 0x41)), 1);
      return void res.on("close", () => clearInterval(timer));
    }
    case "/hang":
      return; // never answers
    case "/hang-body":
      res.writeHead(200, { "content-type": "image/png" });
      return void res.write(PNG.subarray(0, 8));
    default:
      res.writeHead(404).end();
  }
});
server.on("connection", () => connections++);

before(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

/** Names resolve without DNS: nothing here touches the network beyond 127.0.0.1. */
const resolve: Resolver = async (host) => {
  if (host === "localhost") return [{ address: "127.0.0.1", family: 4 }];
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

/** Local mode: private addresses and http: allowed. */
function localProxy(extra: Partial<IconProxyOptions> = {}) {
  return createIconProxy({
    fetch: createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2_000, resolve }),
    allowHttp: true,
    maxBytes: MAX_BYTES,
    timeoutMs: TIMEOUT_MS,
    cacheMs: 60 * 60 * 1000,
    ...extra,
  });
}

/** Hosted mode: public addresses over https only. */
function hostedProxy() {
  return createIconProxy({
    fetch: createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2_000, resolve }),
    allowHttp: false,
    maxBytes: MAX_BYTES,
    timeoutMs: TIMEOUT_MS,
    cacheMs: 3_600_000,
  });
}

test("raster images are served with the sniffed type, whatever the upstream Content-Type said", async () => {
  const proxy = localProxy();
  const png = await proxy.get(`${base}/icon.png`);
  assert.ok(png.ok);
  assert.equal(png.type, "image/png");
  assert.deepEqual(Buffer.from(png.bytes), PNG);
  const gif = await proxy.get(`${base}/icon.gif`);
  assert.equal(gif.ok && gif.type, "image/gif");
  assert.equal(lastHeaders["user-agent"], ICON_USER_AGENT);
  assert.equal(lastHeaders.cookie, undefined);
  assert.equal(lastHeaders.referer, undefined);
});

test("SVG, HTML and empty bodies are refused as 415, even when labelled image/png", async () => {
  const proxy = localProxy();
  const svg = await proxy.get(`${base}/icon.svg`);
  assert.equal(svg.status, 415);
  assert.match(!svg.ok ? svg.message : "", /SVG/);
  assert.equal((await proxy.get(`${base}/page.html`)).status, 415);
  assert.equal((await proxy.get(`${base}/empty`)).status, 415);
});

test("too large: refused as 413 by Content-Length, and without one as soon as the limit is passed", async () => {
  const proxy = localProxy();
  assert.equal((await proxy.get(`${base}/declared-huge`)).status, 413);
  const started = Date.now();
  const endless = await proxy.get(`${base}/endless`);
  assert.equal(endless.status, 413);
  assert.match(!endless.ok ? endless.message : "", /4096 bytes/);
  // Well before the timeout: the reader stopped at the limit instead of waiting for an end that never comes.
  assert.ok(Date.now() - started < TIMEOUT_MS, `took ${Date.now() - started} ms`);
});

test("a host that does not answer, or stalls mid-body, is a 504 after the timeout", async () => {
  const proxy = localProxy();
  for (const path of ["/hang", "/hang-body"]) {
    const started = Date.now();
    const answer = await proxy.get(`${base}${path}`);
    assert.equal(answer.status, 504, path);
    assert.ok(Date.now() - started < TIMEOUT_MS + 1_000, path);
  }
});

test("redirects are followed through the guarded fetch; upstream errors and refused connections are 502", async () => {
  const proxy = localProxy();
  const before = hits.get("/icon.png") ?? 0;
  const redirected = await proxy.get(`${base}/redirect`);
  assert.equal(redirected.ok && redirected.type, "image/png");
  assert.equal(hits.get("/icon.png"), before + 1);
  const missing = await proxy.get(`${base}/missing`);
  assert.equal(missing.status, 502);
  assert.match(!missing.ok ? missing.message : "", /404/);
  // A port nobody listens on (the server's own port + nothing: pick one by closing a listener).
  const spare = http.createServer();
  await new Promise<void>((r) => spare.listen(0, "127.0.0.1", r));
  const closedPort = (spare.address() as AddressInfo).port;
  await new Promise((r) => spare.close(r));
  assert.equal((await proxy.get(`http://127.0.0.1:${closedPort}/icon.png`)).status, 502);
});

test("bad sources are 400 and fetch nothing", async () => {
  const proxy = localProxy();
  const seen = connections;
  const bad = [
    null,
    "",
    "/icon.png",
    "icon.png",
    "javascript:alert(1)",
    "data:image/png;base64,iVBORw0KGgo=",
    "ftp://127.0.0.1/x.png",
    "file:///etc/passwd",
    `http://user:pass@127.0.0.1:${port}/icon.png`,
    `https://token@127.0.0.1:${port}/icon.png`,
    `${base}/${"a".repeat(MAX_ICON_SRC_CHARS)}.png`,
  ];
  for (const src of bad) {
    const answer = await proxy.get(src);
    assert.equal(answer.status, 400, String(src));
    assert.equal(iconResponse(answer).headers.get("cache-control"), "no-store");
  }
  // http: is for local mode only.
  assert.equal((await hostedProxy().get(`${base}/icon.png`)).status, 400);
  assert.equal(connections, seen);
});

test("hosted mode: loopback targets are a 403 blocked target, without a connection", async () => {
  const seen = connections;
  const proxy = hostedProxy();
  for (const src of [`https://127.0.0.1:${port}/icon.png`, `https://localhost:${port}/icon.png`, `https://[::1]:${port}/icon.png`]) {
    const answer = await proxy.get(src);
    assert.equal(answer.status, 403, src);
    assert.match(!answer.ok ? answer.message : "", /Blocked target/);
  }
  // Even with http: allowed, the address check still refuses.
  const httpAllowed = createIconProxy({
    fetch: createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2_000, resolve }),
    allowHttp: true,
    maxBytes: MAX_BYTES,
    timeoutMs: TIMEOUT_MS,
    cacheMs: 1_000,
  });
  assert.equal((await httpAllowed.get(`${base}/icon.png`)).status, 403);
  assert.equal(connections, seen);
});

test("answers are cached by URL (fragment ignored); failures too, but only briefly", async () => {
  let now = 1_000_000;
  const proxy = localProxy({ now: () => now, cacheMs: 10 * 60 * 1000 });
  hits.clear();
  assert.ok((await proxy.get(`${base}/icon.gif#a`)).ok);
  assert.ok((await proxy.get(`${base}/icon.gif#b`)).ok);
  assert.equal(hits.get("/icon.gif"), 1);
  assert.equal((await proxy.get(`${base}/missing`)).status, 502);
  assert.equal((await proxy.get(`${base}/missing`)).status, 502);
  assert.equal(hits.get("/missing"), 1);

  now += FAILED_ICON_CACHE_MS + 1;
  await proxy.get(`${base}/missing`);
  await proxy.get(`${base}/icon.gif`);
  assert.equal(hits.get("/missing"), 2, "a failure is asked again after a minute");
  assert.equal(hits.get("/icon.gif"), 1, "an icon is kept for cacheMs");

  now += 10 * 60 * 1000;
  await proxy.get(`${base}/icon.gif`);
  assert.equal(hits.get("/icon.gif"), 2);
});

test("the cache is bounded by count and by bytes", async () => {
  hits.clear();
  const byCount = localProxy({ cacheLimits: { maxEntries: 1, maxBytes: 1_000_000 } });
  await byCount.get(`${base}/icon.png`);
  await byCount.get(`${base}/icon.gif`);
  await byCount.get(`${base}/icon.png`);
  assert.equal(hits.get("/icon.png"), 2, "the PNG was pushed out by the GIF");
  // Room for one small entry only: the GIF cannot stay beside the PNG.
  const byBytes = localProxy({ cacheLimits: { maxEntries: 100, maxBytes: PNG.length + GIF.length + 300 } });
  hits.clear();
  await byBytes.get(`${base}/icon.png`);
  await byBytes.get(`${base}/icon.gif`);
  await byBytes.get(`${base}/icon.png`);
  await byBytes.get(`${base}/icon.png`);
  assert.equal(hits.get("/icon.png"), 2);
});

test("concurrent requests for one URL share one fetch", async () => {
  hits.clear();
  const proxy = localProxy();
  const answers = await Promise.all(Array.from({ length: 8 }, () => proxy.get(`${base}/slow.png`)));
  assert.equal(hits.get("/slow.png"), 1);
  for (const a of answers) assert.equal(a.ok && a.type, "image/png");
});

test("the response carries the sniffed type and locks the body down", async () => {
  const ok = iconResponse(await localProxy({ cacheMs: 3_600_000 }).get(`${base}/icon.png`));
  assert.equal(ok.status, 200);
  assert.equal(ok.headers.get("content-type"), "image/png");
  assert.equal(ok.headers.get("x-content-type-options"), "nosniff");
  assert.equal(ok.headers.get("content-security-policy"), "default-src 'none'; sandbox");
  assert.equal(ok.headers.get("cache-control"), "public, max-age=3600");
  assert.equal(ok.headers.get("content-disposition"), "inline");
  assert.deepEqual(Buffer.from(await ok.arrayBuffer()), PNG);

  const refused = iconResponse(await localProxy().get(`${base}/icon.svg`));
  assert.equal(refused.status, 415);
  assert.equal(refused.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(refused.headers.get("x-content-type-options"), "nosniff");
  assert.equal(refused.headers.get("cache-control"), `public, max-age=${FAILED_ICON_CACHE_MS / 1000}`);
  assert.match(await refused.text(), /SVG/);
});
