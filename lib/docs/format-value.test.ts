import { test } from "node:test";
import assert from "node:assert/strict";
import { shortJson } from "./format-value.ts";

test("shortJson quotes strings, shortens long values and survives cycles", () => {
  assert.equal(shortJson("a"), '"a"');
  assert.equal(shortJson(null), "null");
  assert.equal(shortJson(undefined), "undefined");
  assert.equal(shortJson("x".repeat(100), 10), '"xxxxxxxx…');
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.equal(shortJson(loop), "[object Object]");
});
