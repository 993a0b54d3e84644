import { test } from "node:test";
import assert from "node:assert/strict";
import { forgetTabTask, loadTabTasks, MAX_TAB_TASKS, recordTabTask } from "./tab-tasks.ts";

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    getItem: (k) => m.get(k) ?? null,
    setItem: (k, v) => void m.set(k, v),
    removeItem: (k) => void m.delete(k),
    clear: () => m.clear(),
    key: () => null,
    get length() {
      return m.size;
    },
  };
}

const task = (taskId: string, status: "working" | "completed" = "working") => ({
  wire: "extension" as const,
  taskId,
  status,
  startedAt: 1,
  seenAt: 2,
});

test("the newest first, one entry per task, kept to the limit; forgetting one removes only it", () => {
  const s = memory();
  recordTabTask("http://a/mcp", task("t1"), "build_report", s);
  recordTabTask("http://a/mcp", task("t2"), "deploy", s);
  recordTabTask("http://a/mcp", task("t1", "completed"), "build_report", s);
  assert.deepEqual(
    loadTabTasks(s).map((t) => [t.taskId, t.status]),
    [
      ["t1", "completed"],
      ["t2", "working"],
    ],
  );
  for (let i = 0; i < MAX_TAB_TASKS + 5; i++) recordTabTask("http://b/mcp", task(`b${i}`), undefined, s);
  assert.equal(loadTabTasks(s).length, MAX_TAB_TASKS);
  forgetTabTask("http://b/mcp", `b${MAX_TAB_TASKS + 4}`, s);
  assert.equal(loadTabTasks(s)[0].taskId, `b${MAX_TAB_TASKS + 3}`);
});

test("what storage holds is checked: garbage and malformed entries are dropped", () => {
  const s = memory();
  s.setItem("toolscope.tab-tasks.v1", "{not json");
  assert.deepEqual(loadTabTasks(s), []);
  s.setItem("toolscope.tab-tasks.v1", JSON.stringify([{ taskId: "x" }, { ...task("ok"), server: "s" }]));
  assert.deepEqual(
    loadTabTasks(s).map((t) => t.taskId),
    ["ok"],
  );
});
