import { test } from "node:test";
import assert from "node:assert/strict";
import {
  filterTools,
  matchesQuery,
  matchesWords,
  parseToolQuery,
  searchWithQuery,
  SEARCH_DESCRIPTION_CHARS,
  toolSearchEntry,
} from "./tool-filter.ts";

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

test("the search reads only the start of a long description (the same text the browser filters on)", () => {
  const long = { name: "long", description: `${"x".repeat(SEARCH_DESCRIPTION_CHARS)} needle`, inputSchema: {} };
  assert.equal(filterTools([long], { q: "needle" }).length, 0);
  assert.equal(filterTools([long], { q: "xxx long" }).length, 1);
  assert.equal(toolSearchEntry(long).text.length < SEARCH_DESCRIPTION_CHARS + 10, true);
});

test("an entry carries the behaviours, and matchesQuery agrees with filterTools", () => {
  assert.deepEqual(toolSearchEntry(tools[1]).behaviours, ["destructive", "open-world"]);
  for (const query of [{ q: "issue" }, { behaviour: "idempotent" as const }, { q: "close", behaviour: "read-only" as const }]) {
    assert.deepEqual(
      tools.filter((t) => matchesQuery(toolSearchEntry(t), query)).map((t) => t.name),
      filterTools(tools, query).map((t) => t.name),
    );
  }
  assert.equal(matchesWords("search issues", "ISSUES  search"), true);
  assert.equal(matchesWords("search issues", "delete"), false);
});

test("searchWithQuery sets and drops q and behaviour, keeping the other parameters", () => {
  assert.equal(searchWithQuery("?server=builtin%3Ademo", { q: "a b" }), "?server=builtin%3Ademo&q=a+b");
  assert.equal(searchWithQuery("?server=x&q=old&behaviour=read-only", { behaviour: "destructive" }), "?server=x&behaviour=destructive");
  assert.equal(searchWithQuery("?q=old", {}), "");
});
