import { test } from "node:test";
import assert from "node:assert/strict";
import { buildParamTree, constraintsOf, MAX_DEPTH, MAX_ROWS, walkRows, type ParamRow } from "./param-rows.ts";

function byName(rows: ParamRow[], name: string): ParamRow {
  const row = rows.find((r) => r.name === name);
  assert.ok(row, `row ${name} exists`);
  return row;
}

test("flat properties: types, required, description, enum, default, format, constraints, header", () => {
  const tree = buildParamTree({
    type: "object",
    properties: {
      region: { type: "string", description: "Region", "x-mcp-header": "Region", enum: ["us", "eu"] },
      limit: { type: "integer", minimum: 1, maximum: 50, default: 10 },
      q: { type: "string", minLength: 1, maxLength: 200, pattern: "^a" },
      when: { type: "string", format: "date-time", examples: ["2026-01-01T00:00:00Z"], deprecated: true },
      id: { type: ["integer", "string"] },
      mode: { const: "a" },
      nothing: { default: null },
    },
    required: ["region"],
  });
  assert.equal(tree.noParameters, false);
  assert.equal(tree.rootNotObject, false);
  assert.equal(tree.additionalProperties, "allowed");
  const region = byName(tree.rows, "region");
  assert.deepEqual(
    [region.path, region.type, region.required, region.xMcpHeader, region.enum],
    ["/region", "string", true, "Region", ["us", "eu"]],
  );
  const limit = byName(tree.rows, "limit");
  assert.deepEqual([limit.required, limit.default, limit.constraints], [false, 10, ["≥ 1", "≤ 50"]]);
  assert.deepEqual(
    constraintsOf({ type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }),
    [],
    "zod's safe-integer bounds are noise",
  );
  assert.deepEqual(constraintsOf({ type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), ["≥ 0"]);
  assert.deepEqual(byName(tree.rows, "q").constraints, ["length 1–200", "pattern ^a"]);
  const when = byName(tree.rows, "when");
  assert.deepEqual([when.format, when.examples, when.deprecated], ["date-time", ["2026-01-01T00:00:00Z"], true]);
  assert.equal(byName(tree.rows, "id").type, "integer | string");
  assert.equal(byName(tree.rows, "mode").type, 'const "a"');
  const nothing = byName(tree.rows, "nothing");
  assert.equal(nothing.hasDefault, true);
  assert.equal(nothing.default, null);
});

test("no-parameter tools", () => {
  const strict = buildParamTree({ type: "object", additionalProperties: false });
  assert.equal(strict.noParameters, true);
  assert.equal(strict.additionalProperties, "forbidden");
  assert.equal(buildParamTree({ type: "object", properties: {} }).noParameters, true);
  assert.equal(buildParamTree({}).noParameters, true);
  assert.equal(buildParamTree({}).rootNotObject, true);
});

test("nested objects and arrays", () => {
  const tree = buildParamTree({
    type: "object",
    properties: {
      address: {
        type: "object",
        properties: { city: { type: "string" }, zip: { type: "string" } },
        required: ["city"],
        additionalProperties: false,
      },
      tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 5, uniqueItems: true },
      users: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } },
      colors: { type: "array", items: { type: "string", enum: ["red", "blue"] } },
      point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
    },
  });
  const address = byName(tree.rows, "address");
  assert.equal(address.type, "object");
  assert.deepEqual(
    address.children.map((c) => [c.name, c.path, c.required]),
    [
      ["city", "/address/city", true],
      ["zip", "/address/zip", false],
    ],
  );
  assert.ok(address.constraints.includes("no other properties"));
  const tags = byName(tree.rows, "tags");
  assert.equal(tags.type, "array<string>");
  assert.deepEqual(tags.constraints, ["1–5 items", "unique items"]);
  assert.equal(tags.children.length, 0);
  const users = byName(tree.rows, "users");
  assert.equal(users.type, "array<object>");
  assert.deepEqual(
    users.children.map((c) => c.path),
    ["/users/-/name"],
  );
  const colors = byName(tree.rows, "colors");
  assert.deepEqual(
    colors.children.map((c) => [c.name, c.path, c.enum]),
    [["items", "/colors/-", ["red", "blue"]]],
  );
  const point = byName(tree.rows, "point");
  assert.equal(point.type, "tuple [number, number]");
  assert.deepEqual(
    point.children.map((c) => c.path),
    ["/point/0", "/point/1"],
  );
  assert.ok(point.constraints.includes("no extra items"));
});

test("oneOf/anyOf/allOf and if/then/else become labelled alternatives", () => {
  const tree = buildParamTree({
    type: "object",
    properties: {
      shape: {
        oneOf: [
          { type: "object", properties: { kind: { const: "circle" }, r: { type: "number" } }, required: ["kind", "r"] },
          { type: "object", title: "Square", properties: { kind: { const: "square" }, side: { type: "number" } } },
        ],
      },
      target: {
        anyOf: [
          { type: "string", format: "uri" },
          { type: "integer", minimum: 0 },
        ],
      },
      simple: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    if: { properties: { target: { type: "string" } } },
    then: { required: ["shape"] },
    else: { required: ["simple"] },
  });
  const shape = byName(tree.rows, "shape");
  assert.equal(shape.type, "oneOf");
  assert.deepEqual(
    shape.alternatives?.map((a) => [a.kind, a.label]),
    [
      ["oneOf", 'Option 1: kind = "circle"'],
      ["oneOf", "Option 2: Square"],
    ],
  );
  assert.deepEqual(
    shape.alternatives?.[0].rows.map((r) => [r.name, r.path, r.required]),
    [
      ["kind", "/shape/kind", true],
      ["r", "/shape/r", true],
    ],
  );
  const target = byName(tree.rows, "target");
  assert.equal(target.type, "anyOf");
  assert.equal(target.alternatives?.length, 2);
  assert.equal(target.alternatives?.[0].rows[0].format, "uri");
  const simple = byName(tree.rows, "simple");
  assert.equal(simple.type, "string | null");
  assert.equal(simple.alternatives, undefined);
  assert.deepEqual(
    tree.rootAlternatives?.map((a) => a.kind),
    ["if", "then", "else"],
  );
  assert.deepEqual(
    tree.rootAlternatives?.[1].rows.map((r) => [r.name, r.type, r.required]),
    [["shape", "(see above)", true]],
  );
});

test("local $ref/$defs resolved, cycles marked, external refs reported", () => {
  const tree = buildParamTree({
    type: "object",
    $defs: {
      Address: { type: "object", properties: { city: { type: "string" } } },
      Node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/Node" } } },
    },
    properties: {
      home: { $ref: "#/$defs/Address", description: "Home address" },
      list: { $ref: "#/$defs/Node" },
      addresses: { type: "array", items: { $ref: "#/$defs/Address" } },
      remote: { $ref: "https://example.com/schema.json" },
      broken: { $ref: "#/$defs/Missing" },
    },
  });
  const home = byName(tree.rows, "home");
  assert.deepEqual([home.refName, home.description, home.children[0].name], ["Address", "Home address", "city"]);
  const list = byName(tree.rows, "list");
  const next = byName(list.children, "next");
  assert.equal(next.cycleRef, "#/$defs/Node");
  assert.equal(next.type, "Node");
  assert.equal(next.children.length, 0);
  assert.equal(byName(tree.rows, "addresses").type, "array<Address>");
  assert.equal(byName(tree.rows, "remote").externalRef, "https://example.com/schema.json");
  assert.equal(byName(tree.rows, "broken").missingRef, "#/$defs/Missing");
});

test("additionalProperties schemas, patternProperties and boolean schemas", () => {
  const tree = buildParamTree({
    type: "object",
    properties: {
      labels: { type: "object", additionalProperties: { type: "string", maxLength: 63 } },
      anything: true,
      nothing: false,
      byPattern: { type: "object", patternProperties: { "^x-": { type: "integer" } } },
    },
  });
  const labels = byName(tree.rows, "labels");
  assert.equal(labels.additionalProperties, "schema");
  assert.deepEqual(
    labels.children.map((c) => [c.name, c.path, c.role, c.constraints]),
    [["*", "/labels/*", "additional", ["length ≤ 63"]]],
  );
  assert.equal(byName(tree.rows, "anything").type, "any");
  assert.deepEqual([byName(tree.rows, "nothing").type, byName(tree.rows, "nothing").constraints], ["never", ["must be absent"]]);
  assert.deepEqual(
    byName(tree.rows, "byPattern").children.map((c) => [c.name, c.role]),
    [["/^x-/", "pattern"]],
  );
});

test("non-object roots (output schemas) give a single value row", () => {
  const tree = buildParamTree({ type: "array", items: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } });
  assert.equal(tree.rootNotObject, true);
  assert.equal(tree.rows.length, 1);
  assert.equal(tree.rows[0].type, "array<object>");
  assert.deepEqual(
    tree.rows[0].children.map((c) => [c.path, c.required]),
    [["/-/id", true]],
  );
});

test("hostile schemas are capped by depth and row count", () => {
  let deep: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < 100; i++) deep = { type: "object", properties: { n: deep } };
  const tree = buildParamTree(deep);
  assert.equal(tree.truncated, true);
  let maxDepth = 0;
  walkRows(tree.rows, (_r, d) => (maxDepth = Math.max(maxDepth, d)));
  assert.ok(maxDepth < MAX_DEPTH, `depth ${maxDepth}`);

  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 3000; i++) wide[`p${i}`] = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } };
  const big = buildParamTree({ type: "object", properties: wide });
  assert.equal(big.truncated, true);
  assert.ok(big.rowCount <= MAX_ROWS);

  // Exponential fan-out through refs stays bounded.
  const fan = {
    type: "object",
    $defs: {
      a: { type: "object", properties: { x: { $ref: "#/$defs/b" }, y: { $ref: "#/$defs/b" } } },
      b: { type: "object", properties: { x: { $ref: "#/$defs/c" }, y: { $ref: "#/$defs/c" } } },
      c: { type: "object", properties: { x: { $ref: "#/$defs/a" }, y: { $ref: "#/$defs/a" } } },
    },
    properties: { root: { $ref: "#/$defs/a" } },
  };
  const t = buildParamTree(fan);
  assert.ok(t.rowCount <= MAX_ROWS);
});

test("constraintsOf covers exclusive bounds, draft-04 booleans and property counts", () => {
  assert.deepEqual(constraintsOf({ exclusiveMinimum: 0, exclusiveMaximum: 100, multipleOf: 5 }), ["> 0", "< 100", "multiple of 5"]);
  assert.deepEqual(constraintsOf({ minimum: 0, exclusiveMinimum: true }), ["> 0"]);
  assert.deepEqual(constraintsOf({ minItems: 2 }), ["at least 2 items"]);
  assert.deepEqual(constraintsOf({ minItems: 3, maxItems: 3 }), ["exactly 3 items"]);
  assert.deepEqual(constraintsOf({ minLength: 4, maxLength: 4 }), ["length 4"]);
  assert.deepEqual(constraintsOf({ maxProperties: 1 }), ["at most 1 property"]);
});

test("garbage input does not throw", () => {
  for (const s of [
    null,
    42,
    "x",
    [],
    { type: 7 },
    { properties: [] },
    { type: "object", properties: { a: null } },
    { type: "object", required: "a" },
  ]) {
    assert.doesNotThrow(() => buildParamTree(s));
  }
});
