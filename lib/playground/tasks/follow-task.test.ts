/**
 * Following a task over the real wire: the 2026-07-28 tasks fixture (an SDK v2 server, lib/upstream/testing) reached
 * through the client core's sendRpc, as /api/rpc sends the playground's messages. The clock is real (short steps).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor, Tool } from "@/lib/mcp/contract";
import { config } from "../../server/platform/config.ts";
import { streamableUpstream } from "../../upstream/transports/upstream-http.ts";
import { sendRpc } from "../../upstream/calls/send-rpc.ts";
import type { Upstream } from "../../upstream/upstream.ts";
import { startTasksServer, type TasksServer } from "../../upstream/testing/tasks-server.ts";
import { TASK_POLL_LIMITS } from "../../mcp/tasks/task-poll.ts";
import type { TaskState } from "../../mcp/tasks/task-shapes.ts";
import { followTask, type FollowTaskIo } from "./follow-task.ts";
import { taskHandleOf } from "./task-handle.ts";
import type { InputRequest } from "../server-requests/mrtr.ts";

const POLL_MS = 150;
let server: TasksServer;
let upstream: Upstream;
let descriptor: ConnectionDescriptor;

before(async () => {
  server = await startTasksServer({ pollIntervalMs: POLL_MS, stepMs: 60 });
  const url = new URL(server.url);
  upstream = streamableUpstream(
    { url, displayUrl: url.toString(), fetch },
    { ...config(), mode: "local", requestTimeoutMs: 10_000, maxResponseBytes: 1_000_000, eraCacheTtlMs: 0 },
  );
  descriptor = (await upstream.connect({ url: server.url, era: "modern", userHeaders: {}, interactive: false }))
    .connection as ConnectionDescriptor;
});

after(() => server?.stop());

async function send(message: Record<string, unknown>, tasks = true) {
  const res = await sendRpc({
    upstream,
    descriptor,
    message,
    userHeaders: {},
    findTool: async (): Promise<Tool | undefined> => undefined,
    timeoutMs: 10_000,
    maxBodyBytes: 1_000_000,
    tasks,
  });
  return res.response;
}

const call = (name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name, arguments: args },
});

/** Call, and follow the task the answer names; what was sent and seen on the way. */
async function run(
  name: string,
  args: Record<string, unknown>,
  opts: { answer?: (r: InputRequest[]) => Record<string, unknown> | null; cancelAt?: TaskState["status"] } = {},
) {
  const response = await send(call(name, args));
  const handle = taskHandleOf(call(name, args), response, "modern", true);
  assert.ok(handle?.ok, `a task handle: ${JSON.stringify(response)}`);
  const sent: Record<string, unknown>[] = [];
  const seen: TaskState[] = [];
  let last = null as Record<string, unknown> | null;
  let cancelled = false;
  const asked: InputRequest[][] = [];
  const io: FollowTaskIo = {
    send: async (m) => {
      sent.push(m);
      return (last = await send(m));
    },
    wait: (ms) => new Promise((resolve) => setTimeout(() => resolve(true), ms)),
    now: () => Date.now(),
    ask: async (requests) => {
      asked.push(requests);
      return opts.answer ? opts.answer(requests) : null;
    },
    onTask: (t) => {
      seen.push(t);
      if (opts.cancelAt === t.status) cancelled = true;
    },
    cancelled: () => cancelled,
  };
  const end = await followTask(handle.task, 7, io, { ...TASK_POLL_LIMITS, floorMs: 50 });
  return { end, sent, seen, last, asked, taskId: handle.task.taskId };
}

describe("followTask against a 2026-07-28 server with the tasks extension", () => {
  test("a task created unasked is polled no faster than the server asks, to its result", async () => {
    const r = await run("build_report", { topic: "latency", steps: 3 });
    assert.deepEqual(r.end, { end: "done" });
    assert.equal(r.seen.at(-1)?.status, "completed");
    assert.ok(
      r.seen.some((t) => t.status === "working" && t.statusMessage),
      "status messages on the way",
    );
    const result = (r.last?.result as { result?: { content?: { text?: string }[] } }).result;
    assert.match(result?.content?.[0]?.text ?? "", /latency/);
    assert.ok(r.sent.every((m) => m.method === "tasks/get" && (m.params as { taskId: string }).taskId === r.taskId));
    // The server's log: every poll came at least the interval after the previous one (a few ms of timer slack).
    const gaps = server.log.filter((e) => e.taskId === r.taskId && e.method === "tasks/get").map((e) => e.sinceLastPollMs ?? 0);
    assert.ok(gaps.length >= 2, `polls: ${gaps.length}`);
    assert.ok(
      gaps.every((g) => g >= POLL_MS - 5),
      `gaps ${gaps.join(", ")} against an interval of ${POLL_MS} ms`,
    );
  });

  test("input mid-task: asked once through the dialog's shapes, answered with tasks/update, then the result", async () => {
    const r = await run(
      "deploy_with_approval",
      { service: "api" },
      {
        answer: (requests) => Object.fromEntries(requests.map((q) => [q.key, { action: "accept", content: { approve: true } }])),
      },
    );
    assert.deepEqual(r.end, { end: "done" });
    assert.equal(r.asked.length, 1, "each key asked once, though later polls may repeat it");
    assert.equal(r.asked[0][0].kind, "elicit-form");
    const updates = r.sent.filter((m) => m.method === "tasks/update");
    assert.equal(updates.length, 1);
    assert.ok(r.seen.some((t) => t.status === "input_required"));
    assert.equal(r.seen.at(-1)?.status, "completed");
  });

  test("Cancel while the task waits for input: tasks/cancel, then the task is seen cancelled", async () => {
    const r = await run("deploy_with_approval", { service: "db" }, { cancelAt: "input_required", answer: () => null });
    assert.equal(r.end.end, "cancelled");
    assert.ok(r.sent.some((m) => m.method === "tasks/cancel"));
    assert.match(r.end.end === "cancelled" ? r.end.note : "", /the task is cancelled/);
    assert.equal(server.task(r.taskId)?.status, "cancelled");
  });

  test("without the extension declared, the same call answers at once: no task", async () => {
    const response = await send(call("build_report", { topic: "plain", steps: 1 }), false);
    assert.equal(taskHandleOf(call("build_report", {}), response, "modern", false), undefined);
    assert.ok(Array.isArray((response?.result as { content?: unknown }).content));
  });
});
