import { test } from "node:test";
import assert from "node:assert/strict";
import { filterCommands } from "./command-filter.ts";

const C = [
  { label: "Send the request", group: "Action" },
  { label: "Call reindex — Rebuild search index", group: "Template · tools/call" },
  { label: "List tools (tools/list)", group: "Template" },
];

test("every word must match label or group, any case, order kept", () => {
  assert.deepEqual(
    filterCommands(C, "").map((c) => c.label),
    C.map((c) => c.label),
  );
  assert.deepEqual(
    filterCommands(C, "call REINDEX").map((c) => c.label),
    ["Call reindex — Rebuild search index"],
  );
  assert.deepEqual(filterCommands(C, "template").length, 2);
  assert.deepEqual(
    filterCommands(C, "list tools").map((c) => c.label),
    ["List tools (tools/list)"],
  );
  assert.deepEqual(filterCommands(C, "nope"), []);
});
