import { test } from "node:test";
import assert from "node:assert/strict";
import { canonicalJson } from "./canonical.ts";

test("keys are sorted at every level; arrays keep their order", () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 0 } }), '{"a":{"c":0,"d":[3,{"y":2,"z":1}]},"b":1}');
  assert.equal(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }), canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
  assert.equal(canonicalJson([2, 1]), "[2,1]");
});

test('undefined: dropped as a member, null in an array, "null" at the top level', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } }), '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
  assert.equal(canonicalJson({ a: undefined }), canonicalJson({}));
  assert.equal(canonicalJson([undefined, 1]), "[null,1]");
  assert.equal(canonicalJson(undefined), "null");
  assert.equal(canonicalJson({ f: () => 1 }), "{}");
});

test("scalars, toJSON and non-finite numbers follow JSON.stringify", () => {
  assert.equal(canonicalJson('a"b'), '"a\\"b"');
  assert.equal(canonicalJson(null), "null");
  assert.equal(canonicalJson(Number.NaN), "null");
  assert.equal(canonicalJson(new Date(0)), '"1970-01-01T00:00:00.000Z"');
  assert.throws(() => canonicalJson(1n));
});

test("integer-like keys keep JavaScript's layout (snapshot ids depend on it)", () => {
  assert.equal(canonicalJson({ b: 1, "10": 2, "9": 3, a: 4 }), '{"9":3,"10":2,"a":4,"b":1}');
});

test("a __proto__ member is kept as an ordinary key", () => {
  const v = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
  assert.equal(canonicalJson(v), '{"__proto__":{"x":1},"a":2}');
});

test("space pretty-prints with sorted keys", () => {
  assert.equal(canonicalJson({ b: 1, a: 2 }, 2), '{\n  "a": 2,\n  "b": 1\n}');
});
