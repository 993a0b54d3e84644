import { test } from "node:test";
import assert from "node:assert/strict";
import { BoundedCache } from "./bounded-cache.ts";

test("a hit makes an entry the most recent; past the count cap the least recent goes first", () => {
  const cache = new BoundedCache<number>({ maxEntries: 2, maxBytes: 1_000_000 });
  cache.set("a", 1, 1);
  cache.set("b", 2, 1);
  assert.equal(cache.get("a"), 1);
  cache.set("c", 3, 1);
  assert.equal(cache.get("b"), undefined, "b was the least recently used");
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("c"), 3);
  assert.equal(cache.size, 2);
});

test("the byte cap counts each entry's weight, key and overhead; an entry above the cap is not kept", () => {
  const cache = new BoundedCache<string>({ maxEntries: 100, maxBytes: 2_000 });
  cache.set("big", "x", 1_600);
  assert.equal(cache.bytes, 1_600 + 3 + 256);
  cache.set("next", "y", 100);
  assert.equal(cache.get("big"), undefined, "pushed out by bytes, not by count");
  assert.equal(cache.get("next"), "y");
  cache.set("huge", "z", 5_000);
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.get("next"), "y", "a refused entry pushes nothing out");
});

test("each entry lives for its own lifetime; none is kept for a non-positive one; the default is for good", () => {
  let now = 1_000;
  const cache = new BoundedCache<string>({ maxEntries: 10, maxBytes: 100_000 }, () => now);
  cache.set("short", "s", 1, 50);
  cache.set("forever", "f", 1);
  cache.set("never", "n", 1, 0);
  assert.equal(cache.get("never"), undefined);
  now += 49;
  assert.equal(cache.get("short"), "s");
  now += 1;
  assert.equal(cache.get("short"), undefined);
  assert.equal(cache.size, 1, "an expired entry is dropped when looked up");
  now += 1e12;
  assert.equal(cache.get("forever"), "f");
});
