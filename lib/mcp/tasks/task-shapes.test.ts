import { test } from "node:test";
import assert from "node:assert/strict";
import { isTaskHandle, readCreatedTask, readPolledTask, readTaskList } from "./task-shapes.ts";
import { pollDelay, pollStopReason, TASK_POLL_LIMITS } from "./task-poll.ts";

const modern = {
  resultType: "task",
  taskId: "t-1",
  status: "working",
  createdAt: "2026-12-07T10:00:00Z",
  ttlMs: 60000,
  pollIntervalMs: 500,
};

test("a handle on each wire: the 2026-07-28 flat one and the 2025-11-25 wrapped one read alike", () => {
  assert.ok(isTaskHandle(modern, "extension"));
  assert.ok(!isTaskHandle({ content: [] }, "extension"));
  const flat = readCreatedTask(modern, "extension");
  assert.deepEqual(flat.ok && { id: flat.task.taskId, poll: flat.task.pollIntervalMs, ttl: flat.task.ttlMs }, {
    id: "t-1",
    poll: 500,
    ttl: 60000,
  });
  const legacy = { task: { taskId: "t-2", status: "working", ttl: null, pollInterval: 1000, statusMessage: "Gathering" } };
  assert.ok(isTaskHandle(legacy, "experimental"));
  assert.ok(!isTaskHandle({ task: {}, content: [] }, "experimental"), "a tool result with a task key is still a result");
  const wrapped = readCreatedTask(legacy, "experimental");
  assert.deepEqual(wrapped.ok && [wrapped.task.ttlMs, wrapped.task.pollIntervalMs, wrapped.task.statusMessage], [null, 1000, "Gathering"]);
});

test("garbage is named: no taskId, an unknown status, a bad interval, a missing result or input", () => {
  const err = (r: ReturnType<typeof readPolledTask>) => (r.ok ? "" : r.error);
  assert.match(err(readCreatedTask({ resultType: "task", status: "working" }, "extension")), /has no taskId/);
  assert.match(err(readPolledTask({ taskId: "t", status: "done" }, "extension")), /status "done" is none of working/);
  assert.match(
    err(readPolledTask({ taskId: "t", status: "working", pollIntervalMs: -5 }, "extension")),
    /pollIntervalMs -5 is not a whole number/,
  );
  assert.match(err(readPolledTask({ taskId: "t", status: "completed" }, "extension")), /completed but carries no result/);
  assert.match(err(readPolledTask({ taskId: "t", status: "input_required", inputRequests: {} }, "extension")), /no inputRequests/);
  assert.match(err(readPolledTask({ taskId: "t", status: "failed", error: "boom" }, "extension")), /failed but carries no error/);
  assert.match(err(readPolledTask("nope", "extension")), /not an object/);
  assert.match(err(readCreatedTask({ task: "x" }, "experimental")), /no task object/);
});

test("what each status carries on 2026-07-28 comes along; a legacy poll is the bare task", () => {
  const done = readPolledTask({ taskId: "t", status: "completed", result: { content: [{ type: "text", text: "ok" }] } }, "extension");
  assert.deepEqual(done.ok && done.task.result, { content: [{ type: "text", text: "ok" }] });
  const asking = readPolledTask(
    { taskId: "t", status: "input_required", inputRequests: { approve: { method: "elicitation/create" } } },
    "extension",
  );
  assert.deepEqual(asking.ok && Object.keys(asking.task.inputRequests ?? {}), ["approve"]);
  const failed = readPolledTask({ taskId: "t", status: "failed", error: { code: -32603, message: "disk full" } }, "extension");
  assert.deepEqual(failed.ok && failed.task.error, { code: -32603, message: "disk full" });
  const legacy = readPolledTask({ taskId: "t", status: "completed" }, "experimental");
  assert.ok(legacy.ok && legacy.task.result === undefined, "the result comes from tasks/result");
});

test("tasks/list keeps the readable tasks and names the others", () => {
  const list = readTaskList({ tasks: [{ taskId: "a", status: "working" }, { status: "working" }], nextCursor: "c2" });
  assert.ok(list.ok);
  if (!list.ok) return;
  assert.deepEqual(
    list.tasks.map((t) => t.taskId),
    ["a"],
  );
  assert.equal(list.nextCursor, "c2");
  assert.match(list.skipped[0], /tasks\[1\] has no taskId/);
  assert.equal(readTaskList({}).ok, false);
});

test("polling honours the server's interval, with a floor and a default, and stops at the lifetime or past the ttl", () => {
  assert.equal(pollDelay({ pollIntervalMs: 2000 }, TASK_POLL_LIMITS), 2000);
  assert.equal(pollDelay({ pollIntervalMs: 0 }, TASK_POLL_LIMITS), TASK_POLL_LIMITS.floorMs);
  assert.equal(pollDelay({}, TASK_POLL_LIMITS), TASK_POLL_LIMITS.defaultMs);
  const task = { wire: "extension" as const, taskId: "t", status: "working" as const, ttlMs: 10_000, pollIntervalMs: 1000 };
  assert.equal(pollStopReason(task, 0, 5_000, TASK_POLL_LIMITS), undefined);
  assert.match(pollStopReason(task, 0, 12_000, TASK_POLL_LIMITS) ?? "", /outlived its ttl \(10000 ms\)/);
  assert.match(
    pollStopReason({ ...task, ttlMs: null }, 0, TASK_POLL_LIMITS.maxLifetimeMs, TASK_POLL_LIMITS) ?? "",
    /the longest Toolscope follows one \(30 min\)/,
  );
});
