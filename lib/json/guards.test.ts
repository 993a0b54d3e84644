import { test } from "node:test";
import assert from "node:assert/strict";
import { isObject } from "./guards.ts";

test("isObject accepts plain objects only", () => {
  assert.equal(isObject({}), true);
  assert.equal(isObject({ a: 1 }), true);
  assert.equal(isObject(Object.create(null)), true);
  assert.equal(isObject(JSON.parse('{"x":[1]}')), true);
  for (const v of [null, undefined, [], [1], "a", 1, true, 0n]) assert.equal(isObject(v), false, String(v));
});
