import { test } from "node:test";
import assert from "node:assert/strict";
import { latestProgress, logLines, progressFraction, truncateText } from "./notifications.ts";

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
