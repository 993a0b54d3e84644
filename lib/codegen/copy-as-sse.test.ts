import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { startEverythingServer } from "../../playwright/fixtures/everything-server.ts";
import { codeFor, curlCommand, fetchSnippet, typescriptSnippet, wireRequest, type CodeInput } from "./copy-as-code.ts";

// The snippets are run for real: the shell script with sh + curl, the fetch one with node, both against the published
// @modelcontextprotocol/server-everything in its HTTP+SSE mode.

const run = promisify(execFile);
let everything: { url: string; stop: () => void };
let sseUrl = "";

before(async () => {
  everything = await startEverythingServer("sse");
  sseUrl = everything.url;
});

after(() => {
  everything?.stop();
});

const ECHO = "it's ünïcode";
function input(over: Partial<CodeInput> = {}): CodeInput {
  return {
    endpoint: sseUrl,
    era: "legacy",
    protocolVersion: "2024-11-05",
    transport: "sse",
    message: { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: ECHO } } },
    userHeaderNames: ["Authorization"],
    ...over,
  };
}

test("SSE POST headers: what the SDK's SSE transport sends (no session id, fetch's default Accept), user headers as placeholders", () => {
  const { headers } = wireRequest(input({ sessionId: "ignored" }));
  assert.deepEqual(headers, [
    ["Content-Type", "application/json"],
    ["Accept", "*/*"],
    ["MCP-Protocol-Version", "2024-11-05"],
    ["Authorization", { env: "AUTHORIZATION" }],
  ]);
});

test("curl for an SSE server: a script that opens the stream, initializes, posts and prints the answer from the stream", async () => {
  const script = curlCommand(input());
  assert.equal(codeFor("curl", input()), script);
  assert.doesNotMatch(script, new RegExp(`^curl -sS -X POST '${sseUrl}'`), "not a lone POST to the stream URL");
  assert.match(script, /curl -sSN '[^']+\/sse' -H 'Accept: text\/event-stream' -H "Authorization: \$AUTHORIZATION" > "\$STREAM" &/);
  assert.match(script, /-H "Authorization: \$AUTHORIZATION" \\\n/, "the user's header goes on each POST too");
  const { stdout } = await run("sh", ["-c", script], { env: { ...process.env, AUTHORIZATION: "Bearer x" }, timeout: 30_000 });
  const answer = JSON.parse(stdout.trim()) as { id: number; result: { content: { text: string }[] } };
  assert.equal(answer.id, 7);
  assert.equal(answer.result.content[0].text, `Echo: ${ECHO}`);
});

test("fetch for an SSE server: a Node module that reads the stream's events and prints the answer", async () => {
  const code = fetchSnippet(input({ message: { jsonrpc: "2.0", id: "list", method: "tools/list", params: {} } }));
  assert.match(code, /"Authorization": process\.env\.AUTHORIZATION \?\? ""/);
  const dir = mkdtempSync(path.join(os.tmpdir(), "copy-sse-"));
  const file = path.join(dir, "call.mjs");
  writeFileSync(file, code);
  const { stdout } = await run(process.execPath, [file], { env: { ...process.env, AUTHORIZATION: "Bearer x" }, timeout: 30_000 });
  const answer = JSON.parse(stdout) as { id: string; result: { tools: { name: string }[] } };
  assert.equal(answer.id, "list");
  assert.ok(answer.result.tools.some((t) => t.name === "echo"));
});

test("a notification posts after the handshake and waits for no answer; an initialize is not preceded by another", async () => {
  const note = curlCommand(input({ message: { jsonrpc: "2.0", method: "notifications/roots/list_changed" } }));
  assert.match(note, /# A notification gets no answer\.$/);
  await run("sh", ["-c", note], { env: { ...process.env, AUTHORIZATION: "" }, timeout: 30_000 });
  const init = curlCommand(
    input({
      message: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "x", version: "1" } },
      },
    }),
  );
  assert.equal(init.match(/"method":"initialize"/g)?.length, 1);
  const { stdout } = await run("sh", ["-c", init], { env: { ...process.env, AUTHORIZATION: "" }, timeout: 30_000 });
  assert.equal((JSON.parse(stdout) as { result: { protocolVersion: string } }).result.protocolVersion, "2024-11-05");
});

test("TypeScript for an SSE server: the SDK's SSEClientTransport with the user's headers", () => {
  const ts = typescriptSnippet(input());
  assert.match(ts, /import \{ Client, SSEClientTransport \} from "@modelcontextprotocol\/client";/);
  assert.match(
    ts,
    /new SSEClientTransport\(new URL\("[^"]+\/sse"\), \{\n  requestInit: \{\n    headers: \{\n      "Authorization": process\.env\.AUTHORIZATION/,
  );
  assert.doesNotMatch(ts, /StreamableHTTPClientTransport/);
});
