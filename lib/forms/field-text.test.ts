import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFormModel, type FormNode } from "./form-model.ts";
import { fieldHints, fieldMessage, misfitNote, valueSummary } from "./field-text.ts";

const node = (schema: unknown): FormNode => buildFormModel(schema).node;

test("hints: lengths, pattern, named formats, bounds, items and the default in one line", () => {
  assert.equal(fieldHints(node({ type: "string", minLength: 3, maxLength: 80 })), "3–80 characters");
  assert.equal(fieldHints(node({ type: "string", pattern: "^u_", format: "uuid" })), "pattern ^u_ · format: uuid");
  assert.equal(fieldHints(node({ type: "string", format: "date-time" })), "UTC");
  assert.equal(fieldHints(node({ type: "integer", minimum: 1, maximum: 50, default: 10 })), "whole number ≥ 1 and ≤ 50 · default: 10");
  assert.equal(fieldHints(node({ type: "number", exclusiveMinimum: 0, multipleOf: 0.5 })), "number > 0 · multiple of 0.5");
  assert.equal(fieldHints(node({ type: "array", maxItems: 3 })), "at most 3 items");
  assert.equal(fieldHints(node({ type: "boolean" })), "");
  // A generator's "any safe integer" (zod's .int()) is not a bound worth reading (issue 26).
  assert.equal(fieldHints(node({ type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER })), "whole number ≥ 1");
  assert.equal(fieldHints(node({ type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER })), "whole number");
});

test("messages read after the label; the note on a misfit names the value and the expected kind", () => {
  assert.equal(fieldMessage("Title", "required"), "Title is required");
  assert.equal(fieldMessage("Title", "title must be at least 3 characters long"), "Title must be at least 3 characters long");
  assert.equal(fieldMessage("Age", "the value must be >= 18"), "Age must be >= 18");
  assert.match(fieldMessage("x", 'unexpected property "x"; the schema allows no other properties'), /^x is not allowed/);
  assert.equal(
    misfitNote(node({ type: "integer" }), "7"),
    'The value "7" is not a whole number, as the schema declares; it is kept as it is. Edit it as JSON.',
  );
  assert.equal(valueSummary("x".repeat(100)).length, 60);
});
