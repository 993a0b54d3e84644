import { test } from "node:test";
import assert from "node:assert/strict";
import { findUnsafeIntegers, parsedIntegerText, unsafeIntegerMessage } from "./safe-integers.ts";

const pairs = (text: string) => findUnsafeIntegers(text).map((f) => [f.pointer, f.literal]);

test("the limit is exact: ±9007199254740991 is safe, one more is not (either sign)", () => {
  assert.deepEqual(pairs('{"a": 9007199254740991, "b": -9007199254740991}'), []);
  assert.deepEqual(pairs('{"a": 9007199254740992, "b": -9007199254740992}'), [
    ["/a", "9007199254740992"],
    ["/b", "-9007199254740992"],
  ]);
  // Same length, compared digit by digit; longer is always beyond.
  assert.deepEqual(pairs("[1000000000000000, 9999999999999999, 10000000000000000]"), [
    ["/1", "9999999999999999"],
    ["/2", "10000000000000000"],
  ]);
});

test("a tool argument JSON.parse would round is found at its pointer, with its offset in the text", () => {
  const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get","arguments":{"id":9007199254740993}}}';
  assert.equal(JSON.parse(text).params.arguments.id, 9007199254740992); // what this module exists for
  const [f, ...rest] = findUnsafeIntegers(text);
  assert.deepEqual(rest, []);
  assert.equal(f.pointer, "/params/arguments/id");
  assert.equal(f.literal, "9007199254740993");
  assert.equal(text.slice(f.offset, f.offset + f.literal.length), "9007199254740993");
});

test("fractions and exponents are numbers, not integers: 1e20, 1e30, 1.5 and 12345678901234567890.0 are not reported", () => {
  assert.deepEqual(pairs('{"a": 1e20, "b": 1e30, "c": 1.5, "d": 12345678901234567890.0, "e": -2E+40, "f": 123456789012345678901e0}'), []);
  assert.deepEqual(pairs('{"a": 1e20, "b": 123456789012345678901}'), [["/b", "123456789012345678901"]]);
});

test("strings are skipped, escapes included: digits, quotes and brackets inside a string are text", () => {
  assert.deepEqual(pairs('{"a": "9007199254740993", "b": "say \\"99999999999999999\\" {[", "c": "\\\\", "d": 99999999999999999}'), [
    ["/d", "99999999999999999"],
  ]);
  // A key that looks like a number, and a \u escape ending in a quote-like sequence.
  assert.deepEqual(pairs('{"12345678901234567890": 1, "x\\u0022y": 18446744073709551615}'), [['/x"y', "18446744073709551615"]]);
});

test("pointers follow RFC 6901: ~ as ~0 and / as ~1, array indexes counted, nesting and empty keys", () => {
  assert.deepEqual(pairs('{"a/b": {"m~n": [0, "s", {"": 9007199254740993}, 18014398509481984]}}'), [
    ["/a~1b/m~0n/2/", "9007199254740993"],
    ["/a~1b/m~0n/3", "18014398509481984"],
  ]);
  // Keys of later members do not leak into earlier ones' pointers (and arrays of arrays count properly).
  assert.deepEqual(pairs('{"x": [[1, 2], [3, 90071992547409930]], "y": 90071992547409931}'), [
    ["/x/1/1", "90071992547409930"],
    ["/y", "90071992547409931"],
  ]);
  assert.deepEqual(pairs("9007199254740993"), [["", "9007199254740993"]]);
});

test("true, false, null and whitespace do not disturb the walk", () => {
  assert.deepEqual(pairs("[true, false, null,\n\t 9007199254740993 ]"), [["/3", "9007199254740993"]]);
});

test("invalid JSON never throws: what came before the error is reported", () => {
  assert.deepEqual(pairs('{"a": 9007199254740993, "b": "unterminated'), [["/a", "9007199254740993"]]);
  assert.deepEqual(pairs("[-"), []);
  assert.deepEqual(pairs(""), []);
});

test("parsedIntegerText writes out the double JSON.parse would give, digit for digit", () => {
  assert.equal(parsedIntegerText("9007199254740993"), "9007199254740992");
  assert.equal(parsedIntegerText("-9007199254740995"), "-9007199254740996");
  assert.equal(parsedIntegerText("123456789012345678901234"), "123456789012345685803008");
});

test("the message names pointer, literal, the rounded value and what to do, in one sentence", () => {
  const one = unsafeIntegerMessage(findUnsafeIntegers('{"params":{"arguments":{"id":9007199254740993}}}'));
  assert.equal(
    one,
    '9007199254740993 at /params/arguments/id is beyond ±9007199254740991 (2^53 − 1), the largest integer a JSON number holds exactly, so JSON.parse would silently turn it into 9007199254740992: send it as a string ("9007199254740993") or use a number within ±9007199254740991.',
  );
  const many = unsafeIntegerMessage(findUnsafeIntegers("[9007199254740993, 9007199254740995, 9007199254740997, 9007199254740999, 1]"));
  assert.match(many, /^4 integers are beyond ±9007199254740991/);
  assert.match(
    many,
    /9007199254740993 at \/0 into 9007199254740992; 9007199254740995 at \/1 into 9007199254740996; 9007199254740997 at \/2 into 9007199254740996; and 1 more/,
  );
  assert.match(many, /send each as a string or use numbers within ±9007199254740991\.$/);
  assert.equal(unsafeIntegerMessage(findUnsafeIntegers("12")), "");
  assert.match(unsafeIntegerMessage([{ pointer: "", literal: "9007199254740993" }]), /^9007199254740993 at the top level is beyond/);
});
