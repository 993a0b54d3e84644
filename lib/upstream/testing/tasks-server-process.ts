/**
 * Tests only: starts the tasks fixture server (tasks-server-main.ts) as a child process, for tests that need it to
 * outlive or stand apart from the test's own process (Playwright runs the app in another process). Resolves once the
 * child prints where it listens; its log is read over HTTP (`GET /_log`).
 */
import { spawnFixture } from "./spawn-fixture.ts";
import { fileURLToPath } from "node:url";
import { LISTENING_LINE } from "./tasks-server.ts";
import type { TaskLogEntry } from "./tasks-store.ts";

const MAIN = fileURLToPath(new URL("./tasks-server-main.ts", import.meta.url));

export interface TasksServerProcess {
  /** The MCP endpoint. */
  url: string;
  /** The log so far (every tasks/get, tasks/update, tasks/cancel and task creation), or one task's. */
  log(taskId?: string): Promise<TaskLogEntry[]>;
  stop(): void;
}

/** `args` are tasks-server-main.ts's flags, e.g. `["--poll-interval-ms", "250", "--step-ms", "100"]`. */
export async function spawnTasksServer(args: string[] = []): Promise<TasksServerProcess> {
  const { url, stop } = await spawnFixture(MAIN, args, LISTENING_LINE);
  return {
    url,
    stop,
    async log(taskId) {
      const logUrl = new URL("/_log", url);
      if (taskId) logUrl.searchParams.set("taskId", taskId);
      return (await (await fetch(logUrl)).json()) as TaskLogEntry[];
    },
  };
}
