import { test } from "node:test";
import assert from "node:assert/strict";
import { diffJson, sideBySide, stableStringify } from "./json-diff.ts";

const A = {
  jsonrpc: "2.0",
  id: 1,
  result: { content: [{ type: "text", text: "3 issues" }], structuredContent: { total: 3, ids: [1, 2, 3], "a/b": true } },
};
const B = {
  id: 2,
  jsonrpc: "2.0",
  result: { content: [{ type: "text", text: "4 issues" }], structuredContent: { total: 4, ids: [1, 2, 3, 4], extra: null } },
};

test("diffJson lists changes by pointer (escaped), ignoring key order", () => {
  assert.deepEqual(diffJson(A, B), [
    { kind: "changed", pointer: "/id", before: 1, after: 2 },
    { kind: "changed", pointer: "/result/content/0/text", before: "3 issues", after: "4 issues" },
    { kind: "removed", pointer: "/result/structuredContent/a~1b", before: true },
    { kind: "added", pointer: "/result/structuredContent/extra", after: null },
    { kind: "added", pointer: "/result/structuredContent/ids/3", after: 4 },
    { kind: "changed", pointer: "/result/structuredContent/total", before: 3, after: 4 },
  ]);
  assert.deepEqual(diffJson({ b: 1, a: [1, { c: 2 }] }, { a: [1, { c: 2 }], b: 1 }), []);
  assert.deepEqual(diffJson([1], { 0: 1 }), [{ kind: "changed", pointer: "", before: [1], after: { 0: 1 } }]);
});

test("sideBySide pairs equal lines and marks changed, added and removed ones with line numbers", () => {
  const rows = sideBySide({ a: 1, b: 2, c: 3 }, { a: 1, b: 20, c: 3, d: 4 });
  const kinds = rows.map((r) => r.kind);
  assert.deepEqual(kinds, ["same", "same", "changed", "changed", "added", "same"]);
  assert.deepEqual(rows[2], { kind: "changed", left: { n: 3, text: '  "b": 2,' }, right: { n: 3, text: '  "b": 20,' } });
  assert.deepEqual(rows[4], { kind: "added", right: { n: 5, text: '  "d": 4' } });
  assert.equal(rows.at(-1)!.left!.n, 5);
  assert.equal(rows.at(-1)!.right!.n, 6);
});

test("identical values give only same rows; key order does not matter", () => {
  const rows = sideBySide(A, JSON.parse(JSON.stringify(A)));
  assert.ok(rows.every((r) => r.kind === "same"));
  assert.equal(stableStringify({ b: 1, a: 2 }), '{\n  "a": 2,\n  "b": 1\n}');
});

test("large inputs stay fast", () => {
  const big = { items: Array.from({ length: 3000 }, (_, i) => ({ i, name: `item ${i}` })) };
  const changed = { items: big.items.map((x) => (x.i % 500 === 0 ? { ...x, name: "changed" } : x)) };
  const started = performance.now();
  const rows = sideBySide(big, changed);
  assert.ok(performance.now() - started < 2000);
  assert.equal(rows.filter((r) => r.kind === "changed").length, 6);
});
