import { test } from "node:test";
import assert from "node:assert/strict";
import { filterTools, parseToolQuery } from "./tool-filter.ts";

const tools = [
  {
    name: "search_issues",
    title: "Search issues",
    description: "Find issues by text.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
  },
  { name: "delete_issue", description: "Delete one issue for good.", inputSchema: {} },
  {
    name: "close_issue",
    description: "Close an issue.",
    inputSchema: {},
    annotations: { idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
];

test("words match name, title and description, all of them", () => {
  assert.deepEqual(
    filterTools(tools, { q: "issue delete" }).map((t) => t.name),
    ["delete_issue"],
  );
  assert.deepEqual(
    filterTools(tools, { q: "SEARCH" }).map((t) => t.name),
    ["search_issues"],
  );
  assert.equal(filterTools(tools, {}).length, 3);
});

test("behaviour filters use the effective hints, defaults included", () => {
  const by = (b: string) => filterTools(tools, parseToolQuery(undefined, b)).map((t) => t.name);
  assert.deepEqual(by("read-only"), ["search_issues"]);
  assert.deepEqual(by("destructive"), ["delete_issue"]);
  assert.deepEqual(by("idempotent"), ["close_issue"]);
  assert.deepEqual(by("open-world"), ["search_issues", "delete_issue"]);
  assert.equal(parseToolQuery(undefined, "bogus").behaviour, undefined);
});

test("finds the one match among 2,000 tools", () => {
  const many = Array.from({ length: 2000 }, (_, i) => ({ name: `tool_${i}`, description: `Does thing ${i}.`, inputSchema: {} }));
  assert.equal(filterTools(many, { q: "thing 1999" }).length, 1);
});
