import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFormModel, type FormNode } from "./form-model.ts";
import { emptyValue, fillDefaults, fitsNode, moveItem, newItem, pickBranch, renameKey, withKey } from "./form-value.ts";
import { ASSIGN_SCHEMA } from "./testing/assign-schema.ts";

type Of<K extends FormNode["kind"]> = Extract<FormNode, { kind: K }>;
const root = buildFormModel(ASSIGN_SCHEMA);
const assignee = (root.node as Of<"object">).properties.find((p) => p.name === "assignee")!.node as Of<"choice">;

test("pickBranch: the only branch the value validates against; a half-filled value keeps the user's pick", () => {
  const b = assignee.branches;
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, { user_id: "u_ada" }), 0);
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, { team: "support" }), 1);
  // {} validates against neither; both shapes fit: the user's pick wins, else the first.
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, {}, 1), 1);
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, {}), 0);
  // Invalid but shaped like a team (additionalProperties: false rules out User).
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, { team: "nobody" }, 0), 1);
  // Fits none: the UI shows it as JSON.
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, "u_ada"), undefined);
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, { user_id: "u_a", team: "support" }), undefined);
  assert.equal(pickBranch(ASSIGN_SCHEMA, b, undefined, 1), 1);
});

test("fitsNode: the declared type (integers whole), enum and const membership, null when nullable", () => {
  const m = buildFormModel({
    type: "object",
    properties: {
      s: { type: "string" },
      i: { type: "integer" },
      e: { enum: [1, "a"] },
      k: { const: { x: 1 } },
      ns: { type: ["string", "null"] },
    },
  }).node as Of<"object">;
  const [s, i, e, k, ns] = m.properties.map((p) => p.node);
  assert.deepEqual([fitsNode(s, "x"), fitsNode(s, 3), fitsNode(s, null)], [true, false, false]);
  assert.deepEqual([fitsNode(i, 3), fitsNode(i, 3.5), fitsNode(i, "3")], [true, false, false]);
  assert.deepEqual([fitsNode(e, 1), fitsNode(e, "a"), fitsNode(e, "1")], [true, true, false]);
  assert.deepEqual([fitsNode(k, { x: 1 }), fitsNode(k, { x: 2 })], [true, false]);
  assert.equal(fitsNode(ns, null), true);
});

test("emptyValue and newItem: consts filled in, nothing invented", () => {
  const m = buildFormModel({
    type: "object",
    properties: { kind: { const: "user" }, name: { type: "string" }, tags: { type: "array" }, sub: { type: "object" } },
    required: ["tags", "sub", "name"],
  }).node;
  assert.deepEqual(emptyValue(m), { kind: "user", tags: [], sub: {} });
  const item = (schema: unknown) => newItem(buildFormModel(schema).node);
  assert.equal(item({ type: "string" }), "");
  assert.equal(item({ type: "boolean" }), false);
  assert.equal(item({ type: "number" }), 0);
  assert.equal(item({ type: "integer", minimum: 3 }), 3);
  assert.equal(item({ enum: ["b", "a"] }), "b");
  assert.equal(item({}), null);
  assert.equal(item({ type: "number", default: 5 }), 5);
  assert.deepEqual(item({ type: "object", properties: { k: { const: 1 } } }), { k: 1 });
});

test("fillDefaults: absent fields get their default, present ones are kept, the rest untouched (same object when nothing to fill)", () => {
  const m = buildFormModel({
    type: "object",
    properties: {
      limit: { type: "integer", default: 10 },
      status: { type: "string", default: "open" },
      opts: { type: "object", properties: { deep: { type: "boolean", default: true } } },
      req: { type: "object", properties: { deep: { type: "boolean", default: true } } },
      list: { type: "array", items: { type: "object", properties: { n: { type: "number", default: 1 } } } },
    },
    required: ["req"],
  });
  const value = { status: "closed", unknown: { keep: [1, 2] }, list: [{}, { n: 3 }] };
  assert.deepEqual(fillDefaults(m, value), {
    status: "closed",
    unknown: { keep: [1, 2] },
    list: [{ n: 1 }, { n: 3 }],
    limit: 10,
    req: { deep: true },
  });
  assert.deepEqual(value, { status: "closed", unknown: { keep: [1, 2] }, list: [{}, { n: 3 }] }, "the input is not changed");
  const full = { limit: 1, status: "x", req: { deep: false }, list: [] };
  assert.equal(fillDefaults(m, full), full);
  // Inside a oneOf: the branch the value belongs to.
  const withChoice = buildFormModel({
    type: "object",
    properties: {
      a: { oneOf: [{ type: "object", properties: { k: { const: 1 }, d: { default: "x" } }, required: ["k"] }, { type: "string" }] },
    },
  });
  assert.deepEqual(fillDefaults(withChoice, { a: { k: 1 } }), { a: { k: 1, d: "x" } });
  assert.deepEqual(fillDefaults(withChoice, { a: "s" }), { a: "s" });
});

test("withKey keeps the key order, removes on undefined; renameKey keeps the place; moveItem", () => {
  const o = { a: 1, b: 2, c: 3 };
  assert.deepEqual(Object.keys(withKey(o, "b", 9)), ["a", "b", "c"]);
  assert.deepEqual(withKey(o, "b", undefined), { a: 1, c: 3 });
  assert.equal(withKey(o, "z", undefined), o);
  assert.deepEqual(Object.keys(withKey(o, "d", 4)), ["a", "b", "c", "d"]);
  assert.deepEqual(Object.entries(renameKey(o, "b", "x")), [
    ["a", 1],
    ["x", 2],
    ["c", 3],
  ]);
  assert.deepEqual(moveItem(["a", "b", "c"], 0, 2), ["b", "c", "a"]);
  assert.deepEqual(moveItem(["a", "b", "c"], 2, 1), ["a", "c", "b"]);
});
