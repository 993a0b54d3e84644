/**
 * When to poll a task again, and when to stop. The server's interval is honoured (never polled faster), with a floor
 * of our own for a server that asks for 0 and a default for one that says nothing; a task that outlives the limit, or
 * its own ttl, is stopped with a sentence saying which.
 */
import type { TaskState } from "./task-shapes.ts";

export interface TaskPollLimits {
  /** Never poll faster than this, whatever the server asks. */
  floorMs: number;
  /** The interval when the server gives none. */
  defaultMs: number;
  /** How long a task is followed before it is given up on (it keeps running on the server; it can still be cancelled). */
  maxLifetimeMs: number;
}

/** The limits the playground follows tasks with (docs/extensions.md lists them). */
export const TASK_POLL_LIMITS: TaskPollLimits = { floorMs: 250, defaultMs: 1_000, maxLifetimeMs: 30 * 60_000 };

/** Milliseconds to wait before the next poll. */
export function pollDelay(task: Pick<TaskState, "pollIntervalMs">, limits: TaskPollLimits): number {
  return Math.max(task.pollIntervalMs ?? limits.defaultMs, limits.floorMs);
}

/** Why following the task stops now (undefined: poll again). `startedAt`/`now` in epoch milliseconds. */
export function pollStopReason(task: TaskState, startedAt: number, now: number, limits: TaskPollLimits): string | undefined {
  const age = now - startedAt;
  if (age >= limits.maxLifetimeMs)
    return `The task was still ${task.status} after ${Math.round(age / 1000)} s, the longest Toolscope follows one (${Math.round(limits.maxLifetimeMs / 60_000)} min): polling stopped. It may still run on the server; Cancel asks it to stop.`;
  if (typeof task.ttlMs === "number" && age > task.ttlMs + Math.max(task.pollIntervalMs ?? limits.defaultMs, limits.floorMs))
    return `The task outlived its ttl (${task.ttlMs} ms) and is still ${task.status}: the server may have dropped it, so polling stopped.`;
  return undefined;
}
