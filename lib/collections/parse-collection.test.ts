import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { formatProblem, parseCollection } from "./parse-collection.ts";
import { writeCollection } from "./write-collection.ts";
import { COLLECTION_SCHEMA } from "./collection-schema.ts";
import { exampleCollection } from "./testing/example-collection.ts";
import { canonicalJson } from "../json/canonical.ts";

const problems = (text: string) => {
  const parsed = parseCollection(text);
  assert.equal(parsed.ok, false, "expected problems");
  return (parsed as Extract<ReturnType<typeof parseCollection>, { ok: false }>).problems;
};

test("a syntax error is placed at its line and column", () => {
  const text = '{\n  "format": "toolscope.collection/1",\n  "name": "x"\n  "calls": []\n}';
  const [p] = problems(text);
  assert.deepEqual([p.line, p.column], [4, 3]);
  assert.match(p.message, /not JSON: a comma is expected/);
  assert.equal(formatProblem("c.json", p), "c.json:4:3: not JSON: a comma is expected");
  assert.match(problems('{"format": 1, // no\n}')[0].message, /comments are not allowed/i);
});

test("schema problems are placed through their pointer: a wrong type, an unknown member, a missing one", () => {
  const text = [
    "{",
    '  "format": "toolscope.collection/1",',
    '  "name": "x",',
    '  "calls": [',
    "    {",
    '      "name": "one",',
    '      "request": { "method": "tools/call" },',
    '      "expect": [{ "kind": "equals", "pointer": "/result/x", "valu": 1 }],',
    '      "timeoutMs": "soon"',
    "    },",
    '    { "name": "two", "expect": [] }',
    "  ]",
    "}",
  ].join("\n");
  const found = problems(text).map((p) => `${p.line}:${p.column} ${p.message}`);
  assert.ok(
    found.some((f) => /^8:18 \/calls\/0\/expect\/0: missing required property "value"/.test(f)),
    found.join("\n"),
  );
  assert.ok(
    found.some((f) => /^8:62 \/calls\/0\/expect\/0\/valu: unexpected property "valu"/.test(f)),
    found.join("\n"),
  );
  assert.ok(
    found.some((f) => /^9:20 \/calls\/0\/timeoutMs: timeoutMs must be integer/.test(f)),
    found.join("\n"),
  );
  assert.ok(
    found.some((f) => /^11:5 \/calls\/1: missing required property "request"/.test(f)),
    found.join("\n"),
  );
});

test("an unknown expectation kind names the kinds; an unknown format is refused before the schema", () => {
  const base = (expect: string) =>
    `{"format":"toolscope.collection/1","name":"x","calls":[{"name":"a","request":{"method":"ping"},"expect":[${expect}]}]}`;
  assert.match(problems(base('{"kind":"equal"}'))[0].message, /kind must be one of no-error, error, is-error/);
  const [p] = problems('{"format":"toolscope.collection/9","name":"x","calls":[]}');
  assert.match(p.message, /format "toolscope.collection\/9" is not one this version reads/);
  assert.equal(p.column, 11);
});

test("what the schema cannot say: duplicate names, bad patterns, bad schemas; unset variables are warnings", () => {
  const c = exampleCollection();
  c.calls[1].name = c.calls[0].name;
  c.calls[3].expect.push({ kind: "matches", pointer: "/x", pattern: "(" }, { kind: "schema", schema: { type: "nope" } });
  const text = writeCollection(c);
  const found = problems(text).map((p) => p.message);
  assert.ok(found.some((m) => /a second call named "create an issue"/.test(m)));
  assert.ok(found.some((m) => /not a valid regular expression/.test(m)));
  assert.ok(found.some((m) => /schema cannot be compiled/.test(m)));

  const unset = exampleCollection();
  unset.calls = unset.calls.slice(1);
  const parsed = parseCollection(writeCollection(unset));
  assert.ok(parsed.ok);
  assert.match(parsed.warnings[0].message, /\{\{id\}\} is not set by the environment or by the capture of an earlier call/);
});

test("export, import, export: byte-identical, whatever order the keys were written in", () => {
  const first = writeCollection(exampleCollection());
  const parsed = parseCollection(first);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.deepEqual(parsed.warnings, []);
  assert.equal(writeCollection(parsed.collection), first);
  // Keys shuffled by hand (or another tool): the same bytes once written.
  const shuffled = JSON.stringify(JSON.parse(first), (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
  );
  const again = parseCollection(shuffled);
  assert.ok(again.ok);
  assert.equal(writeCollection(again.collection), first);
  assert.match(first, /^\{\n {2}"format": "toolscope.collection\/1",\n {2}"name": "Issue lifecycle",/);
  assert.match(first, /"name": "read it back",\n\s+"request": \{\n\s+"jsonrpc": "2.0",\n\s+"method": "tools\/call"/);
});

test("docs/collection.schema.json is the schema the parser uses, and docs/collections.md's example parses", () => {
  const file = readFileSync(new URL("../../docs/collection.schema.json", import.meta.url), "utf8");
  assert.equal(file, `${canonicalJson(COLLECTION_SCHEMA, 2)}\n`, "run: node --import tsx scripts/write-collection-schema.ts");
  const doc = readFileSync(new URL("../../docs/collections.md", import.meta.url), "utf8");
  const example = /```json\n(\{\n {2}"format"[\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(example, "docs/collections.md has an example collection");
  const parsed = parseCollection(example);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.equal(writeCollection(parsed.collection), example, "the example is written as the writer writes it");
  assert.equal(example, writeCollection(exampleCollection()), "the example is the tests' collection");
});
