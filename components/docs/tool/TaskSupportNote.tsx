import type { Tool } from "@/lib/mcp/contract";
import { toolTaskSupport } from "@/lib/mcp/tasks/task-support";
import { Badge } from "@/components/ui/Badge";

const WORDS = {
  required: "A call must ask for a task (params.task): the server refuses a plain call. The playground's template asks for one.",
  optional: "A call may ask for a task (params.task) and then polls for the result; without one it answers as usual.",
  forbidden: "A call must not ask for a task.",
} as const;

/**
 * A 2025-11-25 tool's `execution.taskSupport`, when the tool declares it (2026-07-28 dropped the field: there the
 * server decides per call whether a call becomes a task).
 */
export function TaskSupportNote({ tool }: { tool: Tool }) {
  const { support, declared } = toolTaskSupport({ execution: tool.execution });
  if (!declared) return null;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="task-support">
      <Badge tone={support === "forbidden" ? "neutral" : "info"} variant="solid">
        task: {support}
      </Badge>
      <span className="text-zinc-600 dark:text-zinc-400">{WORDS[support]}</span>
    </p>
  );
}
