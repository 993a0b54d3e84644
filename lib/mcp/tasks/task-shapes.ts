/**
 * Tasks on both wires, read into one shape. MCP 2026-07-28 moved tasks into an extension (`io.modelcontextprotocol/
 * tasks`, SEP-2663): a server may answer a `tools/call` whose `_meta` declares it with a flat handle (`resultType:
 * "task"`, `taskId`, `status`, `ttlMs`, `pollIntervalMs`), and `tasks/get` answers with the task and, by status, its
 * `inputRequests`, `result` or `error`. 2025-11-25's experimental tasks (SEP-1686) wrap the handle (`{ task: {…} }`,
 * `ttl`, `pollInterval`), answer `tasks/get` with the bare task and hand the result over through `tasks/result`.
 * Everything a server sends is checked here: a malformed handle or poll answer is an error that says what is wrong.
 */
import { isObject } from "../../json/guards.ts";
import { TASKS_EXTENSION_ID } from "../meta.ts";

export const TASKS_EXTENSION = TASKS_EXTENSION_ID;
/** The `_meta` key that ties a legacy message (a result, a server request) to its task. */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

/** `extension`: the 2026-07-28 extension. `experimental`: 2025-11-25's tasks. */
export type TaskWire = "extension" | "experimental";
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

const STATUSES: ReadonlySet<string> = new Set<TaskStatus>(["working", "input_required", "completed", "failed", "cancelled"]);
const TERMINAL: ReadonlySet<TaskStatus> = new Set<TaskStatus>(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

export interface TaskState {
  wire: TaskWire;
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  /** Milliseconds the server keeps the task; null: no limit. */
  ttlMs?: number | null;
  /** The interval the server asks polls to keep, in milliseconds. */
  pollIntervalMs?: number;
  /** 2026-07-28, status input_required: what the server asks, by key (the MRTR shapes). */
  inputRequests?: Record<string, unknown>;
  /** 2026-07-28, completed: the tool's result, as a `tools/call` would have answered. */
  result?: Record<string, unknown>;
  /** 2026-07-28, failed: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
}

export type TaskRead = { ok: true; task: TaskState } | { ok: false; error: string };

function fail(error: string): TaskRead {
  return { ok: false, error };
}

const nonNegativeInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The fields both wires share, from one task object; `where` names it in errors. */
function readTask(o: Record<string, unknown>, wire: TaskWire, where: string): TaskRead {
  if (typeof o.taskId !== "string" || o.taskId === "") return fail(`${where} has no taskId (a non-empty string).`);
  if (o.taskId.length > 1024) return fail(`${where}: the taskId is ${o.taskId.length} characters long; Toolscope takes up to 1,024.`);
  if (typeof o.status !== "string" || !STATUSES.has(o.status))
    return fail(`${where}: status ${JSON.stringify(o.status)} is none of working, input_required, completed, failed, cancelled.`);
  const ttlKey = wire === "extension" ? "ttlMs" : "ttl";
  const pollKey = wire === "extension" ? "pollIntervalMs" : "pollInterval";
  const ttl = o[ttlKey];
  const poll = o[pollKey];
  if (ttl !== undefined && ttl !== null && !nonNegativeInt(ttl))
    return fail(`${where}: ${ttlKey} ${JSON.stringify(ttl)} is not a whole number of milliseconds or null.`);
  if (poll !== undefined && !nonNegativeInt(poll))
    return fail(`${where}: ${pollKey} ${JSON.stringify(poll)} is not a whole number of milliseconds.`);
  const task: TaskState = { wire, taskId: o.taskId, status: o.status as TaskStatus };
  if (typeof o.statusMessage === "string") task.statusMessage = o.statusMessage;
  if (typeof o.createdAt === "string") task.createdAt = o.createdAt;
  if (typeof o.lastUpdatedAt === "string") task.lastUpdatedAt = o.lastUpdatedAt;
  if (ttl !== undefined) task.ttlMs = ttl as number | null;
  if (poll !== undefined) task.pollIntervalMs = poll as number;
  return { ok: true, task };
}

/**
 * Is this `tools/call` result a task handle? 2026-07-28: `resultType: "task"`. 2025-11-25: a `task` object and no
 * content (a tool result never has a `task` key).
 */
export function isTaskHandle(result: unknown, wire: TaskWire): boolean {
  if (!isObject(result)) return false;
  return wire === "extension" ? result.resultType === "task" : isObject(result.task) && !("content" in result);
}

/** The task a `tools/call` answered with (CreateTaskResult). */
export function readCreatedTask(result: unknown, wire: TaskWire): TaskRead {
  if (!isObject(result)) return fail("The task handle is not an object.");
  if (wire === "experimental") {
    if (!isObject(result.task)) return fail("The answer has no task object (2025-11-25 wraps it: { task: { taskId, status, … } }).");
    return readTask(result.task, wire, "The task handle");
  }
  return readTask(result, wire, "The task handle");
}

/** The task a `tasks/get` answered with; on 2026-07-28 with what its status carries. */
export function readPolledTask(result: unknown, wire: TaskWire): TaskRead {
  if (!isObject(result)) return fail("tasks/get answered with something that is not an object.");
  const read = readTask(result, wire, "The tasks/get answer");
  if (!read.ok || wire === "experimental") return read;
  const task = read.task;
  if (task.status === "input_required") {
    if (!isObject(result.inputRequests) || Object.keys(result.inputRequests).length === 0)
      return fail("tasks/get says input_required but carries no inputRequests: nothing to answer.");
    task.inputRequests = result.inputRequests;
  } else if (task.status === "completed") {
    if (!isObject(result.result)) return fail("tasks/get says completed but carries no result.");
    task.result = result.result;
  } else if (task.status === "failed") {
    const e = result.error;
    if (!isObject(e) || typeof e.code !== "number" || typeof e.message !== "string")
      return fail("tasks/get says failed but carries no error with a code and a message.");
    task.error = { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) };
  }
  return read;
}

/** The task list a legacy `tasks/list` answered with, and the cursor of the next page. */
export function readTaskList(
  result: unknown,
): { ok: true; tasks: TaskState[]; nextCursor?: string; skipped: string[] } | { ok: false; error: string } {
  if (!isObject(result) || !Array.isArray(result.tasks)) return { ok: false, error: "tasks/list answered without a tasks array." };
  const tasks: TaskState[] = [];
  const skipped: string[] = [];
  for (const [i, t] of result.tasks.entries()) {
    const read = isObject(t) ? readTask(t, "experimental", `tasks[${i}]`) : fail(`tasks[${i}] is not an object.`);
    if (read.ok) tasks.push(read.task);
    else skipped.push(read.error);
  }
  return { ok: true, tasks, ...(typeof result.nextCursor === "string" ? { nextCursor: result.nextCursor } : {}), skipped };
}
