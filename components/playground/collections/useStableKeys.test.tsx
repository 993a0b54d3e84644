import { test } from "node:test";
import assert from "node:assert/strict";
import { reconcileKeys } from "./useStableKeys";

const a = { n: "a" };
const b = { n: "b" };
const c = { n: "c" };
const prev = { items: [a, b, c], keys: ["ka", "kb", "kc"] };

test("a removed row takes its key with it: the rows after keep theirs (never the removed one's)", () => {
  assert.deepEqual(reconcileKeys(prev, [a, c]), ["ka", "kc"]);
});

test("an edit (a new object in place of one that is gone) keeps the key; a move keeps each key", () => {
  const b2 = { n: "b, edited" };
  assert.deepEqual(reconcileKeys(prev, [a, b2, c]), ["ka", "kb", "kc"]);
  assert.deepEqual(reconcileKeys(prev, [b, a, c]), ["kb", "ka", "kc"]);
});

test("an added row gets a new key, unlike any other; the same object twice gets two keys", () => {
  const keys = reconcileKeys(prev, [a, b, c, { n: "d" }]);
  assert.deepEqual(keys.slice(0, 3), ["ka", "kb", "kc"]);
  assert.ok(!["ka", "kb", "kc"].includes(keys[3]));
  const twice = reconcileKeys(prev, [a, a]);
  assert.equal(twice[0], "ka");
  assert.notEqual(twice[1], "ka");
});
