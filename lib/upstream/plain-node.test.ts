/**
 * The MCP client core runs outside Next.js: a child `node` without `--conditions=react-server` (under which the
 * `server-only` package throws on import) lists real servers' tools through `lib/upstream` alone, and names the same
 * tools the official SDK client gets from the server directly. The servers: Toolscope's demo (2026-07-28) and the
 * published server-everything (2025-11-25), both over Streamable HTTP on loopback.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { startEverythingServer } from "@/playwright/fixtures/everything-server";
import { serverToolNames } from "@/playwright/fixtures/server-tool-names";

const run = promisify(execFile);
let demo: ServedHandler;
let everything: { url: string; stop: () => void };

before(async () => {
  demo = await serveFetchHandler(createDemoServerHandler());
  everything = await startEverythingServer("streamableHttp");
});
after(async () => {
  everything?.stop();
  await demo?.close();
});

/** The names the server lists to the official SDK client, declaring the capabilities the core declares. */
function directly(url: string): Promise<string[]> {
  return serverToolNames(new StreamableHTTPClientTransport(new URL(url)));
}

for (const [name, server, era] of [
  ["the demo server", () => demo.url.toString(), "modern"],
  ["server-everything (published)", () => everything.url, "legacy"],
] as const) {
  test(`plain node lists ${name}'s tools through lib/upstream, as the SDK sees them`, { timeout: 60_000 }, async () => {
    const env = { ...process.env, NODE_OPTIONS: "" };
    const { stdout } = await run(process.execPath, ["--import", "tsx", "lib/upstream/testing/list-tools.ts", server()], { env });
    const listed = JSON.parse(stdout) as { era: string; tools: string[] };
    assert.equal(listed.era, era);
    assert.ok(listed.tools.length > 3, stdout);
    assert.deepEqual([...listed.tools].sort(), await directly(server()));
  });
}
