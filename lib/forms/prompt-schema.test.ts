import { test } from "node:test";
import assert from "node:assert/strict";
import { promptArgumentsSchema } from "./prompt-schema.ts";
import { validateAgainst } from "../schema/validate.ts";

test("a prompt's arguments become an object schema of strings, required ones listed", () => {
  const schema = promptArgumentsSchema({
    name: "review",
    arguments: [
      { name: "code", description: "The code to review", required: true },
      { name: "style", title: "Style guide" },
      { name: "code", description: "a duplicate is ignored" },
      { description: "no name: ignored" },
    ],
  });
  assert.deepEqual(schema, {
    type: "object",
    properties: { code: { type: "string", description: "The code to review" }, style: { type: "string", title: "Style guide" } },
    required: ["code"],
    additionalProperties: false,
  });
  assert.equal(validateAgainst(schema, { code: "x" }).ok, true);
  assert.equal(validateAgainst(schema, { code: "x", extra: "y" }).ok, false, "the prompt reads only the arguments it lists");
  assert.equal(validateAgainst(schema, { style: "x" }).ok, false);
  assert.equal(validateAgainst(schema, { code: 1 }).ok, false, "prompt arguments are strings");
});

test("a prompt without arguments takes none (no 'Add property'); one the list does not know takes any strings", () => {
  assert.deepEqual(promptArgumentsSchema({ name: "hello" }), { type: "object", properties: {}, additionalProperties: false });
  assert.deepEqual(promptArgumentsSchema(null), { type: "object", properties: {}, additionalProperties: { type: "string" } });
});
