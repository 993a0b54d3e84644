"use client";

import { useCallback, useEffect, useState } from "react";
import type { ConnectionDescriptor, UserHeaders } from "@/lib/mcp/contract";
import { api } from "@/lib/client/api-client";
import { isObject } from "@/lib/json/guards";
import { visibleText } from "@/lib/mcp/visible-text";
import { isTerminal, readPolledTask, readTaskList, type TaskState } from "@/lib/mcp/tasks/task-shapes";
import { forgetTabTask, loadTabTasks, recordTabTask, TAB_TASKS_EVENT, type TabTask } from "@/lib/playground/tasks/tab-tasks";
import { Badge } from "@/components/ui/Badge";

const TONE = { working: "info", input_required: "warning", completed: "success", failed: "danger", cancelled: "neutral" } as const;

/** Pages of a legacy tasks/list read at most (each bounded by the proxy's limits). */
const MAX_LIST_PAGES = 5;

interface Props {
  server: string;
  connection: ConnectionDescriptor | undefined;
  headers: UserHeaders;
  /** Tasks on this server (the server declares `tasks`, or this tab started one): otherwise the panel stays away. */
  serverDeclaresTasks: boolean;
}

function SmallButton({
  disabled,
  onClick,
  testId,
  children,
}: {
  disabled: boolean;
  onClick: () => void;
  testId: string;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      disabled={disabled}
      onClick={onClick}
      className="rounded border border-zinc-300 px-2 py-0.5 text-xs disabled:opacity-60 dark:border-zinc-700"
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/** One message to the server outside the editor's exchange (a check or a cancel from the panel). */
async function ask(connection: ConnectionDescriptor, headers: UserHeaders, method: string, params: Record<string, unknown>) {
  const rpc = await api.rpcStream(
    connection,
    { jsonrpc: "2.0", id: `tasks-panel-${Date.now().toString(36)}`, method, params },
    headers,
    {},
    undefined,
    undefined,
    true,
  );
  return rpc.response;
}

/**
 * The tasks this tab started on this server, newest first, as last seen (kept in sessionStorage: a reload keeps them,
 * closing the tab forgets them, and nothing polls them in the background). A task still running after a reload can
 * be checked once or cancelled from here; on a 2025-11-25 server, tasks/list shows what the server itself holds.
 */
export function TasksPanel({ server, connection, headers, serverDeclaresTasks }: Props) {
  const [tasks, setTasks] = useState<TabTask[]>([]);
  const [listed, setListed] = useState<TaskState[] | null>(null);
  const [note, setNote] = useState<string>("");
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const read = () => setTasks(loadTabTasks().filter((t) => t.server === server));
    read();
    window.addEventListener(TAB_TASKS_EVENT, read);
    return () => window.removeEventListener(TAB_TASKS_EVENT, read);
  }, [server]);

  const act = useCallback(
    async (task: TabTask, method: "tasks/get" | "tasks/cancel") => {
      if (!connection) return;
      setBusy(true);
      setNote("");
      try {
        const response = await ask(connection, headers, method, { taskId: task.taskId });
        if (!response) throw new Error("no answer");
        if (isObject(response.error)) {
          setNote(`${method} for ${task.taskId}: ${String(response.error.message ?? response.error.code)}`);
          return;
        }
        const read = readPolledTask(response.result, task.wire);
        if (read.ok) recordTabTask(server, { ...read.task, startedAt: task.startedAt, seenAt: Date.now() }, task.tool);
        else if (method === "tasks/cancel") setNote(`Cancel sent for ${task.taskId}.`);
        else setNote(read.error);
      } catch (err) {
        setNote(`${method} for ${task.taskId} failed: ${(err as Error).message}`);
      } finally {
        setBusy(false);
      }
    },
    [connection, headers, server],
  );

  const list = useCallback(async () => {
    if (!connection) return;
    setBusy(true);
    setNote("");
    try {
      const all: TaskState[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const response = await ask(connection, headers, "tasks/list", cursor ? { cursor } : {});
        if (!response || isObject(response.error)) {
          setNote(`tasks/list: ${response && isObject(response.error) ? String(response.error.message) : "no answer"}`);
          break;
        }
        const read = readTaskList(response.result);
        if (!read.ok) {
          setNote(read.error);
          break;
        }
        all.push(...read.tasks);
        if (read.skipped.length)
          setNote(`Skipped ${read.skipped.length} malformed entr${read.skipped.length === 1 ? "y" : "ies"}: ${read.skipped[0]}`);
        cursor = read.nextCursor;
        if (!cursor) break;
      }
      setListed(all);
    } catch (err) {
      setNote(`tasks/list failed: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }, [connection, headers]);

  if (!serverDeclaresTasks && tasks.length === 0) return null;
  const legacy = connection?.era === "legacy";
  return (
    <details className="mb-3 rounded-md border border-zinc-200 px-2 py-1.5 dark:border-zinc-800" data-testid="tasks-panel">
      <summary className="cursor-pointer text-sm font-medium">
        Tasks <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">({tasks.length} in this tab)</span>
      </summary>
      <div className="mt-2 space-y-2 text-sm">
        {tasks.length === 0 && <p className="text-zinc-500">No task started in this tab yet.</p>}
        <ul className="space-y-1.5">
          {tasks.map((t) => (
            <li key={t.taskId} className="flex flex-wrap items-center gap-2" data-testid="tab-task" data-status={t.status}>
              <Badge tone={TONE[t.status]} variant="solid">
                {t.status}
              </Badge>
              <span className="font-medium">{t.tool ? visibleText(t.tool) : "a call"}</span>
              <code className="min-w-0 break-all text-xs text-zinc-500">{visibleText(t.taskId)}</code>
              {t.statusMessage && <span className="text-xs text-zinc-600 dark:text-zinc-400">{visibleText(t.statusMessage)}</span>}
              <span className="text-xs text-zinc-500">seen {new Date(t.seenAt).toLocaleTimeString()}</span>
              <span className="ml-auto flex gap-1">
                {!isTerminal(t.status) && (
                  <>
                    <SmallButton disabled={busy || !connection} onClick={() => act(t, "tasks/get")} testId="tab-task-check">
                      Check
                    </SmallButton>
                    <SmallButton disabled={busy || !connection} onClick={() => act(t, "tasks/cancel")} testId="tab-task-cancel">
                      Cancel
                    </SmallButton>
                  </>
                )}
                <button
                  type="button"
                  onClick={() => forgetTabTask(server, t.taskId)}
                  className="rounded px-2 py-0.5 text-xs text-zinc-500 underline"
                  aria-label={`Forget task ${t.taskId}`}
                >
                  Forget
                </button>
              </span>
            </li>
          ))}
        </ul>
        {legacy && (
          <div>
            <SmallButton disabled={busy || !connection} onClick={list} testId="tasks-list">
              List the server&apos;s tasks (tasks/list)
            </SmallButton>
            {listed && (
              <ul className="mt-1 space-y-0.5 text-xs" data-testid="server-tasks">
                {listed.length === 0 && <li className="text-zinc-500">The server holds no task.</li>}
                {listed.map((t) => (
                  <li key={t.taskId}>
                    <code>{visibleText(t.taskId)}</code> · {t.status}
                    {t.statusMessage ? ` · ${visibleText(t.statusMessage)}` : ""}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {note && (
          <p role="status" className="text-xs text-amber-800 dark:text-amber-300">
            {visibleText(note)}
          </p>
        )}
        <p className="text-xs text-zinc-500">Kept for this browser tab only; nothing is polled once a call stops being followed.</p>
      </div>
    </details>
  );
}
