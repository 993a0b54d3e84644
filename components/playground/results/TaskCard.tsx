import type { TaskState } from "@/lib/mcp/tasks/task-shapes";
import { Badge } from "@/components/ui/Badge";
import { visibleText } from "@/lib/mcp/visible-text";

const STATUS_TONE = {
  working: "info",
  input_required: "warning",
  completed: "success",
  failed: "danger",
  cancelled: "neutral",
} as const;

const STATUS_WORDS: Record<TaskState["status"], string> = {
  working: "working",
  input_required: "waiting for your input",
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
};

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/**
 * A call that became a task: its status and message as last polled, the server's poll interval and lifetime, and
 * which wire it came on. The rounds below hold every poll, answer and cancel; Cancel (the request bar) stops it.
 */
export function TaskCard({ task, running }: { task: TaskState & { startedAt: number; seenAt: number }; running: boolean }) {
  return (
    <section
      data-testid="task-card"
      data-status={task.status}
      aria-label="Task"
      className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">The call became a task</span>
        <Badge tone={STATUS_TONE[task.status]} variant="solid" testId="task-status">
          {STATUS_WORDS[task.status]}
        </Badge>
        <span className="text-xs text-zinc-500">
          {task.wire === "extension" ? "tasks extension (2026-07-28)" : "experimental tasks (2025-11-25)"}
        </span>
      </div>
      {task.statusMessage && (
        <p className="mt-1" data-testid="task-status-message">
          {visibleText(task.statusMessage)}
        </p>
      )}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-zinc-600 dark:text-zinc-400">
        <dt>Task</dt>
        <dd className="min-w-0 break-all font-mono" data-testid="task-id">
          {visibleText(task.taskId)}
        </dd>
        <dt>Followed for</dt>
        <dd>{seconds(Math.max(0, task.seenAt - task.startedAt))}</dd>
        <dt>Polled every</dt>
        <dd data-testid="task-poll-interval">
          {task.pollIntervalMs !== undefined ? `${task.pollIntervalMs} ms, as the server asks` : "1 s (the server names no interval)"}
        </dd>
        <dt>Kept by the server</dt>
        <dd>{task.ttlMs === undefined ? "not said" : task.ttlMs === null ? "without a limit" : seconds(task.ttlMs)}</dd>
      </dl>
      {running && (
        <p className="mt-2 text-xs text-zinc-500">
          {task.status === "input_required" && task.wire === "experimental"
            ? "The server's questions arrive on tasks/result: answer them in the dialog."
            : "Cancel asks the server to stop the task (tasks/cancel)."}
        </p>
      )}
    </section>
  );
}
