import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheWords, formatDuration, MAX_TTL_MS, recordedCacheWords } from "./cache-words.ts";

const fetchedAt = "2026-08-01T12:00:00.000Z";
const t0 = Date.parse(fetchedAt);

test("positive ttl: fresh for N, expiresAt and relative time", () => {
  const w = cacheWords({ ttlMs: 300000, cacheScope: "public", fetchedAt }, t0 + 60_000);
  assert.equal(w.freshness, "fresh for 5 min (ttlMs 300000)");
  assert.equal(w.scope, "public — may be shared by gateways");
  assert.equal(w.expiresAt, "2026-08-01T12:05:00.000Z");
  assert.equal(w.fresh, true);
  assert.equal(w.relative, "stale in 4 min");
  const later = cacheWords({ ttlMs: 300000, fetchedAt }, t0 + 420_000);
  assert.equal(later.fresh, false);
  assert.equal(later.relative, "stale since 2 min");
});

test("absent, zero, negative and garbage ttl are not cacheable", () => {
  assert.match(cacheWords({}).freshness, /^not cacheable \(no ttlMs/);
  assert.equal(cacheWords({ ttlMs: 0 }).freshness, "not cacheable (ttlMs 0: immediately stale)");
  assert.match(cacheWords({ ttlMs: -5 }).freshness, /negative ttlMs -5 is treated as 0/);
  assert.match(cacheWords({ ttlMs: "300" }).freshness, /not a number/);
  for (const ttlMs of [undefined, 0, -5, "300", Infinity]) {
    const w = cacheWords({ ttlMs, fetchedAt });
    assert.equal(w.cacheable, false);
    assert.equal(w.expiresAt, undefined);
  }
});

test("ttl above 24h is capped and says so", () => {
  const w = cacheWords({ ttlMs: 7 * MAX_TTL_MS, fetchedAt }, t0);
  assert.equal(w.capped, true);
  assert.equal(w.effectiveTtlMs, MAX_TTL_MS);
  assert.equal(w.freshness, "fresh for 24 h (ttlMs 604800000, 7 d, capped at 24 h)");
  assert.equal(w.expiresAt, "2026-08-02T12:00:00.000Z");
});

test("scopes", () => {
  assert.equal(cacheWords({ cacheScope: "private" }).scope, "private — reusable only with the same credentials");
  assert.equal(cacheWords({}).scopeKind, "unstated");
  assert.equal(cacheWords({ cacheScope: "shared" }).scopeKind, "invalid");
});

test("formatDuration", () => {
  assert.deepEqual([250, 30_000, 90_000, 3_600_000, 5_400_000, 172_800_000].map(formatDuration), [
    "250 ms",
    "30 s",
    "1 min 30 s",
    "1 h",
    "1 h 30 min",
    "2 d",
  ]);
});

test("a recorded list (snapshot) states the hints as declared, with the date, and no countdown", () => {
  const words = recordedCacheWords({ ttlMs: 300000, cacheScope: "public", fetchedAt: "2026-12-03T11:00:00.000Z" });
  assert.equal(words, 'The server declared ttlMs 300000 (5 min) and cacheScope "public"; recorded Thu, 03 Dec 2026 11:00:00 GMT.');
  assert.doesNotMatch(words, /fresh|expires|stale/);
  assert.equal(recordedCacheWords({}), "The server declared no ttlMs and no cacheScope.");
  assert.equal(recordedCacheWords({ ttlMs: 0, cacheScope: 7 }), "The server declared ttlMs 0 (not cacheable) and cacheScope 7 (unknown).");
  assert.equal(recordedCacheWords({ ttlMs: "soon" }), 'The server declared ttlMs "soon" (not a number) and no cacheScope.');
});
