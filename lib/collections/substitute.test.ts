import { test } from "node:test";
import assert from "node:assert/strict";
import { placeholders, substitute } from "./substitute.ts";
import { valueAt } from "./pointer-value.ts";

const vars = new Map<string, unknown>([
  ["id", 42],
  ["team", "platform"],
  ["tags", ["a", "b"]],
]);

test("a whole-string placeholder keeps the value's type; inside a string it becomes text", () => {
  const out = substitute({ issue_id: "{{id}}", spaced: "{{ id }}", title: "Issue #{{id}} for {{team}}", tags: "{{tags}}", n: 1 }, vars);
  assert.deepEqual(out, {
    ok: true,
    value: { issue_id: 42, spaced: 42, title: "Issue #42 for platform", tags: ["a", "b"], n: 1 },
  });
});

test("a variable without a value: every missing name, nothing filled", () => {
  assert.deepEqual(substitute(["{{id}}", "{{later}}", { x: "{{other}} {{later}}" }], vars), { ok: false, missing: ["later", "other"] });
  assert.deepEqual(placeholders({ "{{key}}": "no", v: ["{{a}}", "{{b}}{{a}}"] }), ["a", "b"], "keys are not placeholders");
});

test("a pointer goes on inside a string that holds JSON", () => {
  const response = { result: { content: [{ type: "text", text: '{"id": 3, "tags": ["x"]}' }] } };
  assert.deepEqual(valueAt(response, "/result/content/0/text/id"), { found: true, value: 3 });
  assert.deepEqual(valueAt(response, "/result/content/0/text/tags/0"), { found: true, value: "x" });
  assert.deepEqual(valueAt(response, "/result/content/0/text/nope"), { found: false });
  assert.deepEqual(valueAt({ a: "not json" }, "/a/b"), { found: false });
  assert.deepEqual(valueAt({ a: [1] }, "/a/01"), { found: false }, "array indices are RFC 6901's");
});
