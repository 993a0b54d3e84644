import { test } from "node:test";
import assert from "node:assert/strict";
import { exampleArgs, matches, sampleFromPattern } from "./example-args.ts";
import { validateAgainst } from "../schema/validate.ts";

function assertValid(schema: unknown, value: unknown): void {
  const r = validateAgainst(schema, value);
  assert.equal(r.schemaError, undefined);
  assert.deepEqual(r.diagnostics, [], `${JSON.stringify(value)} should validate`);
  assert.equal(r.ok, true);
}

const tricky: Record<string, unknown> = {
  weather: { type: "object", properties: { location: { type: "string", description: "City" } }, required: ["location"] },
  noParams: { type: "object", additionalProperties: false },
  formats: {
    type: "object",
    properties: {
      email: { type: "string", format: "email" },
      site: { type: "string", format: "uri" },
      at: { type: "string", format: "date-time" },
      id: { type: "string", format: "uuid" },
      day: { type: "string", format: "date" },
    },
    required: ["email", "site", "at", "id", "day"],
    additionalProperties: false,
  },
  bounds: {
    type: "object",
    properties: {
      limit: { type: "integer", minimum: 10, maximum: 50, multipleOf: 7 },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      neg: { type: "integer", maximum: -5 },
      code: { type: "string", minLength: 12, maxLength: 12 },
      slug: { type: "string", pattern: "^[a-z][a-z0-9-]{2,20}$" },
      ver: { type: "string", pattern: "^v\\d+\\.\\d+$" },
      tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 3, uniqueItems: true },
    },
    required: ["limit", "ratio", "neg", "code", "slug", "ver", "tags"],
  },
  refs: {
    type: "object",
    $defs: {
      Address: {
        type: "object",
        properties: { city: { type: "string", minLength: 2 }, zip: { type: "string", pattern: "^\\d{5}$" } },
        required: ["city", "zip"],
      },
      Node: { type: "object", properties: { value: { type: "integer" }, next: { $ref: "#/$defs/Node" } }, required: ["value"] },
    },
    properties: {
      home: { $ref: "#/$defs/Address" },
      list: { $ref: "#/$defs/Node" },
      many: { type: "array", items: { $ref: "#/$defs/Address" }, minItems: 2 },
    },
    required: ["home", "list", "many"],
  },
  oneOfOverlap: {
    type: "object",
    properties: {
      contact: { oneOf: [{ type: "string" }, { type: "string", format: "email" }, { type: "integer" }] },
      shape: {
        oneOf: [
          {
            type: "object",
            properties: { kind: { const: "circle" }, r: { type: "number", minimum: 1 } },
            required: ["kind", "r"],
            additionalProperties: false,
          },
          {
            type: "object",
            properties: { kind: { const: "square" }, side: { type: "number" } },
            required: ["kind", "side"],
            additionalProperties: false,
          },
        ],
      },
    },
    required: ["contact", "shape"],
  },
  allOfMerge: {
    allOf: [
      { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      { properties: { b: { type: "integer", minimum: 3 } }, required: ["b"] },
      { properties: { a: { minLength: 9 } } },
    ],
  },
  ifThenElse: {
    type: "object",
    properties: { kind: { type: "string", enum: ["user", "team"] }, userId: { type: "string" }, teamId: { type: "string" } },
    required: ["kind"],
    if: { properties: { kind: { const: "user" } } },
    then: { required: ["userId"] },
    else: { required: ["teamId"] },
  },
  defaultsAndExamples: {
    type: "object",
    properties: {
      mode: { type: "string", enum: ["fast", "slow"], default: "slow" },
      n: { type: "integer", examples: [42] },
      bad: { type: "integer", minimum: 5, default: 1 },
    },
    required: ["mode", "n", "bad"],
  },
  unionsAndNull: {
    type: "object",
    properties: {
      maybe: { type: ["null", "string"], minLength: 3 },
      anyThing: true,
      tuple: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], items: false, minItems: 2 },
    },
    required: ["maybe", "anyThing", "tuple"],
  },
  draft07: {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    definitions: { Id: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } },
    properties: {
      id: { $ref: "#/definitions/Id" },
      pair: { type: "array", items: [{ type: "boolean" }, { type: "null" }], additionalItems: false },
    },
    required: ["id", "pair"],
  },
  minProps: { type: "object", minProperties: 2, additionalProperties: { type: "integer" } },
  dependent: {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "string" } },
    required: ["a"],
    dependentRequired: { a: ["b"] },
  },
};

for (const [name, schema] of Object.entries(tricky)) {
  test(`example for "${name}" validates (required only and with optional)`, () => {
    assertValid(schema, exampleArgs(schema));
    assertValid(schema, exampleArgs(schema, { includeOptional: true }));
  });
}

test("deterministic", () => {
  for (const schema of Object.values(tricky)) assert.deepEqual(exampleArgs(schema), exampleArgs(schema));
});

test("picks sensible values: formats, defaults, enum, const, examples", () => {
  const f = exampleArgs(tricky.formats) as Record<string, unknown>;
  assert.equal(f.email, "user@example.com");
  assert.equal(f.site, "https://example.com");
  assert.equal(f.at, "2026-01-01T00:00:00Z");
  const d = exampleArgs(tricky.defaultsAndExamples) as Record<string, unknown>;
  assert.deepEqual(d, { mode: "slow", n: 42, bad: 5 });
  const s = exampleArgs(tricky.oneOfOverlap) as Record<string, unknown>;
  assert.equal(s.contact, 1, "strings match two oneOf branches, so the integer branch is chosen");
  assert.deepEqual(s.shape, { kind: "circle", r: 1 });
});

test("optional properties only when asked, and only cheap ones", () => {
  const schema = {
    type: "object",
    properties: { q: { type: "string" }, limit: { type: "integer" }, filter: { type: "object", properties: { x: { type: "string" } } } },
    required: ["q"],
  };
  assert.deepEqual(exampleArgs(schema), { q: "example" });
  assert.deepEqual(exampleArgs(schema, { includeOptional: true }), { q: "example", limit: 1 });
});

test("no-parameter and garbage schemas give {}", () => {
  assert.deepEqual(exampleArgs({ type: "object" }), {});
  assert.deepEqual(exampleArgs(null), {});
  assert.deepEqual(exampleArgs({ $ref: "https://example.com/x.json" }), {});
});

test("arrays of objects get a valid item", () => {
  const schema = {
    type: "object",
    properties: {
      rows: { type: "array", minItems: 1, items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    },
    required: ["rows"],
  };
  const args = exampleArgs(schema);
  assertValid(schema, args);
  assert.equal((args.rows as { id: unknown }[])[0]?.id !== undefined, true);
});

test("sampleFromPattern handles common shapes", () => {
  assert.equal(sampleFromPattern("^[a-z]+$"), "a");
  assert.equal(sampleFromPattern("^\\d{3}-\\d{2}$"), "111-11");
  assert.equal(sampleFromPattern("^(foo|bar)_x$"), "foo_x");
  assert.equal(sampleFromPattern("^(?=x)"), undefined);
});

test("matches is a usable structural check", () => {
  const ctx = { root: tricky.bounds };
  assert.equal(matches(ctx, { type: "integer", minimum: 3 }, 2), false);
  assert.equal(matches(ctx, { oneOf: [{ type: "string" }, { type: "string" }] }, "x"), false);
  assert.equal(matches(ctx, { type: "object", required: ["a"] }, {}), false);
});
