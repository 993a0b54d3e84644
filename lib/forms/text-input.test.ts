import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFormModel, type FormNode } from "./form-model.ts";
import { draftOf, inputTypeFor, parseDraft } from "./text-input.ts";

const node = (schema: unknown) => buildFormModel(schema).node as Extract<FormNode, { kind: "string" | "number" }>;
const num = node({ type: "number" });
const int = node({ type: "integer" });

test("number drafts: half-typed text is a problem (kept in the field), finished text a number", () => {
  assert.deepEqual(parseDraft(num, "1.5"), { value: 1.5 });
  assert.deepEqual(parseDraft(num, " -2e3 "), { value: -2000 });
  assert.deepEqual(parseDraft(num, ""), { empty: true });
  for (const half of ["1.", "-", "1e", "abc", "0x10", "Infinity"]) assert.ok("error" in parseDraft(num, half), half);
  assert.deepEqual(parseDraft(int, "1.5"), { error: "must be a whole number" });
  assert.deepEqual(parseDraft(int, "4"), { value: 4 });
  assert.match((parseDraft(int, "9007199254740993") as { error: string }).error, /2\^53/);
  assert.equal(draftOf(num, 0.5), "0.5");
  assert.equal(draftOf(num, undefined), "");
});

test("strings: empty is no value; date-time and time inputs write UTC with seconds and show it back", () => {
  const s = node({ type: "string" });
  assert.deepEqual(parseDraft(s, ""), { empty: true });
  assert.deepEqual(parseDraft(s, " x "), { value: " x " });
  const dt = node({ type: "string", format: "date-time" });
  assert.deepEqual(parseDraft(dt, "2026-01-02T03:04"), { value: "2026-01-02T03:04:00Z" });
  assert.deepEqual(parseDraft(dt, "2026-01-02T03:04:05"), { value: "2026-01-02T03:04:05Z" });
  assert.equal(draftOf(dt, "2026-01-02T03:04:05Z"), "2026-01-02T03:04:05");
  assert.equal(inputTypeFor(dt as Extract<FormNode, { kind: "string" }>, "2026-01-02T03:04:05Z"), "datetime-local");
  // An offset or fractional seconds cannot be shown by the date-time input: a text input keeps it exact.
  assert.equal(inputTypeFor(dt as Extract<FormNode, { kind: "string" }>, "2026-01-02T03:04:05+02:00"), "text");
  assert.equal(draftOf(dt, "2026-01-02T03:04:05+02:00"), "2026-01-02T03:04:05+02:00");
  const t = node({ type: "string", format: "time" });
  assert.deepEqual(parseDraft(t, "10:30"), { value: "10:30:00Z" });
  assert.equal(inputTypeFor(t as Extract<FormNode, { kind: "string" }>, "10:30:00.5Z"), "text");
});
