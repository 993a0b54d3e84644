import { test } from "node:test";
import assert from "node:assert/strict";
import { latestProgress, logLines, progressFraction, truncateText, withPlaygroundMeta } from "./notifications.ts";

const N = [
  { method: "notifications/message", params: { level: "info", logger: "reindex", data: "Reindex started: 2 shards." } },
  { method: "notifications/progress", params: { progressToken: "t", progress: 1, total: 2, message: "Shard 1/2 rebuilt" } },
  { method: "notifications/progress", params: { progressToken: "t", progress: 2, total: 2 } },
  { method: "notifications/message", params: { level: "warning", data: { shard: 2 } } },
  { method: "notifications/tools/list_changed" },
];

test("latest progress and its fraction", () => {
  const p = latestProgress(N)!;
  assert.deepEqual(p, { progress: 2, total: 2 });
  assert.equal(progressFraction(p), 1);
  assert.equal(progressFraction({ progress: 3 }), undefined);
  assert.equal(latestProgress([]), undefined);
});

test("log lines keep order, level and logger; data as text", () => {
  assert.deepEqual(logLines(N), [
    { level: "info", logger: "reindex", text: "Reindex started: 2 shards." },
    { level: "warning", text: '{"shard":2}' },
  ]);
});

test("truncateText cuts past the cap and says how much", () => {
  assert.deepEqual(truncateText("abcdef", 4), { shown: "abcd", cut: 2 });
  assert.deepEqual(truncateText("abc", 4), { shown: "abc", cut: 0 });
});

test("withPlaygroundMeta: a progress token on tools/call; the picked log level (modern, off by default) on any request; never over the user's", () => {
  const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "reindex", arguments: {}, _meta: { keep: 1 } } };
  assert.deepEqual(
    (withPlaygroundMeta(call, "modern").message.params as { _meta: unknown })._meta,
    { keep: 1, progressToken: "toolscope-3" },
    "no log level unless picked",
  );
  const { message, added } = withPlaygroundMeta(call, "modern", "debug");
  assert.deepEqual((message.params as { _meta: unknown })._meta, {
    keep: 1,
    progressToken: "toolscope-3",
    "io.modelcontextprotocol/logLevel": "debug",
  });
  assert.deepEqual(
    added.map((a) => a.name),
    ["/params/_meta/progressToken", "/params/_meta/io.modelcontextprotocol~1logLevel"],
  );
  assert.equal("progressToken" in call.params._meta, false);
  assert.deepEqual(
    withPlaygroundMeta(call, "legacy", "debug").added.map((a) => a.value),
    ["toolscope-3"],
    "legacy servers use logging/setLevel instead",
  );
  const own = { ...call, params: { ...call.params, _meta: { progressToken: 0, "io.modelcontextprotocol/logLevel": "error" } } };
  assert.deepEqual(withPlaygroundMeta(own, "modern", "debug"), { message: own, added: [] });
  const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
  assert.deepEqual(withPlaygroundMeta(list, "modern"), { message: list, added: [] });
  assert.deepEqual(withPlaygroundMeta(list, "modern", "warning").message, {
    ...list,
    params: { _meta: { "io.modelcontextprotocol/logLevel": "warning" } },
  });
  const note = { jsonrpc: "2.0", method: "notifications/cancelled", params: {} };
  assert.deepEqual(withPlaygroundMeta(note, "modern", "debug"), { message: note, added: [] });
  const odd = { jsonrpc: "2.0", id: 1, method: "tools/list", params: [1] };
  assert.deepEqual(withPlaygroundMeta(odd, "modern", "debug"), { message: odd, added: [] }, "malformed params are sent as written");
});
