import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { AnnotationBadges } from "./AnnotationBadges";

afterEach(cleanup);

test("defaults say (default) in the badge, dashed; nothing is struck through or faded", () => {
  render(<AnnotationBadges tool={{ annotations: {} }} />);
  const destructive = screen.getByTestId("annotation-destructiveHint");
  assert.match(destructive.textContent ?? "", /destructive\s*\(default\)/);
  assert.match(destructive.className, /border-dashed/);
  for (const el of [destructive, ...destructive.querySelectorAll("*")]) {
    assert.doesNotMatch(el.getAttribute("class") ?? "", /line-through|opacity-/);
  }
});

test("hints that do not apply on a read-only tool name the hint and say n/a, not a value or a default; no strikethrough", () => {
  render(<AnnotationBadges tool={{ annotations: { readOnlyHint: true } }} />);
  const idempotent = screen.getByTestId("annotation-idempotentHint");
  assert.match(idempotent.textContent ?? "", /^idempotent:\s*n\/a \(read-only\)/);
  assert.match(screen.getByTestId("annotation-destructiveHint").textContent ?? "", /^destructive:\s*n\/a \(read-only\)/);
  assert.doesNotMatch(idempotent.textContent ?? "", /default/, "a default that does not apply is not stated");
  assert.equal(idempotent.querySelector("[data-meaningful]")?.getAttribute("data-meaningful"), "false");
  for (const el of [idempotent, ...idempotent.querySelectorAll("*")]) {
    assert.doesNotMatch(el.getAttribute("class") ?? "", /line-through|opacity-/);
  }
});
