import { test } from "node:test";
import assert from "node:assert/strict";
import { disallowedNameChars, isClaudeToolName, isSpecToolName, toClaudeToolName } from "./tool-names.ts";

test("spec names: letters, digits, _ - . and 1–128 long", () => {
  for (const ok of ["getUser", "DATA_EXPORT_v2", "admin.tools.list", "a-b", "x".repeat(128)]) assert.equal(isSpecToolName(ok), true, ok);
  for (const bad of ["", "x".repeat(129), "get user", "a,b", "a/b", "émoji", 7]) assert.equal(isSpecToolName(bad), false, String(bad));
});

test("Claude names reject dots; mapping replaces them", () => {
  assert.equal(isClaudeToolName("admin.tools.list"), false);
  assert.equal(toClaudeToolName("admin.tools.list"), "admin_tools_list");
  assert.equal(toClaudeToolName("get user/é"), "get_user__");
  assert.equal(toClaudeToolName(""), "tool");
  assert.equal(isClaudeToolName(toClaudeToolName("a".repeat(200))), true);
});

test("disallowedNameChars names spaces and code points", () => {
  assert.deepEqual(disallowedNameChars("get user,\u200bx"), ["space", ",", "U+200B"]);
});
