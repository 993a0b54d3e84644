/**
 * A 2025-11-25 tool's `execution.taskSupport`: whether a call must (`required`), may (`optional`) or must not
 * (`forbidden`, also when absent) ask for a task. 2026-07-28 dropped the field: there the server decides per call.
 */
import { isObject } from "../../json/guards.ts";

export type TaskSupport = "forbidden" | "optional" | "required";

/** The task lifetime a playground template asks for (the server may choose another). */
export const TEMPLATE_TASK_TTL_MS = 300_000;

/** The tool's declared support, and whether it was declared at all (absent reads as forbidden). */
export function toolTaskSupport(tool: { execution?: unknown }): { support: TaskSupport; declared: boolean } {
  const value = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
  return value === "optional" || value === "required" || value === "forbidden"
    ? { support: value, declared: true }
    : { support: "forbidden", declared: false };
}

/** Whether a server's capabilities offer tasks: 2025-11-25's `tasks`, or the 2026-07-28 extension. */
export function declaresTasks(capabilities: unknown): boolean {
  if (!isObject(capabilities)) return false;
  return (
    isObject(capabilities.tasks) ||
    (isObject(capabilities.extensions) && isObject(capabilities.extensions["io.modelcontextprotocol/tasks"]))
  );
}
