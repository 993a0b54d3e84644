import { test } from "node:test";
import assert from "node:assert/strict";
import { parsePointer, pointerRange } from "./pointer-range.ts";

const slice = (text: string, r: { offset: number; length: number } | undefined) =>
  r ? text.slice(r.offset, r.offset + r.length) : undefined;

test("pointer tokens are unescaped ~1 → / then ~0 → ~", () => {
  assert.deepEqual(parsePointer("/a~1b/c~0d/~01"), ["a/b", "c~d", "~1"]);
  assert.deepEqual(parsePointer(""), []);
});

test("value ranges, including keys with / and ~", () => {
  const text = '{"params": {"_meta": {"io.modelcontextprotocol/logLevel": "loud", "a~b": [1, 22]}}}';
  assert.equal(slice(text, pointerRange(text, "/params/_meta/io.modelcontextprotocol~1logLevel")), '"loud"');
  assert.equal(slice(text, pointerRange(text, "/params/_meta/a~0b/1")), "22");
  assert.equal(slice(text, pointerRange(text, "/params/_meta/a~0b")), "[1, 22]");
});

test("key mode points at the property key", () => {
  const text = '{"arguments": {"colour": "red"}}';
  assert.equal(slice(text, pointerRange(text, "/arguments/colour", "key")), '"colour"');
});

test("container mode: the key of the object, or the root brace", () => {
  const text = '{\n  "arguments": {}\n}';
  assert.equal(slice(text, pointerRange(text, "/arguments", "container")), '"arguments"');
  assert.equal(slice(text, pointerRange(text, "", "container")), "{");
});

test("a missing path falls back to the nearest existing ancestor (as a container)", () => {
  const text = '{"params": {"name": "x"}}';
  assert.equal(slice(text, pointerRange(text, "/params/arguments/status")), '"params"');
  assert.equal(slice(text, pointerRange(text, "/nope")), "{");
});

test("array indices must be canonical numbers", () => {
  const text = "[10, 20]";
  assert.equal(slice(text, pointerRange(text, "/1")), "20");
  assert.equal(slice(text, pointerRange(text, "/01")), "[");
});

test("duplicate keys: the last one wins, like JSON.parse", () => {
  const text = '{"a": 1, "a": 2}';
  assert.equal(slice(text, pointerRange(text, "/a")), "2");
});

test("no JSON value → undefined", () => {
  assert.equal(pointerRange("", "/a"), undefined);
});
