import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { expectationWarnings, type ExpectationWarning } from "./expectation-warnings.ts";
import type { CollectionCall, Expectation } from "./format.ts";
import type { Tool } from "../mcp/contract.ts";
import { createDemoServerHandler, type DemoServerHandler } from "../demo/server.ts";
import { demoCall } from "../demo/testing/demo-call.ts";

/** The demo's real tool definitions, as tools/list gives them (search_issues has an outputSchema, get_issue none). */
let demo: DemoServerHandler;
let demoTools: Tool[] = [];

before(async () => {
  demo = createDemoServerHandler({ pageSize: 100 });
  const { response } = await demoCall(demo, "tools/list", {}, "warnings-test");
  demoTools = (response.result as { tools: Tool[] }).tools;
});
after(async () => demo?.close());

const demoTool = (name: string): Tool => {
  const tool = demoTools.find((t) => t.name === name);
  assert.ok(tool, `the demo lists ${name}`);
  return tool;
};

const SC = "/result/structuredContent";

function toolCall(name: string, expect: Expectation[], capture?: Record<string, string>): CollectionCall {
  return { name: "c", request: { method: "tools/call", params: { name, arguments: {} } }, expect, ...(capture ? { capture } : {}) };
}

const present = (pointer: string): Expectation => ({ kind: "present", pointer });

/** The warnings' messages, one per line: a mismatch shows the whole list. */
const messages = (ws: ExpectationWarning[]) => ws.map((w) => w.message);

/** A synthetic tool with this outputSchema. */
const withSchema = (outputSchema: unknown, name = "t"): Tool => ({ name, inputSchema: { type: "object" }, outputSchema }) as Tool;

test("the demo tools are what these tests assume", () => {
  assert.ok(demoTool("search_issues").outputSchema, "search_issues declares an outputSchema");
  assert.equal(demoTool("get_issue").outputSchema, undefined, "get_issue declares none");
});

test("a misspelt top-level property of search_issues: named, with the properties it has", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [{ kind: "no-error" }, { kind: "equals", pointer: `${SC}/totl`, value: 1 }]),
    demoTool("search_issues"),
  );
  assert.deepEqual(ws, [{ index: 1, message: `${SC}/totl: search_issues's outputSchema has no property "totl" (it has: issues, total)` }]);
});

test("pointers the schema allows give no warning: properties, items, anyOf branches, the root", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [
      present(SC),
      present(`${SC}/total`),
      present(`${SC}/issues`),
      present(`${SC}/issues/0/title`),
      present(`${SC}/issues/12/labels/3`),
      { kind: "equals", pointer: `${SC}/issues/0/assignee/team`, value: "platform" },
      { kind: "matches", pointer: `${SC}/issues/0/assignee/user_id`, pattern: "^u_" },
      { kind: "schema", schema: { type: "object" } },
      { kind: "schema", schema: { type: "integer" }, pointer: `${SC}/total` },
      { kind: "output-schema" },
      present("/result/content/0/text"),
      present("/result/isError"),
    ]),
    demoTool("search_issues"),
  );
  assert.deepEqual(ws, []);
});

test("deeper: an item's property, an anyOf of object shapes, a child of an integer, a name where an index goes", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [
      present(`${SC}/issues/0/titel`),
      present(`${SC}/issues/0/assignee/name`),
      present(`${SC}/total/value`),
      present(`${SC}/issues/first`),
      present(`${SC}/issues/0/labels/0/name`),
    ]),
    demoTool("search_issues"),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/issues/0/titel: search_issues's outputSchema has no property "titel" in ${SC}/issues/0 (it has: id, title, body, status, labels, assignee, created_at, updated_at)`,
    `${SC}/issues/0/assignee/name: search_issues's outputSchema has no property "name" in ${SC}/issues/0/assignee (it has: user_id, team)`,
    `${SC}/total/value: search_issues's outputSchema says ${SC}/total is integer, which has no "value" inside`,
    `${SC}/issues/first: search_issues's outputSchema says ${SC}/issues is an array: "first" is not an item index`,
    `${SC}/issues/0/labels/0/name: search_issues's outputSchema says ${SC}/issues/0/labels/0 is string, which has no "name" inside`,
  ]);
  assert.deepEqual(
    ws.map((w) => w.index),
    [0, 1, 2, 3, 4],
  );
});

test("absent: on a required property it can never pass; on a missing one it always passes; on an item's it may", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [
      { kind: "absent", pointer: `${SC}/total` },
      { kind: "absent", pointer: `${SC}/totl` },
      // issues may be empty, so an item's required id may well be absent.
      { kind: "absent", pointer: `${SC}/issues/0/id` },
      { kind: "absent", pointer: "/result/isError" },
    ]),
    demoTool("search_issues"),
  );
  assert.deepEqual(ws, [
    {
      index: 0,
      message: `${SC}/total: search_issues's outputSchema requires "total", so this absent can never pass on an answer with structuredContent`,
    },
    {
      index: 1,
      message: `${SC}/totl: search_issues's outputSchema has no property "totl" (it has: issues, total); so this absent always passes`,
    },
  ]);
});

test("required only counts along a chain of object-only parents", () => {
  const schema = {
    type: "object",
    required: ["a", "n"],
    properties: {
      a: { type: "object", required: ["b"], properties: { b: { type: "string" } } },
      n: { type: ["object", "null"], required: ["b"], properties: { b: { type: "string" } } },
      o: { type: "object", required: ["b"], properties: { b: { type: "string" } } },
    },
  };
  const ws = expectationWarnings(
    toolCall("t", [
      { kind: "absent", pointer: `${SC}/a/b` },
      { kind: "absent", pointer: `${SC}/n/b` },
      { kind: "absent", pointer: `${SC}/o/b` },
    ]),
    withSchema(schema),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/a/b: t's outputSchema requires "b", so this absent can never pass on an answer with structuredContent`,
  ]);
});

test("captures are checked like expectations, reported with index -1 and their name", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [], { count: `${SC}/count`, first: `${SC}/issues/0/id`, bad: "result/total" }),
    demoTool("search_issues"),
  );
  assert.deepEqual(ws, [
    { index: -1, capture: "count", message: `${SC}/count: search_issues's outputSchema has no property "count" (it has: issues, total)` },
    {
      index: -1,
      capture: "bad",
      message: `"result/total" is not a JSON pointer: it must be "" or start with "/" (e.g. /result/structuredContent/id)`,
    },
  ]);
});

test("a tool without an outputSchema: structuredContent pointers and output-schema are warned about, text pointers are not", () => {
  const ws = expectationWarnings(
    toolCall(
      "get_issue",
      [
        { kind: "equals", pointer: `${SC}/id`, value: 1 },
        { kind: "output-schema" },
        { kind: "absent", pointer: `${SC}/id` },
        present("/result/content/0/text/id"),
        { kind: "schema", schema: { type: "object" } },
      ],
      { id: `${SC}/id` },
    ),
    demoTool("get_issue"),
  );
  assert.deepEqual(ws, [
    { index: 0, message: `${SC}/id: get_issue declares no outputSchema, so nothing says its answers have structuredContent` },
    { index: 1, message: "output-schema: get_issue declares no outputSchema, so this expectation can never pass" },
    { index: 4, message: `${SC}: get_issue declares no outputSchema, so nothing says its answers have structuredContent` },
    {
      index: -1,
      capture: "id",
      message: `${SC}/id: get_issue declares no outputSchema, so nothing says its answers have structuredContent`,
    },
  ]);
});

test("a tool the server does not list: one warning for the call; pointer and pattern checks still run", () => {
  const ws = expectationWarnings(
    toolCall("serch_issues", [
      present(`${SC}/whatever`),
      { kind: "output-schema" },
      { kind: "matches", pointer: "/result/x", pattern: "(" },
    ]),
    undefined,
  );
  assert.deepEqual(ws, [
    { index: -1, message: `the server lists no tool "serch_issues", so this call's expectations cannot be checked against it` },
    { index: 2, message: "the pattern /(/ does not compile: Invalid regular expression: /(/: Unterminated group" },
  ]);
});

test("only tools/call requests with a literal tool name are checked against a tool", () => {
  const search = demoTool("search_issues");
  const expect = [present(`${SC}/totl`), { kind: "output-schema" } as Expectation];
  const list: CollectionCall = { name: "l", request: { method: "tools/list" }, expect };
  assert.deepEqual(expectationWarnings(list, search), []);
  assert.deepEqual(expectationWarnings(list, undefined), [], "not a tools/call: no tool is missing");
  const templated: CollectionCall = { name: "v", request: { method: "tools/call", params: { name: "{{tool}}" } }, expect };
  assert.deepEqual(expectationWarnings(templated, search), []);
  assert.deepEqual(expectationWarnings(templated, undefined), []);
});

test("pointers that are not JSON pointers; placeholders are skipped conservatively", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [
      present("result/structuredContent/total"),
      present(`${SC}/a~2b`),
      present(`${SC}/trailing~`),
      present("{{base}}/total"),
      present(`${SC}/{{field}}`),
      present(`${SC}/issues/{{i}}/titel`),
      present(`${SC}/a~1b~0c`),
    ]),
    demoTool("search_issues"),
  );
  assert.deepEqual(messages(ws), [
    `"result/structuredContent/total" is not a JSON pointer: it must be "" or start with "/" (e.g. /result/structuredContent/id)`,
    `"${SC}/a~2b" is not a JSON pointer: "~" must be followed by 0 or 1 (write "~" as ~0 and "/" inside a name as ~1)`,
    `"${SC}/trailing~" is not a JSON pointer: "~" must be followed by 0 or 1 (write "~" as ~0 and "/" inside a name as ~1)`,
    // An escaped name is unescaped before the schema is asked.
    `${SC}/a~1b~0c: search_issues's outputSchema has no property "a/b~c" (it has: issues, total)`,
  ]);
  assert.deepEqual(
    ws.map((w) => w.index),
    [0, 1, 2, 6],
  );
});

test("patterns: matches and text-matches with a bad pattern or flags; placeholders skipped", () => {
  const ws = expectationWarnings(
    {
      name: "p",
      request: { method: "ping" },
      expect: [
        { kind: "matches", pointer: "/result/x", pattern: "a", flags: "z" },
        { kind: "text-matches", pattern: "[a-" },
        { kind: "text-matches", pattern: "\\p{L}", flags: "u" },
        { kind: "text-matches", pattern: "{{x}}", flags: "u" },
        { kind: "text-matches", pattern: "ok", flags: "gi" },
      ],
    },
    undefined,
  );
  assert.deepEqual(ws, [
    { index: 0, message: "the pattern /a/z does not compile: Invalid flags supplied to RegExp constructor 'z'" },
    { index: 1, message: "the pattern /[a-/ does not compile: Invalid regular expression: /[a-/: Unterminated character class" },
  ]);
});

test("unchanged: its pointer and its volatile pointers (relative to it)", () => {
  const ws = expectationWarnings(
    toolCall("search_issues", [
      { kind: "unchanged", recorded: {}, volatile: ["/structuredContent/issues/0/id", "/structuredContent/totl", "x"] },
      { kind: "unchanged", recorded: 1, pointer: `${SC}/totl`, volatile: ["/inner"] },
      { kind: "unchanged", recorded: {}, pointer: "", volatile: ["bad"] },
    ]),
    demoTool("search_issues"),
  );
  assert.deepEqual(ws, [
    { index: 0, message: `volatile /structuredContent/totl: search_issues's outputSchema has no property "totl" (it has: issues, total)` },
    {
      index: 0,
      message: `volatile "x" is not a JSON pointer: it must be "" or start with "/" (e.g. /result/structuredContent/id)`,
    },
    { index: 1, message: `${SC}/totl: search_issues's outputSchema has no property "totl" (it has: issues, total)` },
    { index: 1, message: `volatile /inner: search_issues's outputSchema has no property "totl" (it has: issues, total)` },
    { index: 2, message: `volatile "bad" is not a JSON pointer: it must be "" or start with "/" (e.g. /result/structuredContent/id)` },
  ]);
});

test("local $refs, allOf (every branch must allow), anyOf/oneOf (one branch suffices)", () => {
  const schema = {
    type: "object",
    properties: {
      user: { $ref: "#/$defs/User" },
      both: { allOf: [{ properties: { a: {}, b: {} } }, { properties: { b: {} }, additionalProperties: false }] },
      either: { oneOf: [{ type: "object", properties: { a: {} }, additionalProperties: false }, { type: "array" }] },
      external: { $ref: "https://example.com/schema.json" },
      dangling: { $ref: "#/$defs/Nope" },
    },
    additionalProperties: false,
    $defs: { User: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false } },
  };
  const ws = expectationWarnings(
    toolCall("t", [
      present(`${SC}/user/name`),
      present(`${SC}/user/email`),
      present(`${SC}/both/b`),
      present(`${SC}/both/a`),
      present(`${SC}/either/a`),
      present(`${SC}/either/0`),
      present(`${SC}/either/b`),
      present(`${SC}/external/anything/at/all`),
      present(`${SC}/dangling/x`),
    ]),
    withSchema(schema),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/user/email: t's outputSchema has no property "email" in ${SC}/user (it has: name)`,
    `${SC}/both/a: t's outputSchema has no property "a" in ${SC}/both (it has: b)`,
    `${SC}/either/b: t's outputSchema has no property "b" in ${SC}/either (it has: a)`,
  ]);
});

test("items: prefixItems with items false, draft-07 tuples, maxItems, items false", () => {
  const schema = {
    type: "object",
    properties: {
      pair: {
        type: "array",
        prefixItems: [{ type: "string" }, { type: "object", properties: {}, additionalProperties: false }],
        items: false,
      },
      old: { type: "array", items: [{ type: "string" }], additionalItems: false },
      few: { type: "array", maxItems: 1 },
      none: { type: "array", items: false },
    },
  };
  const ws = expectationWarnings(
    toolCall("t", [
      present(`${SC}/pair/0`),
      present(`${SC}/pair/2`),
      present(`${SC}/pair/1/x`),
      present(`${SC}/old/0`),
      present(`${SC}/old/1`),
      present(`${SC}/few/0`),
      present(`${SC}/few/1`),
      present(`${SC}/none/0`),
    ]),
    withSchema(schema),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/pair/2: t's outputSchema allows at most 2 items in ${SC}/pair, so there is no item 2`,
    `${SC}/pair/1/x: t's outputSchema has no property "x" in ${SC}/pair/1 (it allows none)`,
    `${SC}/old/1: t's outputSchema allows at most 1 item in ${SC}/old, so there is no item 1`,
    `${SC}/few/1: t's outputSchema allows at most 1 item in ${SC}/few, so there is no item 1`,
    `${SC}/none/0: t's outputSchema allows at most 0 items in ${SC}/none, so there is no item 0`,
  ]);
});

test("boolean schemas, type lists, patternProperties, unevaluatedProperties, contentMediaType", () => {
  const schema = {
    type: "object",
    properties: {
      legacy: false,
      anything: true,
      maybe: { type: ["string", "null"] },
      json: { type: "string", contentMediaType: "application/json" },
      tagged: { type: "object", properties: { a: {} }, patternProperties: { "^x_": { type: "integer" } }, additionalProperties: false },
      merged: { type: "object", allOf: [{ properties: { a: {} } }, { $ref: "#/$defs/B" }], unevaluatedProperties: false },
      typeless: { properties: { a: {} }, additionalProperties: false },
    },
    $defs: { B: { properties: { b: {} } } },
  };
  const ws = expectationWarnings(
    toolCall("t", [
      present(`${SC}/legacy`),
      present(`${SC}/anything/deep/down/0`),
      present(`${SC}/maybe/x`),
      present(`${SC}/json/inside`),
      present(`${SC}/tagged/x_1`),
      present(`${SC}/tagged/x_1/more`),
      present(`${SC}/tagged/y`),
      present(`${SC}/merged/a`),
      present(`${SC}/merged/b`),
      present(`${SC}/merged/c`),
      // No type: an array could have item 0, but nothing can have a member "b".
      present(`${SC}/typeless/0`),
      present(`${SC}/typeless/b`),
    ]),
    withSchema(schema),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/legacy: t's outputSchema allows nothing at ${SC}/legacy`,
    `${SC}/maybe/x: t's outputSchema says ${SC}/maybe is string or null, which has no "x" inside`,
    `${SC}/tagged/x_1/more: t's outputSchema says ${SC}/tagged/x_1 is integer, which has no "more" inside`,
    `${SC}/tagged/y: t's outputSchema has no property "y" in ${SC}/tagged (it has: a, /^x_/)`,
    `${SC}/merged/c: t's outputSchema has no property "c" in ${SC}/merged (it has: a, b)`,
    `${SC}/typeless/b: t's outputSchema has no property "b" in ${SC}/typeless (it has: a)`,
  ]);
  assert.deepEqual(expectationWarnings(toolCall("t", [present(`${SC}/x`)]), withSchema(true)), []);
  assert.deepEqual(messages(expectationWarnings(toolCall("t", [present(`${SC}/x`)]), withSchema(false))), [
    `${SC}/x: t's outputSchema allows nothing at ${SC}`,
  ]);
});

test("the list of allowed names is capped", () => {
  const properties = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, {}]));
  const ws = expectationWarnings(
    toolCall("t", [present(`${SC}/q`)]),
    withSchema({ type: "object", properties, additionalProperties: false }),
  );
  assert.deepEqual(messages(ws), [
    `${SC}/q: t's outputSchema has no property "q" (it has: p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, … 8 more)`,
  ]);
});

test("bounded: $ref cycles, recursive schemas, deep pointers and exploding anyOf all end quickly", () => {
  const cycle = { $ref: "#/$defs/A", $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } } };
  assert.deepEqual(expectationWarnings(toolCall("t", [present(`${SC}/x/y`)]), withSchema(cycle)), []);

  const tree = {
    $ref: "#/$defs/Node",
    $defs: {
      Node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        additionalProperties: false,
      },
    },
  };
  const shallow = `${SC}${"/children/0".repeat(3)}/nme`;
  assert.deepEqual(messages(expectationWarnings(toolCall("t", [present(shallow)]), withSchema(tree))), [
    `${shallow}: t's outputSchema has no property "nme" in ${SC}${"/children/0".repeat(3)} (it has: name, children)`,
  ]);
  // Past the depth bound the walk stops and says nothing rather than guess.
  const deep = `${SC}${"/children/0".repeat(200)}/nme`;
  assert.deepEqual(expectationWarnings(toolCall("t", [present(deep)]), withSchema(tree)), []);

  // Two branches per level, 30 levels: 2^30 paths, but each level's node is one object, walked once.
  let exploding: unknown = { type: "object", properties: {}, additionalProperties: false };
  for (let i = 0; i < 30; i++) exploding = { anyOf: [exploding, { allOf: [exploding] }] };
  const started = performance.now();
  const ws = expectationWarnings(toolCall("t", [present(`${SC}/x`)]), withSchema(exploding));
  assert.ok(performance.now() - started < 2000, `took ${performance.now() - started} ms`);
  assert.deepEqual(messages(ws), [`${SC}/x: t's outputSchema has no property "x" (it allows none)`]);

  // 20,000 distinct branches that each rule x out: past the 10,000-step budget, so no evidence and no warning.
  const wide = { anyOf: Array.from({ length: 20_000 }, () => ({ type: "object", properties: {}, additionalProperties: false })) };
  assert.deepEqual(expectationWarnings(toolCall("t", [present(`${SC}/x`)]), withSchema(wide)), [], "the step budget ran out");
});

/** `$defs.a_i = {allOf: [{$ref: a_(i+1)}, {$ref: a_(i+1)}]}` for i < n: 2^n paths to `a_n`, which requires z. */
function doublingRefs(n: number): unknown {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) $defs[`a_${i}`] = { allOf: [{ $ref: `#/$defs/a_${i + 1}` }, { $ref: `#/$defs/a_${i + 1}` }] };
  $defs[`a_${n}`] = { type: "object", required: ["z"], properties: { z: { type: "string" } } };
  return { $ref: "#/$defs/a_0", $defs };
}

test("absent through $refs shared by allOf branches: each target read once, so 16 and 40 levels end at once", () => {
  const required = `${SC}/z: t's outputSchema requires "z", so this absent can never pass on an answer with structuredContent`;
  for (const n of [16, 40]) {
    const started = performance.now();
    const ws = expectationWarnings(toolCall("t", [{ kind: "absent", pointer: `${SC}/z` }]), withSchema(doublingRefs(n)));
    // A sanity bound only (the budget is counted in steps, not time): before the fix n=16 threw a RangeError.
    assert.ok(performance.now() - started < 5000, `n=${n} took ${performance.now() - started} ms`);
    assert.deepEqual(messages(ws), [required], `n=${n}`);
  }
  // The walk's verdicts are shared the same way: a step into the string z is still found 16 levels down.
  assert.deepEqual(messages(expectationWarnings(toolCall("t", [present(`${SC}/z/q`)]), withSchema(doublingRefs(16)))), [
    `${SC}/z/q: t's outputSchema says ${SC}/z is string, which has no "q" inside`,
  ]);
});

test("absent: the required check charges the same step budget, and a budget run out is no warning", () => {
  // 12,000 distinct allOf parts before the one that requires z: the walk and the check share 10,000 steps.
  const parts = Array.from({ length: 12_000 }, (_, i) => ({ description: `part ${i}` }));
  const schema = { type: "object", allOf: [...parts, { required: ["z"], properties: { z: {} } }] };
  assert.deepEqual(expectationWarnings(toolCall("t", [{ kind: "absent", pointer: `${SC}/z` }]), withSchema(schema)), []);
  // The same requirement within the budget is found.
  const small = { type: "object", allOf: [...parts.slice(0, 100), { required: ["z"], properties: { z: {} } }] };
  assert.deepEqual(messages(expectationWarnings(toolCall("t", [{ kind: "absent", pointer: `${SC}/z` }]), withSchema(small))), [
    `${SC}/z: t's outputSchema requires "z", so this absent can never pass on an answer with structuredContent`,
  ]);
});
