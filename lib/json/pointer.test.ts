import { test } from "node:test";
import assert from "node:assert/strict";
import { appendPointer, buildPointer, escapeToken, parsePointer, unescapeToken } from "./pointer.ts";

test("escapeToken escapes ~ before /", () => {
  assert.equal(escapeToken("a/b"), "a~1b");
  assert.equal(escapeToken("m~n"), "m~0n");
  assert.equal(escapeToken("~/"), "~0~1");
  assert.equal(escapeToken(3), "3");
  assert.equal(escapeToken(""), "");
});

test("unescapeToken reads ~1 before ~0 (RFC 6901 §4)", () => {
  assert.equal(unescapeToken("a~1b"), "a/b");
  assert.equal(unescapeToken("m~0n"), "m~n");
  // "~01" is an escaped "~" followed by "1", not an escaped "/".
  assert.equal(unescapeToken("~01"), "~1");
  for (const t of ["", "plain", "a/b", "~", "~1", "~0~1/~"]) assert.equal(unescapeToken(escapeToken(t)), t);
});

test("buildPointer and parsePointer round-trip (RFC 6901 §5 examples)", () => {
  assert.equal(buildPointer([]), "");
  assert.equal(buildPointer(["foo", 0]), "/foo/0");
  assert.equal(buildPointer(["a/b"]), "/a~1b");
  assert.equal(buildPointer(["m~n"]), "/m~0n");
  assert.equal(buildPointer([""]), "/");
  assert.equal(buildPointer(["params", "_meta", "io.modelcontextprotocol/logLevel"]), "/params/_meta/io.modelcontextprotocol~1logLevel");
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/"), [""]);
  assert.deepEqual(parsePointer("/foo/0"), ["foo", "0"]);
  assert.deepEqual(parsePointer("/a~1b/m~0n"), ["a/b", "m~n"]);
  assert.deepEqual(parsePointer("//x"), ["", "x"]);
  assert.equal(parsePointer("foo"), undefined);
  assert.equal(parsePointer("#/foo"), undefined);
  const path = ["a/b", "~", "", "c~1d"];
  assert.deepEqual(parsePointer(buildPointer(path)), path);
});

test("appendPointer escapes the new token", () => {
  assert.equal(appendPointer("", "a"), "/a");
  assert.equal(appendPointer("/a", "b/c"), "/a/b~1c");
  assert.equal(appendPointer("/a", 2), "/a/2");
});
