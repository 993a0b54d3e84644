import { test } from "node:test";
import assert from "node:assert/strict";
import {
  addToFeed,
  changedList,
  clearFeed,
  EMPTY_FEED,
  feedKind,
  feedSummary,
  feedTime,
  filterFeed,
  isToolsListChanged,
  markSeen,
} from "./notification-feed.ts";

const log = (data: unknown, level = "info") => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { level, logger: "reindex", data },
});
const toolsChanged = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

test("kinds: list changes, logs, resources, progress, other", () => {
  assert.equal(feedKind("notifications/tools/list_changed"), "list-changes");
  assert.equal(feedKind("notifications/prompts/list_changed"), "list-changes");
  assert.equal(feedKind("notifications/resources/list_changed"), "list-changes");
  assert.equal(feedKind("notifications/message"), "logs");
  assert.equal(feedKind("notifications/resources/updated"), "resources");
  assert.equal(feedKind("notifications/progress"), "progress");
  assert.equal(feedKind("notifications/cancelled"), "other");
  assert.equal(isToolsListChanged(toolsChanged), true);
  assert.equal(isToolsListChanged({ method: "notifications/prompts/list_changed" }), false);
  assert.equal(changedList({ method: "notifications/prompts/list_changed" }), "prompts");
  assert.equal(changedList({ method: "notifications/message" }), undefined);
});

test("summaries say what the notification says in one line", () => {
  assert.equal(feedSummary(log("Reindex started")), "[info reindex] Reindex started");
  assert.equal(feedSummary(log({ shard: 2 }, "warning")), '[warning reindex] {"shard":2}');
  assert.equal(feedSummary(toolsChanged), "The server's tool list changed.");
  assert.equal(feedSummary({ method: "notifications/resources/updated", params: { uri: "demo://a" } }), "Resource updated: demo://a");
  assert.equal(
    feedSummary({ method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 3, message: "step" } }),
    'Progress 1/3 — step (token "t")',
  );
  assert.equal(feedSummary({ method: "x/y" }), "(no params)");
});

test("newest first; unseen counts what arrived while the pane was closed; seen resets it", () => {
  let s = addToFeed(EMPTY_FEED, [log("one"), log("two")], "call", 1000);
  s = addToFeed(s, [toolsChanged], "listen", 2000);
  assert.deepEqual(
    s.entries.map((e) => [e.summary, e.source, e.at]),
    [
      ["The server's tool list changed.", "listen", 2000],
      ["[info reindex] two", "call", 1000],
      ["[info reindex] one", "call", 1000],
    ],
  );
  assert.equal(new Set(s.entries.map((e) => e.id)).size, 3, "ids are unique");
  assert.equal(s.unseen, 3);
  s = markSeen(s);
  assert.equal(s.unseen, 0);
  s = addToFeed(s, [log("three")], "session", 3000, { seen: true });
  assert.equal(s.unseen, 0, "arrived while open");
  assert.equal(addToFeed(s, [], "call", 4000), s, "nothing added, same state");
});

test("bounded: the oldest are dropped and counted", () => {
  let s = addToFeed(EMPTY_FEED, [log("a"), log("b"), log("c")], "call", 1, { limit: 2 });
  assert.deepEqual(
    s.entries.map((e) => e.summary),
    ["[info reindex] c", "[info reindex] b"],
  );
  assert.equal(s.dropped, 1);
  assert.equal(s.unseen, 2, "never more unseen than kept");
  s = addToFeed(s, [log("d")], "call", 2, { limit: 2 });
  assert.equal(s.dropped, 2);
  const cleared = clearFeed(s);
  assert.deepEqual(cleared.entries, []);
  assert.equal(cleared.dropped, 0);
  assert.ok(cleared.nextId > s.entries[0].id, "ids keep growing after Clear (React keys)");
});

test("filter by kind and by words over method, summary and JSON", () => {
  const s = addToFeed(
    EMPTY_FEED,
    [log("Reindex started"), toolsChanged, { method: "notifications/progress", params: { progressToken: "tok-9", progress: 1 } }],
    "call",
    1,
  );
  assert.deepEqual(
    filterFeed(s.entries, { kinds: ["logs"], text: "" }).map((e) => e.method),
    ["notifications/message"],
  );
  assert.deepEqual(
    filterFeed(s.entries, { kinds: ["logs", "list-changes"], text: "" }).map((e) => e.method),
    ["notifications/tools/list_changed", "notifications/message"],
  );
  assert.deepEqual(
    filterFeed(s.entries, { kinds: [], text: "TOK-9" }).map((e) => e.method),
    ["notifications/progress"],
  );
  assert.deepEqual(filterFeed(s.entries, { kinds: ["logs"], text: "list_changed" }), []);
  assert.equal(filterFeed(s.entries, { kinds: [], text: "" }).length, 3);
});

test("times are local with milliseconds", () => {
  const at = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
  assert.equal(feedTime(at), "03:04:05.006");
});
