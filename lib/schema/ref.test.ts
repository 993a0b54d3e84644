import { test } from "node:test";
import assert from "node:assert/strict";
import { collectRefs, deref, getByPointer, isNetworkRef, lookupRef } from "./ref.ts";

const root = {
  type: "object",
  $defs: {
    Address: { type: "object", properties: { city: { type: "string" } } },
    Alias: { $ref: "#/$defs/Address" },
    node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } },
    "a/b": { type: "string" },
    "t~x": { type: "integer" },
    selfLoop: { $ref: "#/$defs/selfLoop" },
    anchored: { $anchor: "here", type: "boolean" },
  },
  definitions: { legacy: { type: "number" } },
};

test("resolves $defs, definitions and escaped pointer tokens", () => {
  assert.deepEqual(lookupRef(root, "#/$defs/Address"), root.$defs.Address);
  assert.deepEqual(lookupRef(root, "#/definitions/legacy"), { type: "number" });
  assert.deepEqual(lookupRef(root, "#/$defs/a~1b"), { type: "string" });
  assert.deepEqual(lookupRef(root, "#/$defs/t~0x"), { type: "integer" });
  assert.deepEqual(lookupRef(root, "#/$defs/a%2Fb"), undefined, "percent-decoded / is not a separator but a token char");
  assert.deepEqual(lookupRef(root, "#here"), root.$defs.anchored);
  assert.equal(lookupRef(root, "#"), root);
});

test("getByPointer handles arrays and missing steps", () => {
  assert.equal(getByPointer({ a: [1, { b: 2 }] }, "/a/1/b"), 2);
  assert.equal(getByPointer({ a: [1] }, "/a/01"), undefined);
  assert.equal(getByPointer({ a: 1 }, "/a/b"), undefined);
  assert.equal(getByPointer({ a: 1 }, "a"), undefined);
});

test("deref follows chains and names the ref", () => {
  const d = deref(root, { $ref: "#/$defs/Alias" });
  assert.ok("schema" in d);
  assert.deepEqual(d.schema, root.$defs.Address);
  assert.equal(d.ref, "#/$defs/Address");
  assert.equal(d.refName, "Address");
  assert.deepEqual(d.trail, ["#/$defs/Alias", "#/$defs/Address"]);
});

test("deref reports cycles instead of recursing", () => {
  const first = deref(root, { $ref: "#/$defs/node" });
  assert.ok("schema" in first);
  const inner = (first.schema as { properties: { next: unknown } }).properties.next;
  assert.deepEqual(deref(root, inner, first.trail), { cycle: "#/$defs/node" });
  assert.deepEqual(deref(root, { $ref: "#/$defs/selfLoop" }), { cycle: "#/$defs/selfLoop" });
});

test("network and relative refs are external, never fetched; missing refs are reported", () => {
  assert.deepEqual(deref(root, { $ref: "https://example.com/s.json" }), { external: "https://example.com/s.json" });
  assert.deepEqual(deref(root, { $ref: "other.json#/x" }), { external: "other.json#/x" });
  assert.deepEqual(deref(root, { $ref: "#/$defs/nope" }), { missing: "#/$defs/nope" });
  assert.equal(isNetworkRef("https://x/y"), true);
  assert.equal(isNetworkRef("//x/y"), true);
  assert.equal(isNetworkRef("#/x"), false);
});

test("refs through the root's $id are local", () => {
  const withId = { $id: "https://ex.com/s", $defs: { a: { type: "string" } } };
  const d = deref(withId, { $ref: "https://ex.com/s#/$defs/a" });
  assert.ok("schema" in d);
  assert.deepEqual(d.schema, { type: "string" });
});

test("sibling keywords of $ref are kept (annotations override)", () => {
  const d = deref(root, { $ref: "#/$defs/Address", description: "Where to ship", required: ["city"] });
  assert.ok("schema" in d);
  assert.equal((d.schema as Record<string, unknown>).description, "Where to ship");
  assert.deepEqual((d.schema as Record<string, unknown>).required, ["city"]);
});

test("non-ref schemas pass through; collectRefs finds nested refs", () => {
  assert.deepEqual(deref(root, { type: "string" }), { schema: { type: "string" }, trail: [] });
  assert.deepEqual(deref(root, true), { schema: true, trail: [] });
  assert.deepEqual(collectRefs(root).sort(), ["#/$defs/Address", "#/$defs/node", "#/$defs/selfLoop"]);
});

test("along a chain of refs the outermost annotation wins; a clashing constraint is kept through allOf", () => {
  const chain = {
    $defs: { Base: { type: "string", description: "base", maxLength: 5 }, Mid: { $ref: "#/$defs/Base", description: "mid", title: "Mid" } },
  };
  const d = deref(chain, { $ref: "#/$defs/Mid", description: "outer", maxLength: 3 });
  assert.ok("schema" in d);
  assert.deepEqual(d.schema, { type: "string", description: "outer", title: "Mid", maxLength: 5, allOf: [{ maxLength: 3 }] });
});

test("a ref to a boolean schema: true takes the siblings, false stays false", () => {
  const bools = { $defs: { any: true, none: false } };
  assert.deepEqual(deref(bools, { $ref: "#/$defs/any", description: "d" }), {
    schema: { description: "d" },
    ref: "#/$defs/any",
    refName: "any",
    trail: ["#/$defs/any"],
  });
  const none = deref(bools, { $ref: "#/$defs/none", description: "d" });
  assert.ok("schema" in none);
  assert.equal(none.schema, false);
});

test("a $anchor ref and a percent-encoded fragment resolve", () => {
  const d = deref(root, { $ref: "#here" });
  assert.ok("schema" in d);
  assert.deepEqual(d.schema, root.$defs.anchored);
  assert.deepEqual(lookupRef(root, "#/$defs/a~1b"), { type: "string" });
  assert.deepEqual(lookupRef({ $defs: { "a b": { type: "null" } } }, "#/$defs/a%20b"), { type: "null" });
  assert.equal(lookupRef(root, "#/$defs/%E0%A4%A"), undefined);
});
