import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeHeaderValue, encodeHeaderValue, paramHeaders, scanHeaderDeclarations } from "./x-mcp-header.ts";

test("the spec's encoding examples", () => {
  assert.equal(encodeHeaderValue("us-west1"), "us-west1");
  assert.equal(encodeHeaderValue("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
  assert.equal(encodeHeaderValue(" padded "), "=?base64?IHBhZGRlZCA=?=");
  assert.equal(encodeHeaderValue("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
  assert.equal(encodeHeaderValue("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  assert.equal(decodeHeaderValue("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
  assert.equal(decodeHeaderValue("plain"), undefined);
});

test("valid declarations along a chain of properties", () => {
  const scan = scanHeaderDeclarations({
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      opts: { type: "object", properties: { dry: { type: "boolean", "x-mcp-header": "Dry-Run" } } },
    },
  });
  assert.deepEqual(scan.problems, []);
  assert.deepEqual(
    scan.declarations.map((d) => d.header),
    ["Mcp-Param-Region", "Mcp-Param-Dry-Run"],
  );
  assert.deepEqual(paramHeaders(scan.declarations, { region: "eu", opts: { dry: false } }), {
    "Mcp-Param-Region": "eu",
    "Mcp-Param-Dry-Run": "false",
  });
  assert.deepEqual(paramHeaders(scan.declarations, { region: null }), {});
});

test("every validity rule is enforced", () => {
  const bad = (props: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    scanHeaderDeclarations({ type: "object", properties: props, ...extra }).problems;
  assert.match(bad({ a: { type: "string", "x-mcp-header": "" } })[0], /must not be empty/);
  assert.match(bad({ a: { type: "string", "x-mcp-header": "Re gion" } })[0], /not an HTTP token/);
  assert.match(bad({ a: { type: "string", "x-mcp-header": "A\r\nB" } })[0], /control characters/);
  assert.match(bad({ a: { type: "number", "x-mcp-header": "A" } })[0], /not number/);
  assert.match(
    bad({ a: { type: "string", "x-mcp-header": "Dup" }, b: { type: "string", "x-mcp-header": "dup" } })[0],
    /unique ignoring case/,
  );
  assert.match(bad({ a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } }).join(), /reachable/);
  assert.match(bad({ a: { oneOf: [{ type: "string", "x-mcp-header": "A" }] } }).join(), /reachable/);
  assert.match(bad({}, { $defs: { d: { type: "string", "x-mcp-header": "A" } } }).join(), /reachable/);
});
