/**
 * The tasks fixture server (tasks-server.ts): first judged by the official conformance suite's server scenarios for
 * the tasks extension (every `tasks-*` scenario, no FAILURE), then driven with raw JSON-RPC over fetch the way a
 * 2026-07-28 client sends it (the `_meta` envelope, `Mcp-Method` / `Mcp-Name` headers) through the flows the UI
 * tests rely on: a task nobody asked for, polled to its result; a question mid-task answered with tasks/update;
 * cancellation; no task for a client that did not declare the extension; unknown and expired ids; the poll log.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { NODE22_PATH, testToolPath } from "../../../scripts/test-tools.mjs";
import { runSuite } from "../../cli/conformance-run.ts";
import { startTasksServer, TASKS_EXTENSION, type TasksServer } from "./tasks-server.ts";
import { spawnTasksServer } from "./tasks-server-process.ts";
import type { DetailedTask, TaskLogEntry } from "./tasks-store.ts";

const SUITE = testToolPath("@modelcontextprotocol", "conformance", "dist", "index.js");
const TASK_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];
const missingTools = !existsSync(NODE22_PATH)
  ? `${NODE22_PATH} is missing (node scripts/ensure-test-tools.mjs)`
  : !existsSync(SUITE) && `${SUITE} is missing (node scripts/ensure-test-tools.mjs)`;

describe("the conformance suite's tasks scenarios", () => {
  let server: TasksServer;
  before(async () => (server = await startTasksServer()));
  after(() => server.stop());

  test("every tasks-* server scenario passes", { skip: missingTools }, async () => {
    const progress: string[] = [];
    const results = await runSuite({
      node: NODE22_PATH,
      script: SUITE,
      url: server.url,
      scenarios: TASK_SCENARIOS,
      timeoutMs: 30_000,
      progress: (line) => progress.push(line),
    });
    assert.deepEqual(results.map((r) => r.scenario).sort(), [...TASK_SCENARIOS].sort(), progress.join("\n"));
    const failed = results.flatMap((r) =>
      r.checks.filter((c) => c.status === "FAILURE").map((c) => `${r.scenario}/${c.id}: ${c.errorMessage}`),
    );
    assert.deepEqual(failed, []);
    // Only the notifications scenario (a placeholder upstream) has nothing to check.
    for (const r of results)
      if (r.scenario !== "tasks-status-notifications")
        assert.ok(
          r.checks.some((c) => c.status === "SUCCESS"),
          r.scenario,
        );
  });
});

const POLL_MS = 120;
const STEP_MS = 60;

interface RpcAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

interface Declared {
  /** Declare the tasks extension in the request's `_meta` (default true). */
  tasks?: boolean;
  headers?: Record<string, string>;
}

let nextId = 0;

/** One JSON-RPC request as a 2026-07-28 client sends it: the `_meta` envelope and the routing headers. */
async function rpc(url: string, method: string, params: Record<string, unknown>, opts: Declared = {}): Promise<RpcAnswer> {
  const name = method === "tools/call" ? params.name : params.taskId;
  const capabilities = { elicitation: { form: {} }, ...(opts.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } }) };
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof name === "string" ? { "mcp-name": name } : {}),
      ...opts.headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++nextId,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "tasks-server-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": capabilities,
        },
      },
    }),
  });
  const body = await res.text();
  // A server may answer on an event stream; the answer is the last `data:` line.
  const json = res.headers.get("content-type")?.includes("text/event-stream")
    ? body
        .match(/^data: (.*)$/gm)!
        .at(-1)!
        .slice(6)
    : body;
  const message = JSON.parse(json) as { result?: Record<string, unknown>; error?: RpcAnswer["error"] };
  return { status: res.status, result: message.result, error: message.error };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const textOf = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? []).map((c) => c.text).join("");

describe("driven over raw JSON-RPC", () => {
  let server: TasksServer;
  before(async () => (server = await startTasksServer({ pollIntervalMs: POLL_MS, stepMs: STEP_MS })));
  after(() => server.stop());

  const call = (name: string, args: Record<string, unknown>, opts?: Declared) =>
    rpc(server.url, "tools/call", { name, arguments: args }, opts);
  const get = async (taskId: string) => {
    const answer = await rpc(server.url, "tasks/get", { taskId });
    assert.equal(answer.error, undefined, JSON.stringify(answer.error));
    return answer.result as unknown as DetailedTask & { resultType: string };
  };
  /** Polls as a client should: waiting `pollIntervalMs` before each tasks/get; every answer, in order. */
  async function pollUntil(taskId: string, done: (t: DetailedTask) => boolean, max = 60): Promise<DetailedTask[]> {
    const seen: DetailedTask[] = [];
    for (let i = 0; i < max; i++) {
      await sleep(POLL_MS);
      const task = await get(taskId);
      seen.push(task);
      if (done(task)) return seen;
    }
    throw new Error(`task ${taskId} still ${seen.at(-1)?.status} after ${max} polls`);
  }
  const terminal = (t: DetailedTask) => ["completed", "failed", "cancelled"].includes(t.status);

  test("server/discover declares the extension; tools/list has the conformance fixtures and ours", async () => {
    const discover = await rpc(server.url, "server/discover", {});
    assert.deepEqual((discover.result?.capabilities as { extensions?: unknown }).extensions, { [TASKS_EXTENSION]: {} });
    const tools = ((await rpc(server.url, "tools/list", {})).result?.tools as { name: string }[]).map((t) => t.name);
    for (const name of [
      "greet",
      "slow_compute",
      "failing_job",
      "protocol_error_job",
      "confirm_delete",
      "multi_input",
      "test_tool_with_task",
    ])
      assert.ok(tools.includes(name), name);
    assert.ok(tools.includes("build_report") && tools.includes("deploy_with_approval"));
  });

  test("build_report: a task nobody asked for, its steps in statusMessage, polled to the report", async () => {
    const created = await call("build_report", { topic: "tide tables", steps: 3 });
    assert.equal(created.error, undefined);
    const task = created.result!;
    assert.equal(task.resultType, "task");
    assert.equal(task.status, "working");
    assert.equal(task.pollIntervalMs, POLL_MS);
    assert.equal(task.ttlMs, 5 * 60_000);
    assert.ok(!("result" in task) && !("task" in task));
    const taskId = task.taskId as string;

    const seen = await pollUntil(taskId, terminal);
    const last = seen.at(-1)!;
    assert.equal(last.status, "completed");
    assert.equal((last as { resultType?: string }).resultType, "complete");
    assert.match(textOf(last.result), /^# Report: tide tables\n/);
    assert.match(textOf(last.result), /All 3 steps completed/);
    assert.ok(
      seen.some((t) => t.statusMessage?.startsWith("Step ")),
      JSON.stringify(seen.map((t) => t.statusMessage)),
    );

    // The log: the creation, then every poll with its arrival time and routing headers.
    const entries = server.log.filter((e) => e.taskId === taskId);
    assert.equal(entries[0].method, "tools/call");
    const polls = entries.filter((e) => e.method === "tasks/get");
    assert.equal(polls.length, seen.length);
    assert.deepEqual(
      server.polls(taskId),
      polls.map((e) => e.at),
    );
    for (const p of polls) {
      assert.equal(p.mcpMethod, "tasks/get");
      assert.equal(p.mcpName, taskId);
      // This client waited pollIntervalMs before each poll (timers may fire a millisecond early).
      assert.ok(p.sinceLastPollMs! >= POLL_MS - 5, `a poll after ${p.sinceLastPollMs} ms`);
    }
    // The same log over HTTP, for a server in another process.
    const overHttp = (await (await fetch(`${server.logUrl}?taskId=${taskId}`)).json()) as TaskLogEntry[];
    assert.deepEqual(overHttp, entries);
  });

  test("a client polling too fast shows in the log", async () => {
    const taskId = (await call("build_report", { topic: "haste", steps: 1 })).result!.taskId as string;
    await get(taskId);
    await get(taskId);
    const gaps = server.log.filter((e) => e.taskId === taskId && e.method === "tasks/get").map((e) => e.sinceLastPollMs!);
    assert.equal(gaps.length, 2);
    assert.ok(
      gaps.every((g) => g < POLL_MS),
      JSON.stringify(gaps),
    );
  });

  test("deploy_with_approval: input_required mid-task, answered with tasks/update, then completed", async () => {
    const taskId = (await call("deploy_with_approval", { service: "checkout" })).result!.taskId as string;
    const waiting = (await pollUntil(taskId, (t) => t.status !== "working")).at(-1)!;
    assert.equal(waiting.status, "input_required");
    assert.match(waiting.statusMessage ?? "", /waiting for approval/);
    assert.deepEqual(Object.keys(waiting.inputRequests ?? {}), ["approval"]);
    const ask = waiting.inputRequests!.approval as {
      method: string;
      params: { mode: string; message: string; requestedSchema: { properties: object; required: string[] } };
    };
    assert.equal(ask.method, "elicitation/create");
    assert.equal(ask.params.mode, "form");
    assert.deepEqual(Object.keys(ask.params.requestedSchema.properties), ["approve", "reason"]);
    assert.deepEqual(ask.params.requestedSchema.required, ["approve"]);

    const ack = await rpc(server.url, "tasks/update", {
      taskId,
      inputResponses: {
        approval: { action: "accept", content: { approve: true, reason: "release 42" } },
        stray: { action: "accept", content: {} },
      },
    });
    assert.equal(ack.result?.resultType, "complete");
    for (const key of ["taskId", "status", "result", "error", "inputRequests"]) assert.ok(!(key in ack.result!), key);
    // Answered keys are gone at once; an answer to an answered key is ignored.
    const answered = await get(taskId);
    assert.equal(answered.inputRequests, undefined);
    await rpc(server.url, "tasks/update", { taskId, inputResponses: { approval: { action: "accept", content: { approve: false } } } });

    const done = (await pollUntil(taskId, terminal)).at(-1)!;
    assert.equal(done.status, "completed");
    assert.equal(textOf(done.result), "Deployed checkout (release 42).");
    const updates = server.log.filter((e) => e.taskId === taskId && e.method === "tasks/update");
    assert.deepEqual(
      updates.map((u) => [u.keys, u.accepted, u.mcpName]),
      [
        [["approval", "stray"], ["approval"], taskId],
        [["approval"], [], taskId],
      ],
    );
  });

  test("tasks/cancel: the work stops and the task ends cancelled, while waiting for input or while working", async () => {
    const waiting = (await call("deploy_with_approval", { service: "billing" })).result!.taskId as string;
    await pollUntil(waiting, (t) => t.status === "input_required");
    const working = (await call("build_report", { topic: "long", steps: 6 })).result!.taskId as string;
    for (const taskId of [waiting, working]) {
      const ack = await rpc(server.url, "tasks/cancel", { taskId });
      assert.deepEqual(
        Object.keys(ack.result ?? {}).filter((k) => k !== "_meta"),
        ["resultType"],
      );
      const end = (await pollUntil(taskId, terminal, 5)).at(-1)!;
      assert.equal(end.status, "cancelled");
      assert.equal(end.result, undefined);
      assert.equal(end.inputRequests, undefined);
      // Terminal is final: a second cancel is acknowledged and changes nothing.
      assert.equal((await rpc(server.url, "tasks/cancel", { taskId })).result?.resultType, "complete");
      assert.equal((await get(taskId)).status, "cancelled");
    }
    assert.equal(server.log.filter((e) => e.method === "tasks/cancel" && e.taskId === waiting).length, 2);
  });

  test("no extension in the request's _meta: no task; synchronous where possible, else -32021", async () => {
    const logged = server.log.length;
    const report = await call("build_report", { topic: "sync", steps: 2 }, { tasks: false });
    assert.equal(report.result?.resultType, "complete");
    assert.equal(report.result?.taskId, undefined);
    assert.match(textOf(report.result), /All 2 steps completed/);

    // A question goes out as MRTR input_required instead, and the retried call completes.
    const asked = await call("confirm_delete", { filename: "a.txt" }, { tasks: false });
    assert.equal(asked.result?.resultType, "input_required");
    assert.deepEqual(Object.keys(asked.result?.inputRequests as object), ["confirm"]);
    const retried = await rpc(
      server.url,
      "tools/call",
      {
        name: "confirm_delete",
        arguments: { filename: "a.txt" },
        inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
      },
      { tasks: false },
    );
    assert.equal(textOf(retried.result), "Deleted a.txt.");

    const refused = await call("deploy_with_approval", { service: "checkout" }, { tasks: false });
    assert.equal(refused.error?.code, -32021);
    assert.deepEqual(refused.error?.data, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    assert.equal(server.log.slice(logged).filter((e) => e.method === "tools/call").length, 0, "no task was created");

    // The tasks methods too, even for a task that exists.
    const taskId = (await call("build_report", { topic: "x", steps: 1 })).result!.taskId as string;
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"])
      assert.equal((await rpc(server.url, method, { taskId, inputResponses: {} }, { tasks: false })).error?.code, -32021, method);
  });

  test("an unknown task id is -32602 on every tasks method", async () => {
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel"]) {
      const answer = await rpc(server.url, method, { taskId: "no-such-task", inputResponses: {} });
      assert.equal(answer.error?.code, -32602, method);
      assert.equal(answer.error?.message, "Failed to retrieve task: Task not found");
    }
    assert.ok(server.log.some((e) => e.taskId === "no-such-task" && e.method === "tasks/get" && !e.known));
  });

  test("a routing header that names another task is refused before it reaches the task", async () => {
    const taskId = (await call("build_report", { topic: "y", steps: 1 })).result!.taskId as string;
    const answer = await rpc(server.url, "tasks/get", { taskId }, { headers: { "mcp-name": "another-task" } });
    assert.equal(answer.status, 400);
    assert.equal(answer.error?.code, -32020);
  });
});

test("a task is gone once its ttlMs has passed (-32602, expired)", async () => {
  const server = await startTasksServer({ ttlMs: 150, stepMs: 10 });
  try {
    const created = await rpc(server.url, "tools/call", { name: "build_report", arguments: { topic: "brief", steps: 1 } });
    const taskId = created.result!.taskId as string;
    assert.equal(created.result!.ttlMs, 150);
    assert.equal((await rpc(server.url, "tasks/get", { taskId })).result?.taskId, taskId);
    await sleep(200);
    const answer = await rpc(server.url, "tasks/get", { taskId });
    assert.equal(answer.error?.code, -32602);
    assert.equal(answer.error?.message, "Failed to retrieve task: Task has expired");
    assert.equal(server.task(taskId), undefined);
  } finally {
    await server.stop();
  }
});

test("tasks-server-main.ts runs it as its own process, its log over HTTP", async () => {
  const child = await spawnTasksServer(["--poll-interval-ms", "250"]);
  try {
    const created = await rpc(child.url, "tools/call", { name: "slow_compute", arguments: { seconds: 0, label: "main" } });
    assert.equal(created.result?.pollIntervalMs, 250);
    assert.deepEqual(
      (await child.log()).map((e) => [e.method, e.taskId]),
      [["tools/call", created.result?.taskId]],
    );
  } finally {
    child.stop();
  }
});
