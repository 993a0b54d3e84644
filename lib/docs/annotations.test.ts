import { test } from "node:test";
import assert from "node:assert/strict";
import { effectiveHints, effectiveHint, hintSummary, isEffectivelyDestructive } from "./annotations.ts";

test("no annotations: all defaults, described as may modify, destructive, not idempotent, open world", () => {
  const hints = effectiveHints({});
  assert.deepEqual(
    hints.map((h) => [h.key, h.value, h.source, h.meaningful, h.label]),
    [
      ["readOnlyHint", false, "default", true, "may modify"],
      ["destructiveHint", true, "default", true, "destructive"],
      ["idempotentHint", false, "default", true, "not idempotent"],
      ["openWorldHint", true, "default", true, "open world"],
    ],
  );
  assert.equal(hintSummary({}), "may modify, may be destructive, not idempotent, open world");
  assert.equal(isEffectivelyDestructive({}), true);
  assert.match(hints[0].explanation, /spec default is false/);
});

test("read-only makes destructive and idempotent not meaningful", () => {
  const tool = { annotations: { readOnlyHint: true, openWorldHint: false } };
  const hints = effectiveHints(tool);
  assert.equal(hints[0].label, "read-only");
  assert.equal(hints[0].source, "set");
  assert.equal(hints[1].meaningful, false);
  assert.equal(hints[2].meaningful, false);
  assert.equal(hints[3].label, "closed world");
  assert.equal(hintSummary(tool), "read-only, closed world");
  assert.equal(isEffectivelyDestructive(tool), false);
});

test("explicit values are 'set'; non-boolean values fall back to defaults", () => {
  const tool = { annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: "no" as unknown as boolean } };
  assert.equal(effectiveHint(tool, "destructiveHint").label, "non-destructive");
  assert.equal(effectiveHint(tool, "destructiveHint").source, "set");
  assert.equal(effectiveHint(tool, "idempotentHint").label, "idempotent");
  assert.equal(effectiveHint(tool, "openWorldHint").source, "default");
  assert.equal(effectiveHint(tool, "openWorldHint").value, true);
  assert.equal(isEffectivelyDestructive(tool), false);
});

test("odd annotations values do not throw", () => {
  assert.equal(effectiveHints({ annotations: null as never }).length, 4);
  assert.equal(effectiveHints({ annotations: "x" as never })[0].source, "default");
});
