import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { diffToolLists } from "@/lib/docs/diff";
import { liveLinks } from "@/lib/docs/links";
import { DiffView, type DiffSide } from "./DiffView";

afterEach(cleanup);

const side = (label: string): DiffSide => ({ label, server: "builtin:demo", when: "now", links: liveLinks("builtin:demo") });
const a = { name: "a", inputSchema: { type: "object" } };
const b = { name: "b", inputSchema: { type: "object" } };

test("zero breaking changes is plain text, not a red alarm", () => {
  render(<DiffView diff={diffToolLists([a], [a, b])} before={side("before")} after={side("after")} />);
  const count = screen.getByTestId("diff-breaking-count");
  assert.equal(count.textContent, "0 breaking");
  assert.equal(count.tagName, "SPAN");
  assert.doesNotMatch(count.className, /red/);
});

test("a non-zero breaking count is bold and red", () => {
  render(<DiffView diff={diffToolLists([a, b], [a])} before={side("before")} after={side("after")} />);
  const count = screen.getByTestId("diff-breaking-count");
  assert.equal(count.textContent, "1 breaking");
  assert.equal(count.tagName, "STRONG");
  assert.match(count.className, /text-red-700/);
});
