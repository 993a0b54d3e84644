/**
 * The benchmark's upstream: a minimal 2026-07-28 MCP server (the official SDK, Streamable HTTP) with one `echo` tool,
 * on a free loopback port. It counts the JSON-RPC methods it is asked, so the bench can say how many upstream
 * requests a proxied call cost (a tools/list walk before a call shows up here).
 */
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import * as z from "zod";
import { serveFetchHandler } from "../../lib/demo/testing/node-http-adapter.ts";

export interface EchoServer {
  /** The MCP endpoint. Any path under the server answers, so a new path is a server no cache has seen. */
  url: string;
  base: string;
  /** Requests per JSON-RPC method since the last reset. */
  counts(): Record<string, number>;
  resetCounts(): void;
  close(): Promise<void>;
}

export interface EchoServerOptions {
  /** `ttlMs` on tools/list; absent: the list carries no cache hint (immediately stale, caching.mdx). */
  listTtlMs?: number;
}

export async function startEchoServer(options: EchoServerOptions = {}): Promise<EchoServer> {
  let counts: Record<string, number> = {};
  const handler = createMcpHandler(() => {
    const server = new McpServer(
      { name: "bench-echo", version: "1.0.0" },
      {
        capabilities: { tools: { listChanged: false } },
        ...(options.listTtlMs !== undefined ? { cacheHints: { "tools/list": { ttlMs: options.listTtlMs, cacheScope: "public" } } } : {}),
      },
    );
    server.registerTool(
      "echo",
      { description: "Returns its text.", inputSchema: z.object({ text: z.string() }), annotations: { readOnlyHint: true } },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    return server;
  });
  const counting = {
    async fetch(req: Request): Promise<Response> {
      const method = req.headers.get("mcp-method") ?? req.method;
      counts[method] = (counts[method] ?? 0) + 1;
      return handler.fetch(req);
    },
  };
  const served = await serveFetchHandler(counting, "/mcp");
  return {
    url: served.url.href,
    base: served.url.origin,
    counts: () => ({ ...counts }),
    resetCounts: () => void (counts = {}),
    close: () => served.close(),
  };
}
