import { test } from "node:test";
import assert from "node:assert/strict";
import { isOutage, LastGoodDocs } from "./last-good-docs.ts";

const down = { kind: "upstream-unreachable" as const, message: "Nothing is listening (connection refused)." };

function clocked(maxAgeMs = 60_000, maxEntries = 3) {
  let now = Date.parse("2026-12-02T12:00:00Z");
  const docs = new LastGoodDocs<string>(
    () => maxAgeMs,
    () => now,
    maxEntries,
  );
  return { docs, advance: (ms: number) => (now += ms) };
}

test("an outage is unreachable, timed out, or an upstream 5xx/429; a refusal or a bad request is not", () => {
  assert.equal(isOutage("upstream-unreachable"), true);
  assert.equal(isOutage("upstream-timeout"), true);
  assert.equal(isOutage("upstream-protocol", 503), true);
  assert.equal(isOutage("upstream-protocol", 429), true);
  assert.equal(isOutage("upstream-protocol", 401), false);
  assert.equal(isOutage("upstream-protocol", 404), false);
  assert.equal(isOutage("upstream-protocol"), false, "a non-MCP answer is the server being wrong, not down");
  assert.equal(isOutage("blocked-target"), false);
  assert.equal(isOutage("bad-request"), false);
  assert.equal(isOutage("rate-limited"), false, "our own limits are not the server's outage");
});

test("recall gives the last copy, marked with when it was fetched and what failed", () => {
  const { docs, advance } = clocked();
  docs.remember("https://a.example/mcp", "v1");
  advance(5_000);
  docs.remember("https://a.example/mcp", "v2");
  advance(10_000);
  const got = docs.recall("https://a.example/mcp", down);
  assert.equal(got?.value, "v2");
  assert.equal(got?.stale.fetchedAt, "2026-12-02T12:00:05.000Z");
  assert.deepEqual(got?.stale.error, down);
});

test("no stand-in for a non-outage, an unknown server, or a copy older than the limit", () => {
  const { docs, advance } = clocked(60_000);
  docs.remember("https://a.example/mcp", "v1");
  assert.equal(docs.recall("https://a.example/mcp", { kind: "upstream-protocol", message: "HTTP 401", upstreamStatus: 401 }), undefined);
  assert.equal(docs.recall("https://b.example/mcp", down), undefined);
  advance(60_000);
  assert.ok(docs.recall("https://a.example/mcp", down), "exactly at the limit is still allowed");
  advance(1);
  assert.equal(docs.recall("https://a.example/mcp", down), undefined);
});

test("a max age of 0 keeps nothing; the count is bounded, oldest first out", () => {
  const off = new LastGoodDocs<string>(() => 0);
  off.remember("https://a.example/mcp", "v1");
  assert.equal(off.recall("https://a.example/mcp", down), undefined);

  const { docs } = clocked(60_000, 2);
  docs.remember("https://a.example/mcp", "a");
  docs.remember("https://b.example/mcp", "b");
  docs.remember("https://a.example/mcp", "a2"); // refreshed: now the newest
  docs.remember("https://c.example/mcp", "c");
  assert.equal(docs.recall("https://b.example/mcp", down), undefined);
  assert.equal(docs.recall("https://a.example/mcp", down)?.value, "a2");
  assert.equal(docs.recall("https://c.example/mcp", down)?.value, "c");
});

test("forget drops every spelling that matches (list_changed)", () => {
  const { docs } = clocked();
  docs.remember("https://a.example/mcp", "a");
  docs.remember("HTTPS://A.EXAMPLE/mcp", "a'");
  docs.remember("https://b.example/mcp", "b");
  docs.forget((u) => u.toLowerCase().startsWith("https://a.example"));
  assert.equal(docs.recall("https://a.example/mcp", down), undefined);
  assert.equal(docs.recall("HTTPS://A.EXAMPLE/mcp", down), undefined);
  assert.equal(docs.recall("https://b.example/mcp", down)?.value, "b");
});
