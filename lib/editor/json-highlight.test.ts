import { test } from "node:test";
import assert from "node:assert/strict";
import { highlightJson, MAX_HIGHLIGHT_CHARS } from "./json-highlight.ts";

test("tokens reproduce the input and classify keys, strings, numbers and literals", () => {
  const text = '{\n  "a" : [1.5, true, null, "x"],\n  "b": {}\n}';
  const tokens = highlightJson(text);
  assert.equal(tokens.map((t) => t.text).join(""), text);
  const cls = (t: string) => tokens.find((x) => x.text === t)?.cls;
  assert.equal(cls('"a"'), "key");
  assert.equal(cls('"x"'), "string");
  assert.equal(cls("1.5"), "number");
  assert.equal(cls("true"), "literal");
});

test("broken or non-JSON text is still shown verbatim", () => {
  for (const text of ['{"a": ', "not json at all", "event: x\ndata: {}\n", ""]) {
    assert.equal(
      highlightJson(text)
        .map((t) => t.text)
        .join(""),
      text,
    );
  }
});

test("very large text is one plain token", () => {
  const text = "1".repeat(MAX_HIGHLIGHT_CHARS + 1);
  assert.deepEqual(highlightJson(text), [{ text, cls: "plain" }]);
});
