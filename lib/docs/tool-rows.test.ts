import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { BEHAVIOURS, matchesQuery, toolSearchEntry, type ToolQuery } from "./tool-filter.ts";
import {
  itemBehaviour,
  itemDisplay,
  itemIdempotent,
  itemSearchEntry,
  itemSummary,
  SUMMARY_MAX_CHARS,
  toolIndexItem,
  toolListItem,
} from "./tool-rows.ts";

const tools: Tool[] = [
  {
    name: "search_issues",
    title: "Search issues",
    description: "Find issues by text.\nMore.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  { name: "delete_issue", description: "# Delete\n\nDelete one issue for good.", inputSchema: {} },
  {
    name: "close_issue",
    description: "Close an issue.",
    inputSchema: {},
    annotations: { title: "Close (annotations)", idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  { name: "both_titles", title: "Shown title", inputSchema: {}, annotations: { title: "Hidden annotation title" } },
  { name: "blank", title: "  ", inputSchema: {}, annotations: { readOnlyHint: false, destructiveHint: true } },
];

test("an item carries the display name only when it differs, and the behaviour the row shows", () => {
  const [search, del, close, both, blank] = tools.map(toolListItem);
  assert.equal(search.display, "Search issues");
  assert.equal(itemDisplay(del), "delete_issue");
  assert.equal("display" in del, false);
  assert.equal(itemDisplay(close), "Close (annotations)");
  assert.equal(both.otherTitle, "Hidden annotation title");
  assert.equal(itemDisplay(blank), "blank");
  assert.deepEqual(itemBehaviour(search), { kind: "read-only", stated: true });
  assert.deepEqual(itemBehaviour(del), { kind: "destructive", stated: false });
  assert.deepEqual(itemBehaviour(close), { kind: "modifies", stated: true });
  assert.deepEqual(itemBehaviour(blank), { kind: "destructive", stated: true });
  assert.equal(itemIdempotent(close), true);
  assert.equal(itemIdempotent(search), false);
  // The sidebar's items carry no description; the index's do.
  assert.equal("description" in search, false);
  assert.equal(itemSummary(toolIndexItem(tools[1])), "Delete");
});

test("the summary is the first line, cut", () => {
  const long = toolIndexItem({ name: "long", description: "x".repeat(5_000), inputSchema: {} });
  assert.equal(itemSummary(long).length, SUMMARY_MAX_CHARS);
  assert.equal(itemSummary(toolListItem(tools[0])), "");
});

test("an item's search entry finds what the tool's finds", () => {
  const queries: ToolQuery[] = [
    { q: "issue" },
    { q: "hidden annotation" },
    { q: "shown" },
    { q: "CLOSE annotations" },
    { q: "for good" },
    ...BEHAVIOURS.map((behaviour) => ({ behaviour })),
  ];
  for (const tool of tools) {
    const item = toolIndexItem(tool);
    assert.deepEqual(itemSearchEntry(item).behaviours, toolSearchEntry(tool).behaviours, tool.name);
    for (const query of queries)
      assert.equal(
        matchesQuery(itemSearchEntry(item), query),
        matchesQuery(toolSearchEntry(tool), query),
        `${tool.name} ${JSON.stringify(query)}`,
      );
  }
});
