import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_POINTER_SUGGESTIONS, responsePointers } from "./response-pointers.ts";
import { valueAt } from "../index.ts";

/** The demo's create_issue answer: the issue as a JSON text block (no structuredContent). */
const CREATE_ISSUE = {
  result: {
    content: [
      {
        type: "text",
        text: JSON.stringify(
          {
            id: 13,
            title: "Export fails",
            status: "open",
            labels: ["bug"],
            assignee: null,
            created_at: "2026-07-01T11:00:00.000Z",
          },
          null,
          2,
        ),
      },
    ],
    resultType: "complete",
  },
  jsonrpc: "2.0",
  id: 2,
};

/** The demo's search_issues answer: the same JSON as text and as structuredContent, with server info in _meta. */
const SEARCH_ISSUES = {
  result: {
    content: [
      {
        type: "text",
        text: '{"issues":[{"id":3,"title":"CSV export drops rows with commas in the title","labels":["bug","export"]}],"total":1}',
      },
    ],
    structuredContent: {
      issues: [{ id: 3, title: "CSV export drops rows with commas in the title", labels: ["bug", "export"] }],
      total: 1,
    },
    resultType: "complete",
    _meta: { "io.modelcontextprotocol/serverInfo": { name: "toolscope-demo", version: "1.0.0" } },
  },
  jsonrpc: "2.0",
  id: 3,
};

test("every member and item in document order, stepping into a JSON text block", () => {
  assert.deepEqual(responsePointers(CREATE_ISSUE), [
    "/result",
    "/result/content",
    "/result/content/0",
    "/result/content/0/type",
    "/result/content/0/text",
    "/result/content/0/text/id",
    "/result/content/0/text/title",
    "/result/content/0/text/status",
    "/result/content/0/text/labels",
    "/result/content/0/text/labels/0",
    "/result/content/0/text/assignee",
    "/result/content/0/text/created_at",
    "/result/resultType",
    "/jsonrpc",
    "/id",
  ]);
});

test("a JSON text and structuredContent both listed; '/' and '~' in keys escaped", () => {
  assert.deepEqual(responsePointers(SEARCH_ISSUES), [
    "/result",
    "/result/content",
    "/result/content/0",
    "/result/content/0/type",
    "/result/content/0/text",
    "/result/content/0/text/issues",
    "/result/content/0/text/issues/0",
    "/result/content/0/text/issues/0/id",
    "/result/content/0/text/issues/0/title",
    "/result/content/0/text/issues/0/labels",
    "/result/content/0/text/issues/0/labels/0",
    "/result/content/0/text/issues/0/labels/1",
    "/result/content/0/text/total",
    "/result/structuredContent",
    "/result/structuredContent/issues",
    "/result/structuredContent/issues/0",
    "/result/structuredContent/issues/0/id",
    "/result/structuredContent/issues/0/title",
    "/result/structuredContent/issues/0/labels",
    "/result/structuredContent/issues/0/labels/0",
    "/result/structuredContent/issues/0/labels/1",
    "/result/structuredContent/total",
    "/result/resultType",
    "/result/_meta",
    "/result/_meta/io.modelcontextprotocol~1serverInfo",
    "/result/_meta/io.modelcontextprotocol~1serverInfo/name",
    "/result/_meta/io.modelcontextprotocol~1serverInfo/version",
    "/jsonrpc",
    "/id",
  ]);
});

test("every pointer listed reads a value with lib/collections' valueAt (the same step into JSON text)", () => {
  for (const response of [CREATE_ISSUE, SEARCH_ISSUES]) {
    const pointers = responsePointers(response);
    for (const p of pointers) assert.equal(valueAt(response, p).found, true, p);
  }
  assert.deepEqual(valueAt(SEARCH_ISSUES, "/result/_meta/io.modelcontextprotocol~1serverInfo/name"), {
    found: true,
    value: "toolscope-demo",
  });
  assert.deepEqual(valueAt(CREATE_ISSUE, "/result/content/0/text/id"), { found: true, value: 13 });
});

test("keys with '~', '/', both, and the empty key", () => {
  const structured = { "a/b": 1, "~tilde": 2, "~1": 3, "x/~/y": { "": 4 }, "": 5 };
  assert.deepEqual(responsePointers(structured), ["/a~1b", "/~0tilde", "/~01", "/x~1~0~1y", "/x~1~0~1y/", "/"]);
  for (const p of responsePointers(structured)) assert.equal(valueAt(structured, p).found, true, p);
  assert.deepEqual(valueAt(structured, "/~01"), { found: true, value: 3 });
});

test("base: pointers start at it, and it is not listed itself", () => {
  assert.deepEqual(responsePointers(SEARCH_ISSUES.result.structuredContent, "/result/structuredContent"), [
    "/result/structuredContent/issues",
    "/result/structuredContent/issues/0",
    "/result/structuredContent/issues/0/id",
    "/result/structuredContent/issues/0/title",
    "/result/structuredContent/issues/0/labels",
    "/result/structuredContent/issues/0/labels/0",
    "/result/structuredContent/issues/0/labels/1",
    "/result/structuredContent/total",
  ]);
});

test("plain text strings are not stepped into; only text that parses as an object or array", () => {
  const response = {
    result: {
      content: [
        { type: "text", text: "Found 3 issues matching “CSV”." },
        { type: "text", text: "[not json" },
        { type: "text", text: "{ broken: json }" },
        { type: "text", text: "42" },
        { type: "text", text: '"a JSON string"' },
        { type: "text", text: "true" },
        { type: "text", text: "  \n [1, 2]" },
      ],
    },
  };
  assert.deepEqual(responsePointers(response.result.content, "/result/content"), [
    "/result/content/0",
    "/result/content/0/type",
    "/result/content/0/text",
    "/result/content/1",
    "/result/content/1/type",
    "/result/content/1/text",
    "/result/content/2",
    "/result/content/2/type",
    "/result/content/2/text",
    "/result/content/3",
    "/result/content/3/type",
    "/result/content/3/text",
    "/result/content/4",
    "/result/content/4/type",
    "/result/content/4/text",
    "/result/content/5",
    "/result/content/5/type",
    "/result/content/5/text",
    "/result/content/6",
    "/result/content/6/type",
    "/result/content/6/text",
    "/result/content/6/text/0",
    "/result/content/6/text/1",
  ]);
});

test("JSON text inside JSON text is stepped into too; a root string holding JSON is read", () => {
  const inner = JSON.stringify({ rows: [{ id: 1 }] });
  const response = { result: { content: [{ type: "text", text: JSON.stringify({ payload: inner }) }] } };
  assert.deepEqual(responsePointers(response.result.content[0], "/result/content/0"), [
    "/result/content/0/type",
    "/result/content/0/text",
    "/result/content/0/text/payload",
    "/result/content/0/text/payload/rows",
    "/result/content/0/text/payload/rows/0",
    "/result/content/0/text/payload/rows/0/id",
  ]);
  assert.deepEqual(valueAt(response, "/result/content/0/text/payload/rows/0/id"), { found: true, value: 1 });
  assert.deepEqual(responsePointers('{"a":{"b":1}}'), ["/a", "/a/b"]);
});

test("scalars, empty objects and empty arrays have no pointers", () => {
  for (const root of [null, undefined, 0, 1.5, true, "", "hello", {}, []]) assert.deepEqual(responsePointers(root), [], String(root));
  assert.deepEqual(responsePointers({ result: {} }), ["/result"]);
  assert.deepEqual(responsePointers({ result: { content: [] } }), ["/result", "/result/content"]);
});

test("a text over 256K characters is not parsed, even when it is JSON", () => {
  const big = JSON.stringify({ rows: Array.from({ length: 60_000 }, (_, i) => i) });
  assert.ok(big.length > 256 * 1024, String(big.length));
  assert.deepEqual(responsePointers({ text: big }), ["/text"]);
  const justUnder = JSON.stringify({ pad: "p".repeat(256 * 1024 - 20) });
  assert.ok(justUnder.length <= 256 * 1024, String(justUnder.length));
  assert.deepEqual(responsePointers({ text: justUnder }), ["/text", "/text/pad"]);
});

test("the limit is honoured, in document order, members and items alike", () => {
  assert.equal(MAX_POINTER_SUGGESTIONS, 300);
  assert.deepEqual(responsePointers(CREATE_ISSUE, "", 4), ["/result", "/result/content", "/result/content/0", "/result/content/0/type"]);
  assert.deepEqual(responsePointers(CREATE_ISSUE, "", 1), ["/result"]);
  assert.deepEqual(responsePointers(CREATE_ISSUE, "", 0), []);
  // Stops inside the JSON text too.
  assert.deepEqual(responsePointers(CREATE_ISSUE, "", 6).slice(-2), ["/result/content/0/text", "/result/content/0/text/id"]);
});

test("the default limit is MAX_POINTER_SUGGESTIONS, for a large answer", () => {
  const issues = Array.from({ length: 1000 }, (_, i) => ({ id: i, title: `Issue ${i}` }));
  const pointers = responsePointers({ result: { structuredContent: { issues } } });
  assert.equal(pointers.length, MAX_POINTER_SUGGESTIONS);
  assert.deepEqual(pointers.slice(0, 6), [
    "/result",
    "/result/structuredContent",
    "/result/structuredContent/issues",
    "/result/structuredContent/issues/0",
    "/result/structuredContent/issues/0/id",
    "/result/structuredContent/issues/0/title",
  ]);
  // 3 containers, then 3 pointers per issue: 99 whole issues (0 to 98), nothing of the 100th.
  assert.equal(pointers[MAX_POINTER_SUGGESTIONS - 1], "/result/structuredContent/issues/98/title");
  assert.equal(pointers.includes("/result/structuredContent/issues/99"), false);
  assert.equal(new Set(pointers).size, pointers.length);
  const numbers = responsePointers(Array.from({ length: 1000 }, (_, i) => i));
  assert.equal(numbers.length, 300);
  assert.equal(numbers[299], "/299");
});

test("deep nesting stops at the depth bound: 13 levels of pointers", () => {
  let deep: unknown = { leaf: true };
  for (let i = 0; i < 30; i++) deep = { n: deep };
  const pointers = responsePointers(deep);
  assert.equal(pointers.length, 13);
  assert.deepEqual(
    pointers,
    Array.from({ length: 13 }, (_, i) => "/n".repeat(i + 1)),
  );

  let arrays: unknown = "end";
  for (let i = 0; i < 30; i++) arrays = [arrays];
  const items = responsePointers(arrays);
  assert.equal(items.length, 13);
  assert.equal(items[12], "/0".repeat(13));

  // Exactly 13 levels deep: the leaf member is the last pointer listed.
  let thirteen: unknown = 1;
  for (let i = 0; i < 13; i++) thirteen = { n: thirteen };
  assert.deepEqual(responsePointers(thirteen).at(-1), "/n".repeat(13));
  assert.equal(responsePointers(thirteen).length, 13);
});

test("the depth bound counts from the base, and JSON text adds no level", () => {
  let deep: unknown = { leaf: true };
  for (let i = 0; i < 30; i++) deep = { n: deep };
  const response = { result: { content: [{ type: "text", text: JSON.stringify(deep) }] } };
  const pointers = responsePointers(response);
  // /result/content/0/text is 4 levels deep (plus /type beside it); 9 more levels inside the text: 13 in all.
  assert.equal(pointers.at(-1), `/result/content/0/text${"/n".repeat(9)}`);
  assert.equal(pointers.length, 5 + 9);
});
