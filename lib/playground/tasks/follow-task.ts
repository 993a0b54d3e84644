/**
 * Following a task to its end, on either wire, as the playground does after a `tools/call` came back as a task
 * handle. Each message goes through `send` (the caller records it as a round of the exchange, so the task's whole life
 * is in the wire record); the waits between polls honour the server's interval (lib/mcp/tasks/task-poll.ts).
 *
 * - 2026-07-28 (the extension): poll `tasks/get`; `input_required` carries `inputRequests`, answered through `ask`
 *   and sent with `tasks/update` (each key once: a key repeats in later polls until the server has taken it); the
 *   final `tasks/get` carries the result or the error.
 * - 2025-11-25 (experimental): poll `tasks/get`; on `input_required` call `tasks/result`, on whose stream the server
 *   sends its requests (the caller's server-request dialogs answer them), and which ends with the result; on a
 *   terminal status `tasks/result` fetches it.
 * - Cancel: `tasks/cancel`, then (on 2026-07-28, where the answer is only an acknowledgement) one more poll to show
 *   where the task ended up.
 */
import { isObject } from "../../json/guards.ts";
import { parseInputRequests, type InputRequest } from "../server-requests/mrtr.ts";
import { isTerminal, readPolledTask, type TaskState } from "../../mcp/tasks/task-shapes.ts";
import { pollDelay, pollStopReason, type TaskPollLimits } from "../../mcp/tasks/task-poll.ts";

export type TaskMethod = "tasks/get" | "tasks/update" | "tasks/cancel" | "tasks/result";

export interface FollowTaskIo {
  /** Send one message and record it; the JSON-RPC response, or null when none came (the round shows why). */
  send(message: Record<string, unknown>): Promise<Record<string, unknown> | null>;
  /** Wait; resolves early (false) when the person pressed Cancel, true when the time passed. */
  wait(ms: number): Promise<boolean>;
  now(): number;
  /** Ask the person the task's input requests; null when they closed the dialog without answering. */
  ask(requests: InputRequest[], task: TaskState): Promise<Record<string, unknown> | null>;
  /** The task as last seen, after every poll. */
  onTask(task: TaskState): void;
  /** True once the person pressed Cancel. */
  cancelled(): boolean;
}

export type TaskEnd =
  { end: "done" } | { end: "cancelled"; note: string } | { end: "stopped"; note: string } | { end: "abandoned"; note: string };

/** Fresh ids for the task's messages, derived from the call's, so the wire record reads as one conversation. */
export function taskMessageIds(callId: unknown): () => string {
  let n = 0;
  const base = typeof callId === "string" || typeof callId === "number" ? String(callId) : "call";
  return () => `${base}-task-${++n}`;
}

function message(id: string, method: TaskMethod, params: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: "2.0", id, method, params };
}

/** Follow `handle` until it ends, the person cancels or a limit stops it. */
export async function followTask(handle: TaskState, callId: unknown, io: FollowTaskIo, limits: TaskPollLimits): Promise<TaskEnd> {
  const nextId = taskMessageIds(callId);
  const startedAt = io.now();
  const answeredKeys = new Set<string>();
  let task = handle;
  io.onTask(task);
  const taskId = task.taskId;

  const cancel = async (): Promise<TaskEnd> => {
    const answer = await io.send(message(nextId(), "tasks/cancel", { taskId }));
    if (answer && isObject(answer.error))
      return { end: "cancelled", note: `Cancel sent; the server refused it (${String(answer.error.message ?? answer.error.code)}).` };
    if (task.wire === "experimental") {
      const read = answer && isObject(answer.result) ? readPolledTask(answer.result, task.wire) : undefined;
      if (read?.ok) io.onTask((task = read.task));
      return { end: "cancelled", note: `Cancel sent: the task is ${task.status}.` };
    }
    // 2026-07-28: cancelling is cooperative and the answer a bare acknowledgement; one poll shows the outcome.
    await io.wait(pollDelay(task, limits));
    const polled = await io.send(message(nextId(), "tasks/get", { taskId }));
    const read = polled && isObject(polled.result) ? readPolledTask(polled.result, task.wire) : undefined;
    if (read?.ok) io.onTask((task = read.task));
    return {
      end: "cancelled",
      note: `Cancel sent: the task is ${task.status}${isTerminal(task.status) ? "" : " (the server may still stop it)"}.`,
    };
  };

  /** 2025-11-25: the result (or error) of the task, as tools/call would have answered. */
  const fetchResult = async (): Promise<TaskEnd> => {
    const answer = await io.send(message(nextId(), "tasks/result", { taskId }));
    if (io.cancelled()) return cancel();
    return answer ? { end: "done" } : { end: "stopped", note: "tasks/result got no answer: the round shows why." };
  };

  for (;;) {
    if (io.cancelled()) return cancel();
    if (task.status === "input_required" && task.wire === "experimental") return fetchResult();
    if (isTerminal(task.status)) return task.wire === "experimental" ? fetchResult() : { end: "done" };
    if (task.status === "input_required" && task.inputRequests) {
      const pending = Object.fromEntries(Object.entries(task.inputRequests).filter(([key]) => !answeredKeys.has(key)));
      if (Object.keys(pending).length > 0) {
        const answers = await io.ask(parseInputRequests(pending), task);
        if (io.cancelled()) return cancel();
        if (answers === null)
          return { end: "abandoned", note: "You closed the input dialog: the task waits on the server for an answer (Cancel stops it)." };
        // Asked once each: a key the person could not answer (an unknown request) is not asked again at every poll.
        for (const key of Object.keys(pending)) answeredKeys.add(key);
        if (Object.keys(answers).length > 0) {
          const ack = await io.send(message(nextId(), "tasks/update", { taskId, inputResponses: answers }));
          if (ack && isObject(ack.error))
            return { end: "stopped", note: `The server refused the answers: ${String(ack.error.message ?? ack.error.code)}.` };
        }
      }
    }
    const stop = pollStopReason(task, startedAt, io.now(), limits);
    if (stop) return { end: "stopped", note: stop };
    if (!(await io.wait(pollDelay(task, limits)))) continue; // cancelled while waiting: the loop's first line cancels
    const polled = await io.send(message(nextId(), "tasks/get", { taskId }));
    if (!polled) return { end: "stopped", note: "tasks/get got no answer: the round shows why. The task may still run on the server." };
    if (isObject(polled.error))
      return {
        end: "stopped",
        note: `tasks/get failed: ${String(polled.error.message ?? polled.error.code)}. The task may have expired on the server.`,
      };
    const read = readPolledTask(polled.result, task.wire);
    if (!read.ok) return { end: "stopped", note: `${read.error} Polling stopped; the task may still run on the server.` };
    if (read.task.taskId !== taskId)
      return { end: "stopped", note: `tasks/get for ${taskId} answered about task ${read.task.taskId}: polling stopped.` };
    task = read.task;
    io.onTask(task);
  }
}
