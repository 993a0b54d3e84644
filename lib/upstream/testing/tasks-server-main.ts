/**
 * Tests only: the tasks fixture server (tasks-server.ts) as its own process, for end-to-end tests that run the app in
 * another process. It listens on 127.0.0.1 (a free port unless `--port` names one) and prints one line naming its MCP endpoint and its log:
 *
 *   tasks-server listening on http://127.0.0.1:PORT/mcp (log: http://127.0.0.1:PORT/_log)
 *
 * Run: `node --import tsx lib/upstream/testing/tasks-server-main.ts [--port N] [--poll-interval-ms N] [--step-ms N]
 * [--ttl-ms N|none] [--max-tasks N]`. It stops on SIGTERM or SIGINT.
 */
import { parseArgs } from "node:util";
import { listeningLine, startTasksServer, type TasksServerOptions } from "./tasks-server.ts";

function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${flag} wants a whole number, not ${value}`);
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "poll-interval-ms": { type: "string" },
    "step-ms": { type: "string" },
    "ttl-ms": { type: "string" },
    "max-tasks": { type: "string" },
  },
});
const options: TasksServerOptions = {
  port: count("port", values.port),
  pollIntervalMs: count("poll-interval-ms", values["poll-interval-ms"]),
  stepMs: count("step-ms", values["step-ms"]),
  ttlMs: values["ttl-ms"] === "none" ? null : count("ttl-ms", values["ttl-ms"]),
  maxTasks: count("max-tasks", values["max-tasks"]),
};
const server = await startTasksServer(options);
process.stdout.write(`${listeningLine(server)}\n`);

const stop = () => void server.stop().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
