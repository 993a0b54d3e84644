import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHeaderLines } from "./header-lines.ts";

test("parses name: value lines and reports the bad ones by line", () => {
  const r = parseHeaderLines("Authorization: Bearer a:b\n\nbad line\nX Y: 1");
  assert.deepEqual(r.headers, { Authorization: "Bearer a:b" });
  assert.equal(r.errors.length, 2);
  assert.match(r.errors[0], /^Line 3/);
  assert.match(r.errors[1], /^Line 4: "X Y"/);
});
