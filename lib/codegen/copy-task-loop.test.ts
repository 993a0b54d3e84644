/**
 * The fetch snippet's task loop, run for real with node against the 2026-07-28 tasks fixture (lib/upstream/testing):
 * the call becomes a task, the loop polls it at the server's interval and prints its result.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startTasksServer, type TasksServer } from "../upstream/testing/tasks-server.ts";
import { fetchSnippet, typescriptSnippet, type CodeInput } from "./copy-as-code.ts";

const run = promisify(execFile);
const POLL_MS = 120;
let server: TasksServer;

before(async () => {
  server = await startTasksServer({ pollIntervalMs: POLL_MS, stepMs: 50 });
});
after(() => server?.stop());

function input(over: Partial<CodeInput> = {}): CodeInput {
  return {
    endpoint: server.url,
    era: "modern",
    protocolVersion: "2026-07-28",
    message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "build_report", arguments: { topic: "snippets", steps: 2 } } },
    tasks: true,
    ...over,
  };
}

test("2026-07-28: the snippet declares the extension, the server makes a task, the loop polls it to its result", async () => {
  const code = fetchSnippet(input());
  assert.match(code, /"io\.modelcontextprotocol\/tasks": \{\}/);
  assert.match(code, /"Mcp-Name": task\.taskId/);
  const dir = mkdtempSync(path.join(os.tmpdir(), "toolscope-task-snippet-"));
  const file = path.join(dir, "snippet.mjs");
  writeFileSync(file, code);
  const before = server.log.length;
  const { stdout } = await run(process.execPath, [file], { timeout: 20_000 });
  assert.match(stdout, /completed/);
  assert.match(stdout, /snippets/, "the report's text is printed");
  const polls = server.log.slice(before).filter((e) => e.method === "tasks/get");
  assert.ok(polls.length >= 1, "it polled");
  assert.ok(
    polls.every((p) => (p.sinceLastPollMs ?? 0) >= POLL_MS - 5),
    "no faster than the server asks",
  );
});

test("without tasks, or for another method, the snippet has no loop; the TypeScript one says why the SDK cannot follow", () => {
  assert.doesNotMatch(fetchSnippet(input({ tasks: false })), /tasks\/get/);
  assert.doesNotMatch(fetchSnippet(input({ message: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } })), /tasks\/get/);
  assert.match(typescriptSnippet(input()), /callTool cannot take a task handle/);
  const legacy = fetchSnippet(
    input({
      era: "legacy",
      protocolVersion: "2025-11-25",
      sessionId: "s-1",
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x", arguments: {}, task: { ttl: 60000 } } },
    }),
  );
  assert.match(legacy, /tasks\/result/);
  assert.match(legacy, /"Mcp-Session-Id": "s-1"/);
});
