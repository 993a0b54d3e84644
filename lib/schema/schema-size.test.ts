import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonStringBytes, measureJson, schemaLimitProblem } from "./schema-size.ts";

const utf8 = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

test("bytes equal the UTF-8 length of JSON.stringify for every kind of value", () => {
  const values: unknown[] = [
    null,
    true,
    false,
    0,
    -1.5e-7,
    123456789,
    "",
    "plain",
    'quote " and \\ backslash',
    "tab\tnew\nline\r\b\f",
    "\u0001\u001f control",
    "é ü — € 日本",
    "emoji 😀 pair",
    "lone \ud800 surrogate",
    "lone \udc00 low",
    [],
    {},
    [1, "two", null, [[]]],
    { a: 1, "b c": [true, { d: "é" }], "": {} },
    { type: "object", properties: { q: { type: "string", description: "Search ✓", enum: ["a", "b"] } }, required: ["q"] },
  ];
  for (const v of values) assert.equal(measureJson(v).bytes, utf8(v), JSON.stringify(v));
});

test("undefined and non-finite values count as JSON writes them", () => {
  assert.equal(measureJson({ a: undefined, b: 1 }).bytes, utf8({ b: 1 }));
  assert.equal(measureJson([undefined, Number.NaN, Infinity]).bytes, utf8([null, null, null]));
});

test("depth counts nested objects and arrays, not scalars", () => {
  assert.equal(measureJson("x").depth, 0);
  assert.equal(measureJson({}).depth, 1);
  assert.equal(measureJson({ a: [] }).depth, 2);
  assert.equal(measureJson({ a: [1, { b: { c: 2 } }], d: {} }).depth, 4);
});

test("a 100,000-level schema is measured without overflowing the stack", () => {
  const levels = 100_000;
  const text = `${'{"items":'.repeat(levels)}{}${"}".repeat(levels)}`;
  const deep: unknown = JSON.parse(text);
  const started = performance.now();
  const size = measureJson(deep);
  assert.equal(size.depth, levels + 1);
  assert.equal(size.bytes, new TextEncoder().encode(text).length);
  assert.ok(performance.now() - started < 5_000, "linear: well under a second on an idle machine");
});

test("jsonStringBytes counts the quotes and escapes", () => {
  assert.equal(jsonStringBytes(""), 2);
  assert.equal(jsonStringBytes('"'), 4);
  assert.equal(jsonStringBytes("\u0000"), 8);
});

test("schemaLimitProblem names the schema, the measure, the limit and its setting", () => {
  const limits = { maxBytes: 100, maxDepth: 3 };
  assert.equal(schemaLimitProblem("inputSchema", { type: "object" }, limits), undefined);
  assert.equal(
    schemaLimitProblem("outputSchema", { type: "object", properties: { a: { type: "object", properties: {} } } }, limits),
    "outputSchema is nested 4 levels deep (the limit is 3, TOOLSCOPE_MAX_SCHEMA_DEPTH)",
  );
  const big = { description: "x".repeat(2_000) };
  assert.equal(
    schemaLimitProblem("inputSchema", big, limits),
    "inputSchema is 2,018 bytes of JSON (the limit is 100, TOOLSCOPE_MAX_SCHEMA_BYTES)",
  );
  // Exactly at a limit is within it.
  assert.equal(schemaLimitProblem("inputSchema", { d: "x".repeat(100 - 8) }, { maxBytes: 100, maxDepth: 1 }), undefined);
});
