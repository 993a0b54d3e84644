import { test } from "node:test";
import assert from "node:assert/strict";
import { isSecretHeader, maskHeaders } from "./secrets.ts";

test("credentials are masked, keeping only the scheme and length", () => {
  const out = maskHeaders([["Authorization", "Bearer abc123"], ["Mcp-Method", "tools/call"], ["X-My-Token", "t"]]);
  assert.deepEqual(out, [["Authorization", "Bearer •••• (6 chars hidden)"], ["Mcp-Method", "tools/call"], ["X-My-Token", "•••• (1 chars hidden)"]]);
  assert.ok(!JSON.stringify(out).includes("abc123"));
});

test("user-declared secret header names are masked too", () => {
  assert.equal(isSecretHeader("X-Tenant", ["x-tenant"]), true);
  assert.equal(isSecretHeader("Mcp-Session-Id"), false);
});
