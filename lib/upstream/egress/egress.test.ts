import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { allowedTarget, BlockedTargetError, createSafeFetch, isPublicAddress, type Resolver } from "./egress.ts";
import { classifyError } from "../errors/proxy-error.ts";

/** A resolver standing in for DNS: names point where a hostile DNS zone would point them. */
const zone: Record<string, string[]> = {
  localhost: ["127.0.0.1"],
  "rebind.test": ["93.184.216.34", "127.0.0.1"],
  "internal.test": ["10.0.0.5"],
  "metadata.test": ["169.254.169.254"],
  "v6local.test": ["::1"],
  "mapped.test": ["::ffff:192.168.1.1"],
  "zoned.test": ["fe80::1%eth0"],
  "compat.test": ["::127.0.0.1"],
};
const resolve: Resolver = async (host) => {
  const ips = zone[host];
  if (!ips) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return ips.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

const REFUSED = [
  "http://127.0.0.1/",
  "http://127.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://0x7f.0.0.1/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://0.0.0.0/",
  "http://0/",
  "http://[::]/",
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.255/",
  "http://192.168.0.1/",
  "http://100.64.0.1/",
  "http://169.254.169.254/latest/meta-data/",
  "http://[fe80::1]/",
  "http://[fd00:ec2::254]/",
  "http://[fc00::1]/",
  "http://224.0.0.1/",
  "http://255.255.255.255/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://198.18.0.1/",
  "http://192.0.2.1/",
  "https://127.0.0.1:8443/",
  "http://localhost:3000/api/demo/mcp",
  "http://rebind.test/",
  "http://internal.test/",
  "http://metadata.test/",
  "http://v6local.test/",
  "http://mapped.test/",
  "file:///etc/passwd",
  "ftp://example.com/",
  "gopher://127.0.0.1:25/",
];

function blocked(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) if (e instanceof BlockedTargetError) return true;
  return false;
}

test("public unicast only: the address classifier", () => {
  for (const ip of ["127.0.0.1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "::1", "fd00:ec2::254", "::ffff:127.0.0.1", "64:ff9b::a00:1"])
    assert.equal(isPublicAddress(ip), false, ip);
  for (const ip of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"]) assert.equal(isPublicAddress(ip), true, ip);
});

/**
 * One row per entry of the IANA IPv4 and IPv6 Special-Purpose Address Registries (sub-entries included), plus
 * multicast, deprecated ranges, odd spellings and real public servers: [sample address, may the proxy reach it, why].
 */
const VERDICTS: [string, boolean, string][] = [
  ["0.0.0.0", false, "0.0.0.0/32 this host"],
  ["0.1.2.3", false, "0.0.0.0/8 this network"],
  ["10.20.30.40", false, "10.0.0.0/8 private-use"],
  ["100.64.0.1", false, "100.64.0.0/10 shared address space"],
  ["100.127.255.254", false, "100.64.0.0/10 shared address space (top)"],
  ["127.0.0.1", false, "127.0.0.0/8 loopback"],
  ["127.255.255.254", false, "127.0.0.0/8 loopback (top)"],
  ["169.254.169.254", false, "169.254.0.0/16 link-local (metadata)"],
  ["172.16.0.1", false, "172.16.0.0/12 private-use"],
  ["172.31.255.254", false, "172.16.0.0/12 private-use (top)"],
  ["192.0.0.1", false, "192.0.0.0/24 IETF protocol assignments"],
  ["192.0.0.2", false, "192.0.0.0/29 IPv4 service continuity prefix"],
  ["192.0.0.8", false, "192.0.0.8/32 IPv4 dummy address"],
  ["192.0.0.9", false, "192.0.0.9/32 PCP anycast"],
  ["192.0.0.10", false, "192.0.0.10/32 TURN anycast"],
  ["192.0.0.170", false, "192.0.0.170/32 NAT64/DNS64 discovery"],
  ["192.0.0.171", false, "192.0.0.171/32 NAT64/DNS64 discovery"],
  ["192.0.2.1", false, "192.0.2.0/24 documentation (TEST-NET-1)"],
  ["192.31.196.1", false, "192.31.196.0/24 AS112-v4"],
  ["192.52.193.1", false, "192.52.193.0/24 AMT"],
  ["192.88.99.1", false, "192.88.99.0/24 deprecated 6to4 relay anycast"],
  ["192.168.1.1", false, "192.168.0.0/16 private-use"],
  ["192.175.48.1", false, "192.175.48.0/24 direct delegation AS112"],
  ["198.18.0.1", false, "198.18.0.0/15 benchmarking"],
  ["198.19.255.254", false, "198.18.0.0/15 benchmarking (top)"],
  ["198.51.100.1", false, "198.51.100.0/24 documentation (TEST-NET-2)"],
  ["203.0.113.1", false, "203.0.113.0/24 documentation (TEST-NET-3)"],
  ["224.0.0.1", false, "224.0.0.0/4 multicast"],
  ["239.255.255.250", false, "224.0.0.0/4 multicast (SSDP)"],
  ["240.0.0.1", false, "240.0.0.0/4 reserved"],
  ["255.255.255.255", false, "255.255.255.255/32 limited broadcast"],
  ["::1", false, "::1/128 loopback"],
  ["::", false, "::/128 unspecified"],
  ["::ffff:127.0.0.1", false, "::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (loopback)"],
  ["::ffff:10.0.0.1", false, "::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (private)"],
  ["::ffff:169.254.169.254", false, "::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (metadata)"],
  ["::ffff:8.8.8.8", true, "::ffff:0:0/96 IPv4-mapped, judged by its IPv4 (public)"],
  ["::127.0.0.1", false, "::/96 deprecated IPv4-compatible (loopback inside)"],
  ["::7f00:1", false, "::/96 deprecated IPv4-compatible, hex spelling"],
  ["::8.8.8.8", false, "::/96 deprecated IPv4-compatible, refused even around a public IPv4"],
  ["::ffff:0:808:808", false, "::ffff:0:0:0/96 IPv4-translated (SIIT)"],
  ["64:ff9b::808:808", false, "64:ff9b::/96 NAT64, refused even around a public IPv4"],
  ["64:ff9b::7f00:1", false, "64:ff9b::/96 NAT64 around loopback"],
  ["64:ff9b:1::808:808", false, "64:ff9b:1::/48 local-use NAT64"],
  ["100::1", false, "100::/64 discard-only"],
  ["100:0:0:1::1", false, "100:0:0:1::/64 dummy prefix"],
  ["2001:1ff:ffff::1", false, "2001::/23 IETF protocol assignments"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false, "2001::/32 Teredo"],
  ["2001:1::1", false, "2001:1::1/128 PCP anycast"],
  ["2001:1::2", false, "2001:1::2/128 TURN anycast"],
  ["2001:1::3", false, "2001:1::3/128 DNS-SD SRP anycast"],
  ["2001:2::1", false, "2001:2::/48 benchmarking"],
  ["2001:3::1", false, "2001:3::/32 AMT"],
  ["2001:4:112::1", false, "2001:4:112::/48 AS112-v6"],
  ["2001:10::1", false, "2001:10::/28 deprecated ORCHID"],
  ["2001:20::1", false, "2001:20::/28 ORCHIDv2"],
  ["2001:30::1", false, "2001:30::/28 DRIP DETs"],
  ["2001:db8::1", false, "2001:db8::/32 documentation"],
  ["2002:7f00:1::1", false, "2002::/16 6to4 around loopback"],
  ["2002:808:808::1", false, "2002::/16 6to4, refused even around a public IPv4"],
  ["2620:4f:8000::1", false, "2620:4f:8000::/48 AS112-v6"],
  ["3fff::1", false, "3fff::/20 documentation"],
  ["3fff:fff::1", false, "3fff::/20 documentation (top)"],
  ["5f00::1", false, "5f00::/16 segment routing SIDs"],
  ["fc00::1", false, "fc00::/7 unique local"],
  ["fd00:ec2::254", false, "fc00::/7 unique local (AWS metadata)"],
  ["fe80::1", false, "fe80::/10 link-local"],
  ["fe80::1%eth0", false, "fe80::/10 link-local with a zone id"],
  ["2606:4700:4700::1111%eth0", false, "a zone id on a global address"],
  ["fec0::1", false, "fec0::/10 deprecated site-local"],
  ["ff02::1", false, "ff00::/8 multicast"],
  ["4000::1", false, "outside 2000::/3: unallocated"],
  ["0x7f.1", false, "odd IPv4 spelling (hex): not a literal the socket layer reads"],
  ["2130706433", false, "odd IPv4 spelling (32-bit number)"],
  ["0177.0.0.1", false, "odd IPv4 spelling (octal)"],
  ["127.1", false, "odd IPv4 spelling (short)"],
  ["::ffff:7f00:1", false, "IPv4-mapped loopback, hex spelling"],
  ["0:0:0:0:0:ffff:127.0.0.1", false, "IPv4-mapped loopback, long spelling"],
  ["0:0:0:0:0:0:127.0.0.1", false, "IPv4-compatible loopback, long spelling"],
  ["[::1]", false, "bracketed: not a literal"],
  ["example.com", false, "a name, not an address"],
  ["1.1.1.1", true, "public (Cloudflare DNS)"],
  ["8.8.8.8", true, "public (Google DNS)"],
  ["93.184.216.34", true, "public"],
  ["2606:4700:4700::1111", true, "public IPv6 (Cloudflare DNS)"],
  ["2001:4860:4860::8888", true, "public IPv6 (Google DNS), next to 2001::/23"],
  ["2001:200::1", true, "public IPv6 just past 2001::/23"],
];

test(`the address table: ${VERDICTS.length} registry entries, odd spellings and public servers`, () => {
  for (const [ip, reachable, why] of VERDICTS) assert.equal(isPublicAddress(ip), reachable, `${ip} (${why})`);
});

test("IPv4 host spellings are normalised by URL parsing, IPv6 ones to their canonical form", () => {
  for (const host of ["0x7f.1", "2130706433", "0177.0.0.1", "127.1", "0x7f.0.0.1"])
    assert.equal(new URL(`http://${host}/`).hostname, "127.0.0.1", host);
  assert.equal(new URL("http://[0:0:0:0:0:ffff:127.0.0.1]/").hostname, "[::ffff:7f00:1]");
  assert.equal(new URL("http://[::127.0.0.1]/").hostname, "[::7f00:1]");
  assert.throws(() => new URL("http://[fe80::1%25eth0]/"), TypeError, "URLs carry no zone ids: they only arrive from DNS");
});

/** Serves on 127.0.0.1 and, where IPv6 exists, on ::1 at the same port: a loopback spelling that slipped through is answered. */
async function serveOnLoopback(handler: http.RequestListener): Promise<{ port: number; close: () => void }> {
  const v4 = http.createServer(handler);
  await new Promise<void>((r) => v4.listen(0, "127.0.0.1", r));
  const { port } = v4.address() as AddressInfo;
  const v6 = http.createServer(handler);
  await new Promise<void>((r) => v6.once("error", () => r()).listen(port, "::1", r));
  return { port, close: () => [v4, v6].forEach((s) => s.listening && s.close()) };
}

test("odd spellings of loopback never reach a loopback server in hosted mode, IPv4-compatible and zoned ones included", async () => {
  let hits = 0;
  const { port, close } = await serveOnLoopback((_req, res) => {
    hits++;
    res.end("ok");
  });
  try {
    const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
    const urls = [
      "0x7f.1",
      "2130706433",
      "0177.0.0.1",
      "127.1",
      "[::ffff:7f00:1]",
      "[0:0:0:0:0:ffff:127.0.0.1]",
      "[::127.0.0.1]",
      "[::7f00:1]",
      "[::1]",
      "[::]",
      "0.0.0.0",
    ]
      .map((h) => `http://${h}:${port}/`)
      .concat([`http://zoned.test:${port}/`, `http://compat.test:${port}/`]);
    for (const url of urls) {
      const err = await guarded(url).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(blocked(err), `${url}: ${String(err)}`);
      assert.equal(classifyError(err, url, 1000).kind, "blocked-target", url);
    }
    assert.equal(hits, 0);
    const local = createSafeFetch({ allowPrivate: true, connectTimeoutMs: 2000, resolve });
    assert.equal(await (await local(`http://127.1:${port}/`)).text(), "ok");
    assert.equal(hits, 1);
  } finally {
    close();
  }
});

test(`hosted mode refuses ${REFUSED.length} private, reserved and odd targets, each as blocked-target`, async () => {
  assert.ok(REFUSED.length >= 30);
  const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
  for (const url of REFUSED) {
    const err = await guarded(url).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(err, `${url} was fetched`);
    assert.ok(blocked(err), `${url}: ${(err as Error).message}`);
    assert.equal(classifyError(err, url, 1000).kind, "blocked-target", url);
  }
});

test("a refusal names the host, never the address its name resolved to (no DNS answers about the hosting network)", async () => {
  const guarded = createSafeFetch({ allowPrivate: false, connectTimeoutMs: 2000, resolve });
  for (const [url, host, hidden] of [
    ["http://internal.test/mcp", "internal.test", "10.0.0.5"],
    ["http://rebind.test/mcp", "rebind.test", "127.0.0.1"],
    ["http://v6local.test/mcp", "v6local.test", "::1"],
  ] as const) {
    const err = await guarded(url).catch((e: unknown) => e);
    assert.ok(blocked(err), url);
    const shown = classifyError(err, url, 1000);
    assert.equal(shown.kind, "blocked-target");
    assert.match(
      shown.message,
      new RegExp(`^${host.replace(".", "\\.")} is not allowed: it points to a private, loopback or reserved address\\.`),
    );
    for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause)
      assert.ok(!String((e as Error).message).includes(hidden), `${url}: ${(e as Error).message}`);
    assert.ok(!shown.message.includes(hidden), shown.message);
  }
  // An address the caller typed is theirs: it is named.
  const literal = classifyError(await guarded("http://10.0.0.1/").catch((e: unknown) => e), "http://10.0.0.1/", 1000);
  assert.match(literal.message, /^10\.0\.0\.1 is a private, loopback or reserved address\./);
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
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`])
      assert.ok(blocked(await guarded(url).catch((e) => e)), url);
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
  // An IPv4-mapped address is its IPv4 address; the IPv4-compatible one is not (the range does not cover it).
  assert.equal(allowedTarget("::ffff:10.1.2.3", 80, "x", policy), true);
  assert.equal(allowedTarget("::10.1.2.3", 80, "x", policy), false);
  assert.equal(allowedTarget("::ffff:10.2.0.1", 80, "x", policy), false);
});
