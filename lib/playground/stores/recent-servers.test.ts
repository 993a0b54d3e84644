import { test } from "node:test";
import assert from "node:assert/strict";
import { clearRecent, forgetServer, lastUsedLabel, loadRecent, MAX_RECENT_SERVERS, RECENT_KEY, rememberServer } from "./recent-servers.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";

test("a use is remembered on top, one entry per URL, with header names and never their values", () => {
  const s = new MemoryStorage();
  rememberServer(s, { url: "http://a.test/mcp", era: "auto", name: "A" }, 1_000);
  rememberServer(s, { url: "http://b.test/mcp", era: "legacy", headers: { Authorization: "Bearer secret-xyz" } }, 2_000);
  const { list } = rememberServer(s, { url: "http://a.test/mcp", era: "modern", name: "A2" }, 3_000);
  assert.deepEqual(list, [
    { url: "http://a.test/mcp", era: "modern", name: "A2", at: 3_000, headerNames: [] },
    { url: "http://b.test/mcp", era: "legacy", at: 2_000, headerNames: ["Authorization"] },
  ]);
  assert.deepEqual(loadRecent(s), list);
  assert.ok(!s.getItem(RECENT_KEY)!.includes("secret-xyz"));
});

test("the list is bounded: the oldest goes first", () => {
  const s = new MemoryStorage();
  for (let i = 0; i < MAX_RECENT_SERVERS + 3; i++) rememberServer(s, { url: `http://s${i}.test/mcp`, era: "auto" }, i);
  const list = loadRecent(s);
  assert.equal(list.length, MAX_RECENT_SERVERS);
  assert.equal(list[0]!.url, `http://s${MAX_RECENT_SERVERS + 2}.test/mcp`);
  assert.ok(!list.some((e) => e.url === "http://s2.test/mcp"));
});

test("forget one, then clear all", () => {
  const s = new MemoryStorage();
  rememberServer(s, { url: "http://a.test/mcp", era: "auto" }, 1);
  rememberServer(s, { url: "http://b.test/mcp", era: "auto" }, 2);
  assert.deepEqual(
    forgetServer(s, "http://b.test/mcp").list.map((e) => e.url),
    ["http://a.test/mcp"],
  );
  assert.deepEqual(clearRecent(s).list, []);
  assert.deepEqual(loadRecent(s), []);
});

test("storage failures are reported, not thrown", () => {
  const full = {
    getItem: () => null,
    setItem: () => {
      throw Object.assign(new Error("quota"), { name: "QuotaExceededError" });
    },
  };
  const r = rememberServer(full, { url: "http://a.test/mcp", era: "auto" }, 1);
  assert.equal(r.error, "Recent servers could not be saved in this browser (QuotaExceededError).");
  assert.equal(r.list.length, 1, "the page still shows what was used");
  assert.match(clearRecent(undefined).error ?? "", /could not be saved/);
});

test("malformed storage is skipped entry by entry, and sorted by last use", () => {
  const s = new MemoryStorage();
  s.setItem(RECENT_KEY, "nope");
  assert.deepEqual(loadRecent(s), []);
  s.setItem(
    RECENT_KEY,
    JSON.stringify([
      { url: "http://old.test", era: "weird", at: 1, headerNames: ["X-Key", 5] },
      { url: "", at: 2 },
      { url: "http://new.test", era: "legacy-sse", at: 9, name: "" },
      "junk",
    ]),
  );
  assert.deepEqual(loadRecent(s), [
    { url: "http://new.test", era: "legacy-sse", at: 9, headerNames: [] },
    { url: "http://old.test", era: "auto", at: 1, headerNames: ["X-Key"] },
  ]);
});

test("last-used labels", () => {
  const now = 10 * 86_400_000;
  assert.equal(lastUsedLabel(now - 5_000, now), "just now");
  assert.equal(lastUsedLabel(now - 5 * 60_000, now), "5 min ago");
  assert.equal(lastUsedLabel(now - 3 * 3_600_000, now), "3 h ago");
  assert.equal(lastUsedLabel(now - 86_400_000, now), "yesterday");
  assert.equal(lastUsedLabel(now - 4 * 86_400_000, now), "4 days ago");
});
