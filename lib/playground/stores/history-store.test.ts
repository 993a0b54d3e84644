import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createMemoryHistoryStore,
  MAX_HISTORY_ENTRIES,
  MAX_STORED_RESPONSE_CHARS,
  parseHistoryQuery,
  searchHistory,
  storableEntry,
  type HistoryEntry,
} from "./history-store.ts";

function entry(i: number, extra: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: `e${i}`,
    at: 1_700_000_000_000 + i * 1000,
    server: "builtin:demo",
    era: "modern",
    method: "tools/call",
    tool: "search_issues",
    request: JSON.stringify({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "search_issues", arguments: { query: `q${i}` } },
    }),
    response: { jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: `answer ${i}` }] } },
    rounds: 1,
    outcome: "result",
    durationMs: 12,
    ...extra,
  };
}

test("the memory store keeps entries newest first, replaces by id, and is bounded", async () => {
  const store = createMemoryHistoryStore(3);
  for (let i = 1; i <= 5; i++) await store.add(entry(i));
  assert.deepEqual(
    (await store.list()).map((e) => e.id),
    ["e5", "e4", "e3"],
  );
  await store.add(entry(4, { outcome: "tool error" }));
  assert.equal((await store.get("e4"))?.outcome, "tool error");
  assert.equal((await store.list()).length, 3);
  await store.remove("e5");
  assert.deepEqual(
    (await store.list()).map((e) => e.id),
    ["e4", "e3"],
  );
  await store.clear();
  assert.deepEqual(await store.list(), []);
  assert.equal(MAX_HISTORY_ENTRIES, 500);
});

test("a response too large to keep is replaced by a note; the request stays", async () => {
  const big = entry(1, { response: { text: "x".repeat(MAX_STORED_RESPONSE_CHARS + 1) } });
  const stored = storableEntry(big);
  assert.equal(stored.responseTruncated, true);
  assert.match(JSON.stringify(stored.response), /too large to keep/);
  assert.equal(stored.request, big.request);
  const small = entry(2);
  assert.equal(storableEntry(small), small);
});

test("search by tool, method, server and free words (all must match, any case)", () => {
  const entries = [
    entry(1),
    entry(2, {
      tool: "purge_closed_issues",
      outcome: "input_required",
      response: { result: { content: [{ type: "text", text: "Deleted 3 closed issues." }] } },
    }),
    { ...entry(3, { method: "tools/list" }), tool: undefined },
    entry(4, { server: "https://mcp.example.com/mcp", era: "legacy" }),
  ];
  assert.deepEqual(
    searchHistory(entries, "").map((e) => e.id),
    ["e1", "e2", "e3", "e4"],
  );
  assert.deepEqual(
    searchHistory(entries, "tool:purge").map((e) => e.id),
    ["e2"],
  );
  assert.deepEqual(
    searchHistory(entries, "method:tools/list").map((e) => e.id),
    ["e3"],
  );
  assert.deepEqual(
    searchHistory(entries, "server:example.com").map((e) => e.id),
    ["e4"],
  );
  assert.deepEqual(
    searchHistory(entries, "DELETED closed").map((e) => e.id),
    ["e2"],
  );
  assert.deepEqual(
    searchHistory(entries, "tool:search answer q1").map((e) => e.id),
    ["e1"],
  );
  assert.deepEqual(searchHistory(entries, "nothing-like-this"), []);
  assert.deepEqual(parseHistoryQuery(" Tool:X  login  method:tools/call "), { tool: "x", method: "tools/call", words: ["login"] });
});
