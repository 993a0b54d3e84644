/**
 * The HTTP server's body deadline, on a real node:http server on a free loopback port whose handler reads bodies
 * whole before answering (as Next.js does), with raw sockets that send part of a body and stall.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { bodyReadTimeoutMs, watchBody } from "./body-deadline.mjs";

const TIMEOUT_MS = 300;
let server: Server;
let port: number;
let cuts = 0;

before(async () => {
  server = createServer((req, res) => {
    const watch = watchBody(req, res, TIMEOUT_MS);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("error", () => {});
    req.on("close", () => {
      if (watch.wasCut()) cuts++;
    });
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`read ${Buffer.concat(chunks).length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

/** A raw connection; `text()` is everything the server sent until it closed (or until `waitMs`). */
function open(): { socket: Socket; text: (waitMs: number) => Promise<{ data: string; closed: boolean }> } {
  const socket = connect(port, "127.0.0.1");
  let data = "";
  let closed = false;
  socket.on("data", (c) => (data += c.toString("latin1")));
  socket.on("close", () => (closed = true));
  socket.on("error", () => {});
  return {
    socket,
    text: (waitMs) =>
      new Promise((resolve) => {
        const done = () => resolve({ data, closed });
        if (closed) return done();
        const t = setTimeout(done, waitMs);
        socket.once("close", () => {
          clearTimeout(t);
          done();
        });
      }),
  };
}

function head(length: string): string {
  return `POST /api/rpc HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n${length}\r\n\r\n`;
}

test("990 KB of a 1 MB body, then a stall: 408 request-timeout naming the setting, and the connection closed", async () => {
  const c = open();
  const started = performance.now();
  c.socket.write(head("content-length: 1000000"));
  c.socket.write(Buffer.alloc(990_000, 0x20));
  const { data, closed } = await c.text(5_000);
  const took = performance.now() - started;
  assert.ok(closed, "the server closed the connection");
  assert.ok(took >= TIMEOUT_MS - 10 && took < 2_000, `cut after ${Math.round(took)} ms`);
  assert.match(data, /^HTTP\/1\.1 408 /);
  assert.match(data, /connection: close/i);
  const body = JSON.parse(data.slice(data.indexOf("\r\n\r\n") + 4)) as { error: { kind: string; message: string } };
  assert.equal(body.error.kind, "request-timeout");
  assert.equal(body.error.message, `The request body did not arrive within ${TIMEOUT_MS} ms (TOOLSCOPE_BODY_READ_TIMEOUT_MS).`);
});

test("a chunked body that stalls is cut the same way", async () => {
  const c = open();
  c.socket.write(head("transfer-encoding: chunked"));
  c.socket.write('5\r\n{"a":\r\n');
  const { data, closed } = await c.text(5_000);
  assert.ok(closed);
  assert.match(data, /^HTTP\/1\.1 408 /);
});

test("a body that arrives in time is answered by the handler, and the kept-alive connection stays open", async () => {
  const c = open();
  c.socket.write(head("content-length: 2") + "{}");
  const { data, closed } = await c.text(TIMEOUT_MS * 3);
  assert.equal(closed, false, "not cut after the deadline passed");
  assert.match(data, /^HTTP\/1\.1 200 /);
  assert.match(data, /\r\nread 2\r\n/);
  c.socket.destroy();
});

test("a request without a body is not watched", async () => {
  const before = cuts;
  const c = open();
  c.socket.write("GET /api/health HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n");
  const { data, closed } = await c.text(TIMEOUT_MS * 2);
  assert.equal(closed, false);
  assert.match(data, /^HTTP\/1\.1 200 /);
  assert.equal(cuts, before);
  c.socket.destroy();
});

test("TOOLSCOPE_BODY_READ_TIMEOUT_MS: 10 s by default, bounded as in config.ts", () => {
  assert.equal(bodyReadTimeoutMs({}), 10_000);
  assert.equal(bodyReadTimeoutMs({ TOOLSCOPE_BODY_READ_TIMEOUT_MS: "2500" }), 2_500);
  assert.throws(() => bodyReadTimeoutMs({ TOOLSCOPE_BODY_READ_TIMEOUT_MS: "50" }), /from 100 to 300000/);
  assert.throws(() => bodyReadTimeoutMs({ TOOLSCOPE_BODY_READ_TIMEOUT_MS: "ten" }), /is invalid/);
});
