/**
 * The proxy's lean fetch answers the way fetch would for the requests it takes (redirect: "manual", string bodies):
 * status, headers, body, a compressed answer decoded, no-body statuses, errors as "fetch failed" with the cause, an
 * abort rejecting with the signal's reason, and its end reported once. Against a real node:http server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { Agent } from "undici";
import { leanFetch, leanHeaders } from "./lean-fetch.ts";

let server: Server;
let base: URL;
const agent = new Agent();

before(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.url === "/echo") {
        res.writeHead(201, { "content-type": "application/json", "x-seen-ua": req.headers["user-agent"] ?? "" });
        res.end(JSON.stringify({ method: req.method, body, accept: req.headers.accept }));
      } else if (req.url === "/gzip") {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(gzipSync(JSON.stringify({ zipped: true })));
      } else if (req.url === "/empty") {
        res.writeHead(204);
        res.end();
      } else if (req.url === "/moved") {
        res.writeHead(307, { location: "/echo" });
        res.end();
      } else if (req.url === "/hang") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(": open\n\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await agent.close();
});

function call(path: string, init: RequestInit = {}) {
  const full: RequestInit = { redirect: "manual", ...init };
  let ended = 0;
  const headers = leanHeaders(full);
  assert.ok(headers, "a manual-redirect request with a string body is served");
  const res = leanFetch(agent, new URL(path, base), full, headers, () => ended++);
  return { res, ended: () => ended };
}

test("only manual-redirect requests with plain bodies and no accept-encoding are taken", () => {
  assert.equal(leanHeaders({ method: "POST", body: "{}" }), undefined, "redirects followed: left to fetch");
  assert.equal(leanHeaders({ redirect: "manual", body: new URLSearchParams("a=1") }), undefined);
  assert.equal(leanHeaders({ redirect: "manual", headers: { "Accept-Encoding": "gzip" } }), undefined);
  assert.deepEqual(leanHeaders({ redirect: "manual", headers: { Accept: "application/json" } }), {
    accept: "application/json",
    "user-agent": "undici",
  });
});

test("status, headers and body as sent; the end is reported once", async () => {
  const { res, ended } = call("/echo", { method: "POST", body: '{"a":1}', headers: { accept: "application/json" } });
  const answer = await res;
  assert.equal(answer.status, 201);
  assert.equal(answer.url, new URL("/echo", base).href);
  assert.equal(answer.headers.get("x-seen-ua"), "undici");
  assert.deepEqual(await answer.json(), { method: "POST", body: '{"a":1}', accept: "application/json" });
  assert.equal(ended(), 1);
});

test("a gzip answer is decoded; 204 has a null body; a redirect is handed back, not followed", async () => {
  const zipped = await call("/gzip").res;
  assert.equal(zipped.headers.get("content-encoding"), null);
  assert.deepEqual(await zipped.json(), { zipped: true });
  const empty = call("/empty");
  assert.equal((await empty.res).body, null);
  assert.equal(empty.ended(), 1);
  const moved = await call("/moved").res;
  assert.equal(moved.status, 307);
  assert.equal(moved.headers.get("location"), "/echo");
  await moved.body?.cancel();
});

test("a refused connection fails as fetch does: TypeError 'fetch failed' with the cause", async () => {
  const closed = new URL(base);
  closed.port = "1";
  let ended = 0;
  const init: RequestInit = { redirect: "manual" };
  await assert.rejects(
    leanFetch(agent, closed, init, leanHeaders(init)!, () => ended++),
    (err: Error) => {
      assert.ok(err instanceof TypeError);
      assert.equal(err.message, "fetch failed");
      assert.ok((err as { cause?: unknown }).cause instanceof Error);
      return true;
    },
  );
  assert.equal(ended, 1);
});

test("an abort rejects with the signal's reason; cancelling a streaming body reports the end once", async () => {
  const stop = new AbortController();
  const reason = new Error("caller went away");
  stop.abort(reason);
  await assert.rejects(call("/echo", { signal: stop.signal }).res, (err) => err === reason);
  const streaming = call("/hang");
  const answer = await streaming.res;
  assert.equal(streaming.ended(), 0, "an open stream is not over");
  await answer.body!.cancel();
  assert.equal(streaming.ended(), 1);
});
