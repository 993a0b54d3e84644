import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFormModel, cachedFormModel, MAX_REF_REPEAT, type FormNode } from "./form-model.ts";
import { ASSIGN_SCHEMA } from "./testing/assign-schema.ts";

type Of<K extends FormNode["kind"]> = Extract<FormNode, { kind: K }>;

/** The node of property `name` of an object node, checked to be of `kind`. */
function prop<K extends FormNode["kind"]>(node: FormNode, name: string, kind: K): Of<K> {
  assert.equal(node.kind, "object");
  const p = (node as Of<"object">).properties.find((x) => x.name === name);
  assert.ok(p, `no property ${name}`);
  assert.equal(p.node.kind, kind, `${name}: ${JSON.stringify(p.node)}`);
  return p.node as Of<K>;
}

const model = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  buildFormModel({ type: "object", properties, ...extra }).node;

test("strings: formats become input types, other formats are named; length and pattern kept", () => {
  const root = model({
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    link: { type: "string", format: "url" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    clock: { type: "string", format: "time" },
    id: { type: "string", format: "uuid" },
    code: { type: "string", minLength: 2, maxLength: 5, pattern: "^[A-Z]+$" },
  });
  const types = ["email", "site", "link", "day", "at", "clock", "id"].map((n) => prop(root, n, "string").inputType);
  assert.deepEqual(types, ["email", "url", "url", "date", "datetime-local", "time", "text"]);
  assert.equal(prop(root, "id", "string").formatNote, "format: uuid");
  assert.equal(prop(root, "email", "string").formatNote, undefined);
  const code = prop(root, "code", "string");
  assert.deepEqual([code.minLength, code.maxLength, code.pattern], [2, 5, "^[A-Z]+$"]);
});

test("numbers, integers, booleans, enums of any scalar, const, null", () => {
  const root = model(
    {
      n: { type: "number", minimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
      i: { type: "integer", exclusiveMinimum: 0, maximum: 9 },
      b: { type: "boolean" },
      rb: { type: "boolean" },
      rbd: { type: "boolean", default: true },
      e: { enum: [1, "two", true, null] },
      named: { type: "string", enum: ["a", "b"], enumNames: ["Alpha", "Beta"] },
      titled: { oneOf: [{ const: 1, title: "One" }, { const: 2 }] },
      k: { const: "fixed" },
      z: { type: "null" },
    },
    { required: ["rb", "rbd"] },
  );
  const n = prop(root, "n", "number");
  assert.deepEqual([n.integer, n.minimum, n.exclusiveMaximum, n.multipleOf], [false, 0, 1, 0.25]);
  const i = prop(root, "i", "number");
  assert.deepEqual([i.integer, i.exclusiveMinimum, i.maximum], [true, 0, 9]);
  assert.equal(prop(root, "b", "boolean").explicit, false, "optional: a checkbox");
  assert.equal(prop(root, "rb", "boolean").explicit, true, "required without default: answered yes or no");
  assert.equal(prop(root, "rbd", "boolean").explicit, false, "required with a default: the default answers it");
  assert.deepEqual(prop(root, "e", "enum").options, [
    { value: 1, label: "1" },
    { value: "two", label: "two" },
    { value: true, label: "true" },
    { value: null, label: "null" },
  ]);
  assert.deepEqual(
    prop(root, "named", "enum").options.map((o) => o.label),
    ["Alpha", "Beta"],
  );
  assert.deepEqual(prop(root, "titled", "enum").options, [
    { value: 1, label: "One" },
    { value: 2, label: "2" },
  ]);
  assert.equal(prop(root, "k", "const").value, "fixed");
  prop(root, "z", "null");
});

test("objects: required marked, nested objects, additionalProperties as a schema, forbidden, or anything", () => {
  const root = model(
    {
      address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      env: { type: "object", additionalProperties: { type: "string" } },
      closed: { type: "object", properties: {}, additionalProperties: false },
    },
    { required: ["address"] },
  );
  assert.equal((root as Of<"object">).properties[0].required, true);
  const address = prop(root, "address", "object");
  assert.deepEqual(
    address.properties.map((p) => [p.name, p.required, p.node.kind]),
    [["city", true, "string"]],
  );
  assert.equal(address.additional, "any");
  const env = prop(root, "env", "object");
  assert.equal(typeof env.additional === "object" && env.additional.kind, "string");
  assert.equal(prop(root, "closed", "object").additional, "forbidden");
});

test("arrays: items, bounds; arrays of choices are multi-selects; tuples are JSON", () => {
  const root = model({
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
    picks: { type: "array", items: { enum: ["x", "y"] }, uniqueItems: true },
    tuple: { type: "array", items: [{ type: "string" }, { type: "number" }] },
    any: { type: "array" },
  });
  const tags = prop(root, "tags", "array");
  assert.deepEqual([tags.items.kind, tags.minItems, tags.maxItems], ["string", 1, 3]);
  assert.equal(prop(root, "picks", "multiselect").options.length, 2);
  assert.match(prop(root, "tuple", "json").reason, /tuple/);
  assert.equal(prop(root, "any", "array").items.kind, "json");
});

test("oneOf/anyOf: a chooser labelled by title, else $ref name, else type or const", () => {
  const root = buildFormModel(ASSIGN_SCHEMA).node;
  const assignee = prop(root, "assignee", "choice");
  assert.equal(assignee.keyword, "oneOf");
  assert.deepEqual(
    assignee.branches.map((b) => b.label),
    ["User", "Team"],
  );
  assert.equal(assignee.branches[0].node.at, "#/properties/assignee/oneOf/0");
  assert.deepEqual(
    (assignee.branches[1].node as Of<"object">).properties.map((p) => p.name),
    ["team"],
  );

  const other = model(
    {
      v: {
        anyOf: [
          { $ref: "#/$defs/Point" },
          { type: "string" },
          { type: "integer" },
          { const: 0 },
          { type: "object", properties: { a: {} } },
        ],
      },
    },
    { $defs: { Point: { type: "object", properties: { x: { type: "number" } } } } },
  );
  const labels = prop(other, "v", "choice").branches.map((b) => b.label);
  assert.deepEqual(labels, ["Point", "string", "integer", "0", "object (a)"]);
});

test("type lists: one type and null is nullable; several types are a chooser; nullable: true", () => {
  const root = model({
    maybe: { type: ["string", "null"], maxLength: 3 },
    legacy: { type: "integer", nullable: true },
    either: { type: ["string", "number"] },
  });
  const maybe = prop(root, "maybe", "string");
  assert.deepEqual([maybe.nullable, maybe.maxLength], [true, 3]);
  assert.equal(prop(root, "legacy", "number").nullable, true);
  const either = prop(root, "either", "choice");
  assert.deepEqual(
    either.branches.map((b) => [b.label, b.node.kind]),
    [
      ["string", "string"],
      ["number", "number"],
    ],
  );
});

test("what the form cannot express is JSON, with the reason", () => {
  const root = model({
    a: { allOf: [{ type: "string" }] },
    b: { not: { type: "string" } },
    c: { type: "string", if: { minLength: 1 }, then: { pattern: "x" } },
    d: { type: "object", patternProperties: { "^x": {} } },
    e: { type: "object", dependentSchemas: { a: {} } },
    f: { $ref: "https://example.com/s.json" },
    g: { $ref: "#/$defs/Missing" },
    h: false,
    i: {},
  });
  const reasons = ["a", "b", "c", "d", "e", "f", "g", "h"].map((n) => prop(root, n, "json").reason);
  assert.deepEqual(reasons, [
    'the form cannot express "allOf"',
    'the form cannot express "not"',
    'the form cannot express "if"',
    'the form cannot express "patternProperties"',
    'the form cannot express "dependentSchemas"',
    "the $ref https://example.com/s.json is not in this schema",
    "the $ref #/$defs/Missing points at nothing",
    "the schema allows no value at all",
  ]);
  assert.equal(prop(root, "i", "json").reason, "", "any value: JSON without a complaint");
});

test("$ref: #/$defs and #/definitions resolved; a recursive ref stops at a depth and falls back to JSON", () => {
  const tree = {
    type: "object",
    properties: { root: { $ref: "#/definitions/Node" } },
    definitions: {
      Node: {
        type: "object",
        properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/definitions/Node" } } },
      },
    },
  };
  let node: FormNode = prop(buildFormModel(tree).node, "root", "object");
  for (let level = 1; level < MAX_REF_REPEAT; level++) node = prop(node, "children", "array").items;
  assert.equal(node.kind, "object", "expanded up to the limit");
  const deepest = prop(node, "children", "array").items;
  assert.equal(deepest.kind, "json");
  assert.match((deepest as Of<"json">).reason, /recursive \$ref #\/definitions\/Node is not expanded past 3 levels/);

  // A ref chain that loops on itself (A → B → A) is a cycle, not a hang.
  const loop = buildFormModel({
    type: "object",
    properties: { x: { $ref: "#/$defs/A" } },
    $defs: { A: { $ref: "#/$defs/B" }, B: { $ref: "#/$defs/A" } },
  });
  assert.match(prop(loop.node, "x", "json").reason, /refers back to itself/);
});

test("defaults are recorded (as hints), never applied by the model", () => {
  const root = model({ limit: { type: "integer", default: 10 }, off: { type: "boolean", default: false } });
  assert.deepEqual([prop(root, "limit", "number").hasDefault, prop(root, "limit", "number").default], [true, 10]);
  assert.deepEqual([prop(root, "off", "boolean").hasDefault, prop(root, "off", "boolean").default], [true, false]);
  assert.equal(prop(model({ x: { type: "string" } }), "x", "string").hasDefault, false);
});

test("cachedFormModel: equal schemas (even rebuilt objects) give the same model", () => {
  const a = cachedFormModel({ type: "object", properties: { x: { type: "string" } } });
  assert.equal(cachedFormModel({ type: "object", properties: { x: { type: "string" } } }), a);
  assert.notEqual(cachedFormModel({ type: "object", properties: { y: { type: "string" } } }), a);
});
