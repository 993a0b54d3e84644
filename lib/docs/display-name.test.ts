import { test } from "node:test";
import assert from "node:assert/strict";
import { displayName, firstLine, hasDistinctTitle } from "./display-name.ts";

const schema = { type: "object" };

test("title wins over annotations.title and name", () => {
  assert.equal(displayName({ name: "get_weather", title: "Weather", annotations: { title: "Other" } }), "Weather");
});

test("annotations.title is used when title is absent or blank", () => {
  assert.equal(displayName({ name: "get_weather", annotations: { title: "Weather (ann)" } }), "Weather (ann)");
  assert.equal(displayName({ name: "get_weather", title: "  ", annotations: { title: "Weather (ann)" } }), "Weather (ann)");
});

test("falls back to the name", () => {
  assert.equal(displayName({ name: "get_weather", inputSchema: schema } as never), "get_weather");
  assert.equal(hasDistinctTitle({ name: "get_weather" }), false);
  assert.equal(hasDistinctTitle({ name: "get_weather", title: "Weather" }), true);
});

test("firstLine skips blank lines and strips markdown markers", () => {
  assert.equal(firstLine("\n\n# Search issues\nMore text"), "Search issues");
  assert.equal(firstLine("- a bullet\n- b"), "a bullet");
  assert.equal(firstLine("one\r\ntwo"), "one");
  assert.equal(firstLine(undefined), "");
  assert.equal(firstLine("   \n  "), "");
});
