/**
 * "Copy as code" for a call that may become a task: after the fetch, a loop that polls the task at the interval the
 * server asks (2026-07-28: `tasks/get` until it ends, answering `inputRequests` with `tasks/update`; 2025-11-25:
 * `tasks/get` until it is no longer working, then `tasks/result`). The same headers as the call, plus the routing
 * headers the tasks methods need on 2026-07-28 (`Mcp-Method`, `Mcp-Name: <taskId>`).
 */
import type { TaskWire } from "../mcp/tasks/task-shapes.ts";

/** The loop's lines, to follow a fetch whose JSON answer is in `answer` and whose headers object is `headers`. */
export function taskLoopLines(wire: TaskWire, endpoint: string, meta: unknown): string[] {
  const url = JSON.stringify(endpoint);
  const metaText = meta === undefined ? "" : `, _meta: ${JSON.stringify(meta)}`;
  const send = (method: string, params: string) =>
    `(await (await fetch(${url}, { method: "POST", headers: { ...headers${
      wire === "extension" ? `, "Mcp-Method": "${method}", "Mcp-Name": task.taskId` : ""
    } }, body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "${method}", params: { ${params}${metaText} } }) })).json())`;
  if (wire === "extension")
    return [
      ``,
      `// The server may turn the call into a task (resultType "task"): poll it, no faster than it asks, until it ends.`,
      `let id = 1;`,
      `let task = answer.result;`,
      `while (task?.resultType === "task" || task?.status === "working" || task?.status === "input_required") {`,
      `  await new Promise((r) => setTimeout(r, task.pollIntervalMs ?? 1000));`,
      `  if (task.status === "input_required") {`,
      `    // Answer each of task.inputRequests (elicitation, sampling, roots) by its key; here every form is declined.`,
      `    const inputResponses = Object.fromEntries(Object.keys(task.inputRequests ?? {}).map((k) => [k, { action: "decline" }]));`,
      `    ${send("tasks/update", "taskId: task.taskId, inputResponses")};`,
      `  }`,
      `  task = ${send("tasks/get", "taskId: task.taskId")}.result;`,
      `}`,
      `console.log(task?.status, task?.result ?? task?.error ?? task);`,
    ];
  return [
    ``,
    `// The call asked for a task: poll it at the interval the server asks, then fetch its result.`,
    `let id = 1;`,
    `let task = answer.result?.task;`,
    `while (task?.status === "working") {`,
    `  await new Promise((r) => setTimeout(r, task.pollInterval ?? 1000));`,
    `  task = ${send("tasks/get", "taskId: task.taskId")}.result;`,
    `}`,
    `// tasks/result waits for the end; a server asking for input (input_required) sends its requests on this stream.`,
    `if (task) console.log(${send("tasks/result", "taskId: task.taskId")});`,
  ];
}
