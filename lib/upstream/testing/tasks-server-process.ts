/**
 * Tests only: starts the tasks fixture server (tasks-server-main.ts) as a child process, for tests that need it to
 * outlive or stand apart from the test's own process (Playwright runs the app in another process). Resolves once the
 * child prints where it listens; its log is read over HTTP (`GET /_log`).
 */
import { spawn } from "node:child_process";
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
export function spawnTasksServer(args: string[] = []): Promise<TasksServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      reject(new Error(`tasks-server-main.ts ${why}${out ? `; it said: ${out}` : ""}`));
    };
    const timer = setTimeout(() => fail("did not start within 20 s"), 20_000);
    child.on("exit", (code) => fail(`exited with ${code}`));
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = LISTENING_LINE.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      const url = m[1];
      resolve({
        url,
        async log(taskId) {
          const logUrl = new URL("/_log", url);
          if (taskId) logUrl.searchParams.set("taskId", taskId);
          return (await (await fetch(logUrl)).json()) as TaskLogEntry[];
        },
        stop: () => void child.kill("SIGTERM"),
      });
    });
  });
}
