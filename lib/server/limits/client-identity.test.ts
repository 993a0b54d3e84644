import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { clientIdentity, PEER_HEADER } from "./client-identity.ts";

function req(peer: string | undefined, forwardedFor?: string): Headers {
  const h = new Headers();
  if (peer !== undefined) h.set(PEER_HEADER, peer);
  if (forwardedFor !== undefined) h.set("x-forwarded-for", forwardedFor);
  return h;
}

describe("clientIdentity", () => {
  test("the peer header is the identity without trusted proxies", () => {
    assert.equal(PEER_HEADER, "x-toolscope-peer");
    assert.equal(clientIdentity(req("203.0.113.7"), 0), "203.0.113.7");
  });

  test("X-Forwarded-For is ignored with trustProxy=0 (a client cannot spoof it)", () => {
    assert.equal(clientIdentity(req("203.0.113.7", "198.51.100.1"), 0), "203.0.113.7");
    assert.equal(clientIdentity(req("203.0.113.7", "1.1.1.1, 2.2.2.2"), 0), "203.0.113.7");
  });

  test("a negative trustProxy counts as none", () => {
    assert.equal(clientIdentity(req("203.0.113.7", "198.51.100.1"), -1), "203.0.113.7");
  });

  test("trustProxy=1: the rightmost X-Forwarded-For entry (what our proxy saw)", () => {
    assert.equal(clientIdentity(req("10.0.0.2", "6.6.6.6, 198.51.100.1"), 1), "198.51.100.1");
    assert.equal(clientIdentity(req("10.0.0.2", "198.51.100.1"), 1), "198.51.100.1");
  });

  test("trustProxy=2: the second entry from the right", () => {
    assert.equal(clientIdentity(req("10.0.0.2", "6.6.6.6, 198.51.100.1, 10.0.0.9"), 2), "198.51.100.1");
  });

  test("spaces and empty entries do not shift the count", () => {
    assert.equal(clientIdentity(req("10.0.0.2", " 6.6.6.6 ,, 198.51.100.1 ,"), 1), "198.51.100.1");
  });

  test("more hops than entries: the leftmost entry", () => {
    assert.equal(clientIdentity(req("10.0.0.2", "198.51.100.1, 10.0.0.9"), 3), "198.51.100.1");
    assert.equal(clientIdentity(req("10.0.0.2", "198.51.100.1"), 2), "198.51.100.1");
  });

  test("trusted proxies but no X-Forwarded-For: the peer", () => {
    assert.equal(clientIdentity(req("203.0.113.7"), 1), "203.0.113.7");
    assert.equal(clientIdentity(req("203.0.113.7", ""), 2), "203.0.113.7");
  });

  test("IPv4-mapped IPv6 is the IPv4 address", () => {
    assert.equal(clientIdentity(req("::ffff:1.2.3.4"), 0), "1.2.3.4");
    assert.equal(clientIdentity(req("10.0.0.2", "::ffff:1.2.3.4"), 1), "1.2.3.4");
    assert.equal(clientIdentity(req("::ffff:1.2.3.4"), 0), clientIdentity(req("1.2.3.4"), 0));
  });

  test("IPv6 addresses in the same /64 are one client", () => {
    const a = clientIdentity(req("2001:db8:1:2::1"), 0);
    const b = clientIdentity(req("2001:db8:1:2:ffff:eeee:dddd:cccc"), 0);
    const c = clientIdentity(req("2001:0db8:0001:0002:0:0:0:99"), 0);
    assert.equal(a, "2001:db8:1:2::/64");
    assert.equal(b, a);
    assert.equal(c, a, "spelling with leading zeros is the same /64");
  });

  test("IPv6 addresses in different /64s are different clients", () => {
    const a = clientIdentity(req("2001:db8:1:2::1"), 0);
    const b = clientIdentity(req("2001:db8:1:3::1"), 0);
    assert.equal(b, "2001:db8:1:3::/64");
    assert.notEqual(a, b);
  });

  test("a zone id is dropped", () => {
    assert.equal(clientIdentity(req("fe80::1%eth0"), 0), "fe80:0:0:0::/64");
  });

  test("a missing or blank peer header is one shared unknown identity", () => {
    assert.equal(clientIdentity(req(undefined), 0), "unknown-peer");
    assert.equal(clientIdentity(req("   "), 0), "unknown-peer");
    assert.equal(clientIdentity(req(undefined), 1), "unknown-peer");
  });

  test("a value that is not an address is kept as it is", () => {
    assert.equal(clientIdentity(req("10.0.0.2", "unknown"), 1), "unknown");
  });
});
