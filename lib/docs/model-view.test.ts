import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { claudeNameMap, claudeToolDefinition, estimateTokens, openAiFunctionDefinition } from "./model-view.ts";

const tool: Tool = {
  name: "get_weather",
  description: "Get the weather.",
  inputSchema: { type: "object", properties: { city: { type: "string" } } },
};

test("Claude and OpenAI definitions carry name, description and schema", () => {
  const claude = claudeToolDefinition(tool);
  const openai = openAiFunctionDefinition(tool);
  assert.deepEqual(claude.definition, { name: "get_weather", description: "Get the weather.", input_schema: tool.inputSchema });
  assert.equal(claude.nameValid, true);
  assert.equal(claude.mappedName, undefined);
  assert.deepEqual(openai.definition, {
    type: "function",
    function: { name: "get_weather", description: "Get the weather.", parameters: tool.inputSchema },
  });
  assert.equal(claude.tokens, Math.ceil(JSON.stringify(claude.definition).length / 4));
  assert.equal(JSON.parse(claude.json).name, "get_weather");
});

test("dotted names are mapped", () => {
  const c = claudeToolDefinition({ ...tool, name: "weather.get" });
  assert.equal(c.nameValid, false);
  assert.equal(c.mappedName, "weather_get");
  assert.equal(c.definition.name, "weather_get");
  const o = openAiFunctionDefinition({ ...tool, name: "x".repeat(70) });
  assert.equal(o.nameValid, false);
  assert.equal(o.definition.function.name.length, 64);
});

test("missing description is omitted; odd schemas fall back to an object", () => {
  const c = claudeToolDefinition({ name: "t", inputSchema: null as never });
  assert.deepEqual(c.definition, { name: "t", input_schema: { type: "object" } });
});

test("claudeNameMap keeps mapped names unique", () => {
  const m = claudeNameMap(["a.b", "a_b", "a-b", "a/b"]);
  assert.deepEqual(
    [...m.entries()],
    [
      ["a.b", "a_b_2"],
      ["a_b", "a_b"],
      ["a-b", "a-b"],
      ["a/b", "a_b_3"],
    ],
  );
});

test("estimateTokens", () => {
  assert.equal(estimateTokens(""), 0);
  assert.equal(estimateTokens("12345"), 2);
});
