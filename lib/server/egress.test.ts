import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { BlockedTargetError, createSafeFetch, isPublicAddress } from "./egress.ts";

test("only public unicast addresses pass the policy", () => {
  for (const ip of ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00:ec2::254", "fe80::1", "::ffff:127.0.0.1", "64:ff9b::a00:1", "224.0.0.1"]) {
    assert.equal(isPublicAddress(ip), false, ip);
  }
  for (const ip of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) assert.equal(isPublicAddress(ip), true, ip);
  assert.equal(isPublicAddress("not-an-ip"), false);
});

test("the hosted policy refuses loopback by literal and by name before any request is served", async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  try {
    const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000 });
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      await assert.rejects(guarded(url), (err: unknown) => {
        let e: unknown = err;
        while (e && !(e instanceof BlockedTargetError)) e = (e as { cause?: unknown }).cause;
        return e instanceof BlockedTargetError;
      }, url);
    }
    await assert.rejects(guarded("file:///etc/passwd"), BlockedTargetError);
    assert.equal(hits, 0);
    const local = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2000 });
    assert.equal(await (await local(`http://127.0.0.1:${port}/`)).text(), "ok");
    assert.equal(hits, 1);
  } finally {
    server.close();
  }
});
