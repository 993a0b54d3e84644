import { test } from "node:test";
import assert from "node:assert/strict";
import { checkToolOrder } from "./list-order.ts";

test("the same tools in another order on a later fetch are reported; a changed list is not", () => {
  assert.equal(checkToolOrder("s1", ["a", "b", "c"]), undefined, "first fetch: nothing to compare");
  assert.equal(checkToolOrder("s1", ["a", "b", "c"]), undefined);
  assert.match(checkToolOrder("s1", ["c", "a", "b"]) ?? "", /different order/);
  assert.equal(checkToolOrder("s1", ["c", "a", "b", "d"]), undefined, "a new tool is a change, not a reshuffle");
  assert.equal(checkToolOrder("s2", ["b", "a"]), undefined, "servers are kept apart");
});
