import { test } from "node:test";
import assert from "node:assert/strict";
import { previewJson } from "./preview.ts";

test("previewJson writes short values as JSON, unchanged", () => {
  assert.equal(previewJson("a", 10), '"a"');
  assert.equal(previewJson({ a: [1, null] }, 20), '{"a":[1,null]}');
  // Exactly `max` characters is not cut.
  assert.equal(previewJson("abcd", 6), '"abcd"');
});

test("previewJson cuts long values to `max` characters, ending in an ellipsis", () => {
  const out = previewJson("x".repeat(100), 10);
  assert.equal(out, `"${"x".repeat(8)}…`);
  assert.equal(out.length, 10);
});

test("previewJson falls back to String() for what JSON cannot write, and never throws", () => {
  assert.equal(previewJson(undefined, 20), "undefined");
  assert.equal(previewJson(10n, 20), "10");
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.equal(previewJson(cyclic, 20), "[object Object]");
});
