/**
 * The tasks this browser tab started (sessionStorage: they die with the tab, and a reload keeps them), for the
 * playground's Tasks panel. Only what a task says of itself is kept: no arguments, no results, no headers.
 */
import { isObject } from "../../json/guards.ts";
import type { TaskState, TaskStatus, TaskWire } from "../../mcp/tasks/task-shapes.ts";

export interface TabTask {
  server: string;
  taskId: string;
  wire: TaskWire;
  tool?: string;
  status: TaskStatus;
  statusMessage?: string;
  pollIntervalMs?: number;
  /** When this tab began following it, and last saw it (epoch ms). */
  startedAt: number;
  seenAt: number;
}

const KEY = "toolscope.tab-tasks.v1";
/** Tasks kept per tab: the oldest go first. */
export const MAX_TAB_TASKS = 50;
/** Said to listeners in the same tab when the list changes (the storage event fires only in other tabs). */
export const TAB_TASKS_EVENT = "toolscope:tab-tasks";

const STATUSES = new Set(["working", "input_required", "completed", "failed", "cancelled"]);

function valid(t: unknown): t is TabTask {
  return (
    isObject(t) &&
    typeof t.server === "string" &&
    typeof t.taskId === "string" &&
    (t.wire === "extension" || t.wire === "experimental") &&
    typeof t.status === "string" &&
    STATUSES.has(t.status) &&
    typeof t.startedAt === "number" &&
    typeof t.seenAt === "number"
  );
}

export function loadTabTasks(storage: Pick<Storage, "getItem"> | undefined = globalThis.sessionStorage): TabTask[] {
  try {
    const raw = storage?.getItem(KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? list.filter(valid).slice(0, MAX_TAB_TASKS) : [];
  } catch {
    return [];
  }
}

function save(list: TabTask[], storage: Pick<Storage, "setItem"> | undefined): TabTask[] {
  try {
    storage?.setItem(KEY, JSON.stringify(list));
  } catch {
    // Full or unavailable storage: the panel still shows this page's tasks until the next reload.
  }
  globalThis.dispatchEvent?.(new Event(TAB_TASKS_EVENT));
  return list;
}

/** The task as last seen, first in the list (replacing its older entry). */
export function recordTabTask(
  server: string,
  task: TaskState & { startedAt: number; seenAt: number },
  tool: string | undefined,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.sessionStorage,
): TabTask[] {
  const entry: TabTask = {
    server,
    taskId: task.taskId,
    wire: task.wire,
    ...(tool !== undefined ? { tool } : {}),
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage.slice(0, 500) } : {}),
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
    startedAt: task.startedAt,
    seenAt: task.seenAt,
  };
  const rest = loadTabTasks(storage).filter((t) => !(t.server === server && t.taskId === task.taskId));
  return save([entry, ...rest].slice(0, MAX_TAB_TASKS), storage);
}

export function forgetTabTask(
  server: string,
  taskId: string,
  storage: Pick<Storage, "getItem" | "setItem"> | undefined = globalThis.sessionStorage,
): TabTask[] {
  return save(
    loadTabTasks(storage).filter((t) => !(t.server === server && t.taskId === taskId)),
    storage,
  );
}
