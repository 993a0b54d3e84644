import { test } from "node:test";
import assert from "node:assert/strict";
import { buildFormModel } from "./form-model.ts";
import { formErrors } from "./form-errors.ts";
import { ASSIGN_SCHEMA } from "./testing/assign-schema.ts";

const model = buildFormModel(ASSIGN_SCHEMA);

test("errors are placed on the field of their instance path; a missing required property on its own field", () => {
  const e = formErrors(model, { title: "ab", issue_id: 0, assignee: { team: "support" } });
  assert.deepEqual(e.byField["/title"], ["title must be at least 3 characters long"]);
  assert.deepEqual(e.byField["/issue_id"], ["issue_id must be >= 1"]);
  assert.deepEqual(e.top, []);
  assert.deepEqual(formErrors(model, {}).byField, { "/title": ["required"], "/issue_id": ["required"], "/assignee": ["required"] });
});

test("inside a oneOf only the shown branch's problems count (not the other branch's, nor the summary)", () => {
  const e = formErrors(model, { title: "Bug", issue_id: 1, assignee: { user_id: "Ada" } });
  assert.deepEqual(e.byField, { "/assignee/user_id": ["user_id must match the pattern ^u_[a-z0-9_]{1,40}$"] });
  // The user picked Team and has not chosen yet: its required field, not the User branch's.
  assert.deepEqual(formErrors(model, { title: "Bug", issue_id: 1, assignee: {} }, { "/assignee": 1 }).byField, {
    "/assignee/team": ["required"],
  });
  assert.deepEqual(formErrors(model, { title: "Bug", issue_id: 1, assignee: {} }).byField, { "/assignee/user_id": ["required"] });
  // A value that fits no branch is one JSON field: its errors sit on it.
  const none = formErrors(model, { title: "Bug", issue_id: 1, assignee: 7 });
  assert.ok(none.byField["/assignee"]?.length, JSON.stringify(none));
});

test("unknown keys: the additionalProperties error sits on the key's (JSON) field; errors of no field are listed on top", () => {
  const e = formErrors(model, { title: "Bug", issue_id: 1, assignee: { team: "support" }, colour: "red" });
  assert.deepEqual(e.byField["/colour"], ['unexpected property "colour"; the schema allows no other properties']);
  const top = formErrors(buildFormModel({ type: "object", minProperties: 2, properties: { a: { type: "string" } } }), { a: "x" });
  assert.deepEqual(top.byField, {});
  assert.equal(top.top.length, 1);
  assert.match(top.top[0], /at least 2|fewer than 2/);
});

test("errors inside a part the form shows as JSON go to that field; an uncompilable schema says so on top", () => {
  const m = buildFormModel({
    type: "object",
    properties: { rule: { allOf: [{ type: "object", properties: { n: { type: "integer" } } }] } },
  });
  assert.deepEqual(Object.keys(formErrors(m, { rule: { n: "x" } }).byField), ["/rule"]);
  const broken = formErrors(buildFormModel({ type: "object", properties: { a: { type: "string", pattern: "(" } } }), {});
  assert.equal(broken.checked, false);
  assert.match(broken.top[0], /cannot be compiled/);
});

test("array items: errors on the item's field", () => {
  const e = formErrors(model, { title: "Bug", issue_id: 1, assignee: { team: "support" }, labels: ["a", 3, "c", "d"] });
  assert.deepEqual(e.byField["/labels/1"], ["1 must be string"]);
  assert.deepEqual(e.byField["/labels"], ["labels must have at most 3 items"]);
});

test("a root with an $id: branches are still checked on their own", () => {
  const m = buildFormModel({ ...ASSIGN_SCHEMA, $id: "https://example.com/assign.json" });
  const e = formErrors(m, { title: "Bug", issue_id: 1, assignee: { user_id: "Ada" } });
  assert.deepEqual(e.byField, { "/assignee/user_id": ["user_id must match the pattern ^u_[a-z0-9_]{1,40}$"] });
});
