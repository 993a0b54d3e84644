import { test } from "node:test";
import assert from "node:assert/strict";
import { validateAgainst } from "./validate.ts";

const issueArgs = {
  type: "object",
  properties: { status: { type: "string", enum: ["open", "in_progress", "closed"] }, limit: { type: "integer", minimum: 1 } },
  required: ["status"],
  additionalProperties: false,
};

test("enum violations name the field and the allowed values", () => {
  const r = validateAgainst(issueArgs, { status: "done" });
  assert.equal(r.ok, false);
  assert.deepEqual(
    r.diagnostics.map((d) => [d.pointer, d.message]),
    [["/status", "status must be one of open, in_progress, closed"]],
  );
});

test("unexpected properties point at the key", () => {
  const r = validateAgainst(issueArgs, { status: "open", colour: "red" });
  assert.equal(r.diagnostics[0].pointer, "/colour");
  assert.equal(r.diagnostics[0].onKey, true);
});

test("draft-07 schemas compile with the draft-07 validator", () => {
  const r = validateAgainst({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["q"] }, {});
  assert.equal(r.schemaError, undefined);
  assert.match(r.diagnostics[0].message, /missing required property "q"/);
});

test("union types are accepted (strict mode would throw)", () => {
  assert.equal(validateAgainst({ type: ["integer", "string"] }, "x").ok, true);
  assert.equal(validateAgainst({ type: ["integer", "string"] }, true).ok, false);
});

test("local $ref and oneOf are resolved", () => {
  const schema = {
    $defs: { a: { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] } },
    type: "object",
    properties: { x: { oneOf: [{ $ref: "#/$defs/a" }, { type: "string" }] } },
  };
  assert.equal(validateAgainst(schema, { x: { kind: "a" } }).ok, true);
  assert.equal(validateAgainst(schema, { x: 3 }).ok, false);
});

test("an uncompilable schema is a diagnostic, not a throw", () => {
  const r = validateAgainst({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, {});
  assert.equal(r.ok, false);
  assert.match(r.schemaError ?? "", /cannot be compiled/);
});

test("a network $ref is never fetched", () => {
  const r = validateAgainst({ $ref: "https://example.com/schema.json" }, {});
  assert.match(r.schemaError ?? "", /cannot be compiled/);
});
