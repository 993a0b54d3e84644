import { test } from "node:test";
import assert from "node:assert/strict";
import { buildElicitationForm, checkForm, initialValues } from "./elicitation-form.ts";

/** The demo server's purge confirmation. */
const CONFIRM = {
  type: "object",
  properties: {
    confirm: { type: "boolean", title: "Delete all closed issues", description: "Tick to confirm.", default: false },
    reason: { type: "string", title: "Reason (optional)", maxLength: 200 },
  },
  required: ["confirm"],
};

const CONTACT = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 3 },
    email: { type: "string", format: "email", default: "user@example.com" },
    age: { type: "integer", minimum: 18, maximum: 130 },
    score: { type: "number", default: 0.5 },
    color: { type: "string", enum: ["Red", "Green"], default: "Red" },
    hex: {
      type: "string",
      title: "Colour",
      oneOf: [
        { const: "#f00", title: "Red" },
        { const: "#0f0", title: "Green" },
      ],
    },
    legacy: { type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] },
    tags: { type: "array", items: { type: "string", enum: ["x", "y", "z"] }, minItems: 1, maxItems: 2, default: ["x"] },
    titledTags: { type: "array", items: { anyOf: [{ const: "p", title: "Pink" }] } },
    when: { type: "string", format: "date-time" },
  },
  required: ["name", "email", "age"],
};

test("fields by type with labels, required marks, defaults and formats", () => {
  const form = buildElicitationForm(CONTACT);
  assert.deepEqual(form.warnings, []);
  const by = Object.fromEntries(form.fields.map((f) => [f.name, f]));
  assert.equal(by.name.kind, "text");
  assert.equal(by.name.required, true);
  assert.deepEqual([by.email.kind, (by.email as { inputType: string }).inputType, by.email.required], ["text", "email", true]);
  assert.deepEqual([by.age.kind, (by.age as { integer: boolean }).integer, (by.age as { minimum?: number }).minimum], ["number", true, 18]);
  assert.equal((by.score as { integer: boolean }).integer, false);
  assert.equal(by.color.kind, "select");
  assert.deepEqual((by.hex as { options: unknown }).options, [
    { value: "#f00", label: "Red" },
    { value: "#0f0", label: "Green" },
  ]);
  assert.equal(by.hex.label, "Colour");
  assert.deepEqual((by.legacy as { options: unknown }).options, [
    { value: "a", label: "Alpha" },
    { value: "b", label: "Beta" },
  ]);
  assert.equal(by.tags.kind, "multiselect");
  assert.deepEqual((by.titledTags as { options: unknown }).options, [{ value: "p", label: "Pink" }]);
  assert.equal((by.when as { inputType: string }).inputType, "datetime-local");

  const values = initialValues(form);
  assert.deepEqual(values, {
    name: "",
    email: "user@example.com",
    age: "",
    score: "0.5",
    color: "Red",
    hex: "",
    legacy: "",
    tags: ["x"],
    titledTags: [],
    when: "",
  });
});

test("checkForm types the content, leaves out empty optional fields and reports per field", () => {
  const form = buildElicitationForm(CONTACT);
  const empty = checkForm(form, CONTACT, initialValues(form));
  assert.equal(empty.ok, false);
  assert.equal(empty.errors.name, "required");
  assert.equal(empty.errors.age, "required");

  const bad = checkForm(form, CONTACT, { ...initialValues(form), name: "Al", age: "17.5", email: "nope", tags: ["x", "y", "z"] });
  assert.equal(bad.errors.age, "must be a whole number");
  assert.match(bad.errors.name, /at least 3 characters/);
  assert.match(bad.errors.email, /valid email/);
  assert.match(bad.errors.tags, /at most 2 items/);

  const good = checkForm(form, CONTACT, { ...initialValues(form), name: "Ada", age: "36", when: "2026-01-02T03:04" });
  assert.equal(good.ok, true, JSON.stringify(good.errors));
  assert.deepEqual(good.content, {
    name: "Ada",
    email: "user@example.com",
    age: 36,
    score: 0.5,
    color: "Red",
    tags: ["x"],
    when: "2026-01-02T03:04:00Z",
  });
});

test("the demo's confirmation: a checkbox that is always sent, an optional reason", () => {
  const form = buildElicitationForm(CONFIRM);
  assert.deepEqual(
    form.fields.map((f) => [f.name, f.kind, f.required, f.label]),
    [
      ["confirm", "boolean", true, "Delete all closed issues"],
      ["reason", "text", false, "Reason (optional)"],
    ],
  );
  const c = checkForm(form, CONFIRM, { confirm: true, reason: "" });
  assert.deepEqual(c, { ok: true, content: { confirm: true }, errors: {} });
  assert.match(checkForm(form, CONFIRM, { confirm: true, reason: "x".repeat(201) }).errors.reason, /at most 200/);
});

test("odd schemas give warnings and unsupported fields, never a throw", () => {
  assert.deepEqual(buildElicitationForm(null), { fields: [], warnings: ["The requested schema is not an object."] });
  const form = buildElicitationForm({
    type: "object",
    properties: { nested: { type: "object" }, list: { type: "array", items: { type: "number" } }, odd: 3 },
    required: ["nested", "ghost"],
  });
  assert.deepEqual(
    form.fields.map((f) => f.kind),
    ["unsupported", "unsupported", "unsupported"],
  );
  assert.ok(form.warnings.some((w) => w.includes('"ghost" is required')));
  const check = checkForm(form, { type: "object" }, {});
  assert.equal(check.ok, false);
  assert.match(check.errors.nested, /cannot be filled/);
});
