import { test } from "node:test";
import assert from "node:assert/strict";
import { linksFrom, liveLinks, playgroundHref, snapshotLinks, staticLinks, staticToolFiles, toolHref } from "./links.ts";

test("live and snapshot links encode names and servers", () => {
  const live = liveLinks("https://x.test/mcp?a=1");
  assert.equal(live.toolPage("jira.get issue"), "/docs/tools/jira.get%20issue?server=https%3A%2F%2Fx.test%2Fmcp%3Fa%3D1");
  assert.equal(live.playground!("t"), "/playground?server=https%3A%2F%2Fx.test%2Fmcp%3Fa%3D1&tool=t");
  const snap = snapshotLinks("abc", "builtin:demo");
  assert.equal(snap.toolPage("a/b"), "/s/abc/tools/a%2Fb");
  assert.deepEqual(snap.search, { action: "/s/abc", hidden: {} });
});

test("link data round-trips: the functions built from it give the same links, and say live or snapshot", () => {
  const live = liveLinks("builtin:demo");
  const again = linksFrom(JSON.parse(JSON.stringify(live.data)));
  assert.equal(again.toolPage("a b"), live.toolPage("a b"));
  assert.equal(again.playground!(), "/playground?server=builtin%3Ademo");
  assert.equal(toolHref(live.data, "x/y"), "/docs/tools/x%2Fy?server=builtin%3Ademo");
  assert.equal(live.data.live, true);
  assert.equal(snapshotLinks("abc", "builtin:demo").data.live, false);
  assert.equal(playgroundHref("https://x.test/mcp", "t 1"), "/playground?server=https%3A%2F%2Fx.test%2Fmcp&tool=t%201");
});

test("a static site: a safe file per tool, never two in one, relative links and no playground", () => {
  const files = staticToolFiles(["search", "a/b", "a b", "Search", "..", "index", "x".repeat(300), "search"]);
  assert.equal(files.search, "tool-search.html");
  assert.equal(files["a/b"], "tool-a_b.html");
  assert.equal(files["a b"], "tool-a_b-2.html", "a cleaned name that is taken gets a number");
  assert.equal(files.Search, "tool-Search-2.html", "names differing by case get files that differ by more than case");
  assert.equal(files[".."], "tool-_.html");
  assert.equal(files.index, "tool-index.html");
  assert.ok(files["x".repeat(300)].length < 100);
  for (const f of Object.values(files)) assert.match(f, /^tool-[A-Za-z0-9_.-]+\.html$/);
  assert.equal(new Set(Object.values(files).map((f) => f.toLowerCase())).size, Object.keys(files).length);
  const links = staticLinks("https://x.test/mcp", files);
  assert.equal(links.toolPage("a/b"), "tool-a_b.html");
  assert.equal(toolHref(links.data, "a b"), "tool-a_b-2.html");
  assert.equal(links.serverPage, "index.html");
  assert.equal(links.playground, null);
});
