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
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createDemoServerHandler } from "@/lib/demo/server";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { startEverythingServer } from "@/playwright/fixtures/everything-server";
import { CLIENT_CAPABILITIES } from "@/lib/mcp/meta";

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

/** The names the server lists to the official SDK client (declaring the capabilities the core declares). */
async function directly(url: string): Promise<string[]> {
  const client = new Client({ name: "plain-node-test", version: "1.0.0" }, { capabilities: CLIENT_CAPABILITIES as never });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor);
    return names.sort();
  } finally {
    await client.close();
  }
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
