import { test } from "node:test";
import assert from "node:assert/strict";
import { capToolTexts, originalLength } from "./tool-text-caps.ts";

test("a description over the cap is cut with a marker naming the setting; the original length is recoverable", () => {
  const description = "a".repeat(50_000);
  const { tool, cut } = capToolTexts({ name: "t", description, inputSchema: { type: "object" } }, 1000);
  assert.equal(cut, true);
  assert.ok(tool.description!.startsWith("a".repeat(1000) + " … [49000 more characters cut"));
  assert.match(tool.description!, /TOOLSCOPE_MAX_DESCRIPTION_CHARS is 1000\]$/);
  assert.equal(originalLength(tool.description!), 50_000);
  assert.deepEqual(tool.inputSchema, { type: "object" });
});

test("texts within the cap are the same object; an uncut text's length is its own", () => {
  const t = { name: "t", title: "x".repeat(10), description: "short", inputSchema: { type: "object" as const } };
  const r = capToolTexts(t, 10);
  assert.equal(r.cut, false);
  assert.equal(r.tool, t);
  assert.equal(originalLength("plain text ] with a bracket"), 27);
});

test("a title over the cap is cut too, and never leaves half a surrogate pair", () => {
  const title = "x".repeat(9) + "😀" + "y".repeat(20);
  const { tool } = capToolTexts({ name: "t", title, inputSchema: { type: "object" } }, 10);
  assert.ok(tool.title!.startsWith("x".repeat(9) + " … ["));
  assert.doesNotMatch(tool.title!, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
});
