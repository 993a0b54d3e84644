/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`) as real SDK servers hear it. A legacy server (2025-11-25, a
 * session over Streamable HTTP) reads it from initialize. A 2026-07-28 server reads it from each request's `_meta`.
 * Both are heard declared by default and absent when the connection says `apps: false` (the playground's switch).
 * Each server's own tool reports what it heard.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as z from "zod";
import { CLIENT_CAPABILITIES_META_KEY, McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import type { ConnectionDescriptor, Tool } from "@/lib/mcp/contract";
import { APP_HTML_MIME_TYPE, UI_EXTENSION } from "@/lib/mcp/meta";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { config } from "../../server/platform/config.ts";
import type { Target } from "../egress/targets.ts";
import type { UpstreamConfig } from "../upstream.ts";
import { asksHttpHandler } from "../testing/asks-server.ts";
import { streamableUpstream } from "../transports/upstream-http.ts";
import { sendRpc } from "./send-rpc.ts";

const MAX_BODY = 1_000_000;
let legacy: ServedHandler;
let legacyHandler: ReturnType<typeof asksHttpHandler>;
let modern: ServedHandler;
let modernHandler: ReturnType<typeof createMcpHandler>;

/** A 2026-07-28 server whose tool returns the capabilities the request's `_meta` declared. */
function modernServer(): McpServer {
  const server = new McpServer({ name: "caps", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "declared-capabilities",
    { description: "What this request declared.", inputSchema: z.object({}) },
    async (_args, ctx) => {
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      return { content: [{ type: "text" as const, text: JSON.stringify(envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? null) }] };
    },
  );
  return server;
}

before(async () => {
  legacyHandler = asksHttpHandler();
  legacy = await serveFetchHandler(legacyHandler);
  modernHandler = createMcpHandler(() => modernServer(), { legacy: "reject" });
  modern = await serveFetchHandler(modernHandler);
});

after(async () => {
  await legacyHandler?.close();
  await legacy?.close();
  await modernHandler?.close();
  await modern?.close();
});

function cfg(): UpstreamConfig {
  return { ...config(), mode: "local", requestTimeoutMs: 10_000, maxResponseBytes: MAX_BODY, eraCacheTtlMs: 0 };
}

function target(url: URL): Target {
  return { url, displayUrl: url.toString(), fetch };
}

/** Connect, then ask the server's tool what it heard, through the same call path the API uses. */
async function heard(url: URL, era: "legacy" | "modern", apps: boolean | undefined) {
  const upstream = streamableUpstream(target(url), cfg());
  const { connection } = await upstream.connect({
    url: url.toString(),
    era,
    userHeaders: {},
    interactive: false,
    ...(apps === undefined ? {} : { apps }),
  });
  const res = await sendRpc({
    upstream,
    descriptor: connection as ConnectionDescriptor,
    message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "declared-capabilities", arguments: {} } },
    userHeaders: {},
    findTool: async (): Promise<Tool | undefined> => undefined,
    timeoutMs: 10_000,
    maxBodyBytes: MAX_BODY,
  });
  const result = res.response?.result as { content: { text: string }[] };
  return { connection, capabilities: JSON.parse(result.content[0].text) as Record<string, unknown> | null };
}

const UI = { [UI_EXTENSION]: { mimeTypes: [APP_HTML_MIME_TYPE] } };

for (const era of ["legacy", "modern"] as const) {
  describe(`the MCP Apps extension, ${era} era`, () => {
    const url = () => (era === "legacy" ? legacy.url : modern.url);

    test("declared by default, beside elicitation, sampling and roots", async () => {
      const { connection, capabilities } = await heard(url(), era, undefined);
      assert.equal(connection.era, era);
      assert.equal(connection.apps, undefined);
      assert.deepEqual(capabilities?.extensions, UI);
      assert.ok(capabilities?.elicitation && capabilities.sampling && capabilities.roots);
    });

    test("not declared when the connection says apps: false, and the descriptor keeps saying so", async () => {
      const { connection, capabilities } = await heard(url(), era, false);
      assert.equal(connection.apps, false);
      assert.equal(capabilities?.extensions, undefined);
      assert.ok(capabilities?.elicitation && capabilities.sampling && capabilities.roots, "the other capabilities stay");
    });
  });
}
