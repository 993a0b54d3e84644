import { test } from "node:test";
import assert from "node:assert/strict";
import { initialRequestText } from "./initial-request.ts";
import { validateAgainst } from "../schema/validate.ts";

const tool = {
  name: "search_issues",
  inputSchema: {
    type: "object",
    properties: { query: { type: "string", minLength: 1 }, status: { enum: ["open", "closed"] } },
    required: ["query", "status"],
  },
};

test("prefills a tools/call whose arguments validate against the tool's schema", () => {
  const msg = JSON.parse(initialRequestText([tool], "search_issues"));
  assert.equal(msg.method, "tools/call");
  assert.equal(msg.params.name, "search_issues");
  assert.equal(validateAgainst(tool.inputSchema, msg.params.arguments).ok, true);
});

test("falls back to tools/list for an unknown or absent tool", () => {
  assert.equal(JSON.parse(initialRequestText([tool], "nope")).method, "tools/list");
  assert.equal(JSON.parse(initialRequestText([])).method, "tools/list");
});
