import { test } from "node:test";
import assert from "node:assert/strict";
import { groupRows } from "../tool-rows.ts";
import { sidebarWindow } from "./window.ts";

const rows = (names: string[]) => names.map((name) => ({ name }));
const names = (groups: ReturnType<typeof sidebarWindow<{ name: string }>>) => groups.map((g) => [g.label, g.rows.map((r) => r.name)]);

test("the window is centred on the current tool and keeps its groups' labels and anchors", () => {
  const groups = groupRows(rows(["a.one", "a.two", "a.three", "b.one", "b.two", "b.three", "c.one", "c.two"]));
  const cut = sidebarWindow(groups, "b.two", 1);
  assert.deepEqual(
    cut.map((g) => g.rows.map((r) => r.name)),
    [["b.one", "b.two", "b.three"]],
  );
  assert.equal(cut[0].anchor, groups[1].anchor);
  assert.deepEqual(
    sidebarWindow(groups, "a.three", 1).map((g) => g.rows.map((r) => r.name)),
    [["a.two", "a.three"], ["b.one"]],
  );
});

test("near either end the window slides inward and lists as many rows; an unknown name gets the first rows", () => {
  const groups = groupRows(rows(Array.from({ length: 20 }, (_, i) => `tool_${String(i).padStart(2, "0")}`)));
  const count = (g: ReturnType<typeof sidebarWindow<{ name: string }>>) => g.reduce((n, x) => n + x.rows.length, 0);
  assert.equal(count(sidebarWindow(groups, "tool_00", 3)), 7);
  assert.deepEqual(names(sidebarWindow(groups, "tool_19", 2))[0][1], ["tool_15", "tool_16", "tool_17", "tool_18", "tool_19"]);
  assert.deepEqual(names(sidebarWindow(groups, "missing", 1))[0][1], ["tool_00", "tool_01", "tool_02"]);
  assert.equal(count(sidebarWindow(groups, "tool_10", 50)), 20, "a window wider than the list is the list");
});
