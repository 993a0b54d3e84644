import { test } from "node:test";
import assert from "node:assert/strict";
import { liveLinks, snapshotLinks } from "./links.ts";

test("live and snapshot links encode names and servers", () => {
  const live = liveLinks("https://x.test/mcp?a=1");
  assert.equal(live.toolPage("jira.get issue"), "/docs/tools/jira.get%20issue?server=https%3A%2F%2Fx.test%2Fmcp%3Fa%3D1");
  assert.equal(live.playground("t"), "/playground?server=https%3A%2F%2Fx.test%2Fmcp%3Fa%3D1&tool=t");
  const snap = snapshotLinks("abc", "builtin:demo");
  assert.equal(snap.toolPage("a/b"), "/s/abc/tools/a%2Fb");
  assert.deepEqual(snap.search, { action: "/s/abc", hidden: {} });
});
