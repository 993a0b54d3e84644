import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { allowedTarget, BlockedTargetError, createSafeFetch, isPublicAddress, type Resolver } from "./egress.ts";
import { classifyError } from "./proxy-error.ts";

/** A resolver standing in for DNS: names point where a hostile DNS zone would point them. */
const zone: Record<string, string[]> = {
  localhost: ["127.0.0.1"],
  "rebind.test": ["93.184.216.34", "127.0.0.1"],
  "internal.test": ["10.0.0.5"],
  "metadata.test": ["169.254.169.254"],
  "v6local.test": ["::1"],
  "mapped.test": ["::ffff:192.168.1.1"],
};
const resolve: Resolver = async (host) => {
  const ips = zone[host];
  if (!ips) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return ips.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const REFUSED = [
  "http://127.0.0.1/", "http://127.1/", "http://2130706433/", "http://0x7f000001/", "http://0177.0.0.1/", "http://0x7f.0.0.1/",
  "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://0.0.0.0/", "http://0/", "http://[::]/",
  "http://10.0.0.1/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.0.1/", "http://100.64.0.1/",
  "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://[fd00:ec2::254]/", "http://[fc00::1]/",
  "http://224.0.0.1/", "http://255.255.255.255/", "http://[64:ff9b::7f00:1]/", "http://[2002:7f00:1::]/", "http://198.18.0.1/",
  "http://192.0.2.1/", "https://127.0.0.1:8443/", "http://localhost:3000/api/demo/mcp", "http://rebind.test/", "http://internal.test/",
  "http://metadata.test/", "http://v6local.test/", "http://mapped.test/", "file:///etc/passwd", "ftp://example.com/", "gopher://127.0.0.1:25/",
];

function blocked(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof BlockedTargetError) return true;
  return false;
}

test("public unicast only: the address classifier", () => {
  for (const ip of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "::1", "fd00:ec2::254", "::ffff:127.0.0.1", "64:ff9b::a00:1"]) assert.equal(isPublicAddress(ip), false, ip);
  for (const ip of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) assert.equal(isPublicAddress(ip), true, ip);
});

test(`hosted mode refuses ${REFUSED.length} private, reserved and odd targets, each as blocked-target`, async () => {
  assert.ok(REFUSED.length >= 30);
  const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
  for (const url of REFUSED) {
    const err = await guarded(url).then(() => undefined, (e: unknown) => e);
    assert.ok(err, `${url} was fetched`);
    assert.ok(blocked(err), `${url}: ${(err as Error).message}`);
    assert.equal(classifyError(err, url, 1000).kind, "blocked-target", url);
  }
});

test("nothing reaches a loopback server in hosted mode; local mode reaches it", async () => {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  try {
    const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`]) assert.ok(blocked(await guarded(url).catch((e) => e)), url);
    assert.equal(hits, 0);
    const local = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2000, resolve });
    assert.equal(await (await local(`http://localhost:${port}/`)).text(), "ok");
    assert.equal(hits, 1);
  } finally {
    server.close();
  }
});

test("an allow-listed private host is reachable, but not its redirect to a private one", async () => {
  const target = http.createServer((_req, res) => res.end("private"));
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  const targetPort = (target.address() as AddressInfo).port;
  const allowed = http.createServer((req, res) => {
    if (req.url === "/hop") {
      res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/` });
      return res.end();
    }
    res.end("allowed");
  });
  await new Promise<void>((r) => allowed.listen(0, "127.0.0.1", r));
  const allowedPort = (allowed.address() as AddressInfo).port;
  try {
    const onPrem = createSafeFetch({ allowPrivate: false, allow: [`127.0.0.1:${allowedPort}`], connectTimeoutMs: 2000, resolve });
    assert.equal(await (await onPrem(`http://127.0.0.1:${allowedPort}/`)).text(), "allowed");
    const err = await onPrem(`http://127.0.0.1:${allowedPort}/hop`, { redirect: "follow" }).catch((e) => e);
    assert.ok(blocked(err), String(err));
  } finally {
    target.close();
    allowed.close();
  }
});

test("allow-list entries: CIDR ranges and host:port pairs", () => {
  const policy = { allowPrivate: false, allow: ["10.1.0.0/16", "mcp.internal:8443", "[fd00::1]:443"] };
  assert.equal(allowedTarget("10.1.2.3", 80, "x", policy), true);
  assert.equal(allowedTarget("10.2.0.1", 80, "x", policy), false);
  assert.equal(allowedTarget("192.168.0.9", 8443, "mcp.internal", policy), true);
  assert.equal(allowedTarget("192.168.0.9", 443, "mcp.internal", policy), false);
  assert.equal(allowedTarget("fd00::1", 443, "fd00::1", policy), true);
});
