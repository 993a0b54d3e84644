/**
 * Whether a call's answer is a task to follow: on 2026-07-28 a `tools/call` whose request declared the tasks
 * extension and came back with `resultType: "task"`; on 2025-11-25 a `tools/call` that asked for a task (`params.task`)
 * and came back with the wrapped handle. Anything else is an ordinary answer (an undeclared task handle is shown as
 * the invalid result it is, with the proxy's warning).
 */
import { isObject } from "../../json/guards.ts";
import { isTaskHandle, readCreatedTask, type TaskRead } from "../../mcp/tasks/task-shapes.ts";

export function taskHandleOf(
  sent: Record<string, unknown>,
  response: Record<string, unknown> | null,
  era: "modern" | "legacy",
  declared: boolean,
): TaskRead | undefined {
  if (sent.method !== "tools/call" || !response || !isObject(response.result)) return undefined;
  const result = response.result;
  if (era === "modern") return declared && isTaskHandle(result, "extension") ? readCreatedTask(result, "extension") : undefined;
  const asked = isObject(sent.params) && isObject(sent.params.task);
  return asked && isTaskHandle(result, "experimental") ? readCreatedTask(result, "experimental") : undefined;
}
