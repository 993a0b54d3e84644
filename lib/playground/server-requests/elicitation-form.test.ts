import { test } from "node:test";
import assert from "node:assert/strict";
import type { FormNode } from "../../forms/form-model.ts";
import { checkContent, elicitationModel, elicitationWarnings, initialContent } from "./elicitation-form.ts";

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
    agree: { type: "boolean", title: "I agree" },
  },
  required: ["name", "email", "age", "agree"],
};

const NONE = new Map<string, string>();

function fields(schema: unknown): Record<string, { required: boolean; node: FormNode }> {
  const root = elicitationModel(schema).node;
  assert.equal(root.kind, "object");
  return Object.fromEntries((root.kind === "object" ? root.properties : []).map((p) => [p.name, p]));
}

test("fields by type with labels, required marks, defaults, formats, titled and multi-select options", () => {
  assert.deepEqual(elicitationWarnings(CONTACT), []);
  const by = fields(CONTACT);
  const node = <K extends FormNode["kind"]>(name: string, kind: K) => {
    assert.equal(by[name].node.kind, kind, name);
    return by[name].node as Extract<FormNode, { kind: K }>;
  };
  assert.equal(node("name", "string").minLength, 3);
  assert.equal(by.name.required, true);
  assert.equal(node("email", "string").inputType, "email");
  assert.deepEqual([node("age", "number").integer, node("age", "number").minimum], [true, 18]);
  assert.equal(node("score", "number").integer, false);
  assert.deepEqual(
    node("color", "enum").options.map((o) => o.value),
    ["Red", "Green"],
  );
  assert.equal(by.hex.node.title, "Colour");
  assert.deepEqual(node("hex", "enum").options, [
    { value: "#f00", label: "Red" },
    { value: "#0f0", label: "Green" },
  ]);
  assert.deepEqual(node("legacy", "enum").options, [
    { value: "a", label: "Alpha" },
    { value: "b", label: "Beta" },
  ]);
  assert.deepEqual([node("tags", "multiselect").minItems, node("tags", "multiselect").maxItems], [1, 2]);
  assert.deepEqual(node("titledTags", "multiselect").options, [{ value: "p", label: "Pink" }]);
  assert.equal(node("when", "string").inputType, "datetime-local");
  // A required boolean without a default is asked as yes / no; one with a default (the demo's) is a checkbox.
  assert.equal(node("agree", "boolean").explicit, true);
  assert.equal((fields(CONFIRM).confirm.node as { explicit: boolean }).explicit, false);

  // SEP-1034: the form starts with the defaults, nothing else.
  assert.deepEqual(initialContent(elicitationModel(CONTACT)), { email: "user@example.com", score: 0.5, color: "Red", tags: ["x"] });
});

test("checkContent: required fields (a required yes/no included) must be answered; schema errors by field; drafts wait", () => {
  const model = elicitationModel(CONTACT);
  const empty = checkContent(model, initialContent(model), NONE);
  assert.equal(empty.ok, false);
  assert.deepEqual(empty.errors.byField["/name"], ["required"]);
  assert.deepEqual(empty.errors.byField["/age"], ["required"]);
  assert.deepEqual(empty.errors.byField["/agree"], ["required"], "an unanswered required boolean is not false");

  const bad = checkContent(
    model,
    { ...initialContent(model), name: "Al", age: 17, email: "nope", tags: ["x", "y", "z"], agree: false },
    NONE,
  );
  assert.match(bad.errors.byField["/age"][0], />= 18/);
  assert.match(bad.errors.byField["/name"][0], /at least 3 characters/);
  assert.match(bad.errors.byField["/email"][0], /valid email/);
  assert.match(bad.errors.byField["/tags"][0], /at most 2 items/);

  const content = { ...initialContent(model), name: "Ada", age: 36, when: "2026-01-02T03:04:00Z", agree: false };
  const good = checkContent(model, content, NONE);
  assert.equal(good.ok, true, JSON.stringify(good.errors));
  const typing = checkContent(model, content, new Map([["/score", "must be a number"]]));
  assert.equal(typing.ok, false, "a field holding half-typed text keeps Submit waiting");
});

test("the demo's confirmation: a checkbox answered by its default, an optional reason", () => {
  const model = elicitationModel(CONFIRM);
  const start = initialContent(model);
  assert.deepEqual(start, { confirm: false });
  assert.equal(checkContent(model, start, NONE).ok, true);
  assert.equal(checkContent(model, { confirm: true }, NONE).ok, true);
  assert.match(checkContent(model, { confirm: true, reason: "x".repeat(201) }, NONE).errors.byField["/reason"][0], /at most 200/);
  assert.deepEqual(checkContent(model, {}, NONE).errors.byField["/confirm"], ["required"]);
});

test("odd schemas give warnings, never a throw; what the subset excludes is still shown (as fields or JSON)", () => {
  assert.deepEqual(elicitationWarnings(null), ["The requested schema is not an object."]);
  const odd = {
    type: "object",
    properties: { nested: { type: "object", title: "Nested" }, list: { type: "array", items: { type: "number" } }, odd: 3 },
    required: ["nested", "ghost"],
  };
  assert.deepEqual(elicitationWarnings(odd), [
    "Nested: nested objects are not allowed in an elicitation form.",
    "list: arrays are allowed only as a multi-select of string options.",
    "odd: the property schema is not an object.",
    '"ghost" is required but has no property schema.',
  ]);
  assert.match(elicitationWarnings({ type: "array" })[0], /should have "type": "object"/);
  // (A property schema of 3 makes the whole schema uncompilable; the rest is checked without it.)
  const model = elicitationModel({ ...odd, properties: { nested: odd.properties.nested, list: odd.properties.list } });
  const check = checkContent(model, initialContent(model), NONE);
  assert.equal(check.ok, false);
  assert.deepEqual(check.errors.byField["/nested"], ["required"]);
  assert.deepEqual(check.errors.byField["/ghost"], ["required"]);
  // A schema ajv cannot compile does not block the answer: the server judges it.
  const broken = elicitationModel({ type: "object", properties: { a: { type: "string", pattern: "(" } } });
  assert.equal(checkContent(broken, {}, NONE).ok, true);
});
