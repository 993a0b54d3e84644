/**
 * Tests only: one JSON-RPC exchange with the built-in demo in process, as a 2026-07-28 client sends it (the routing
 * headers, the per-request `_meta`), so unit tests get the demo's real answers (its tool list, a created issue) without
 * a port. The answer may come as JSON or as one SSE event; either is read.
 */
import type { DemoServerHandler } from "../server.ts";

const PROTOCOL = "2026-07-28";
let nextId = 1;

export interface DemoExchange {
  /** The JSON-RPC request as sent, without the `_meta` envelope (what a collection would hold). */
  request: Record<string, unknown>;
  response: Record<string, unknown>;
}

export async function demoCall(
  demo: DemoServerHandler,
  method: string,
  params: Record<string, unknown> = {},
  client = "toolscope-test",
): Promise<DemoExchange> {
  const request = { jsonrpc: "2.0", id: nextId++, method, params };
  const meta = {
    "io.modelcontextprotocol/protocolVersion": PROTOCOL,
    "io.modelcontextprotocol/clientInfo": { name: client, version: "0.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const res = await demo.fetch(
    new Request("http://demo.test/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": method,
        ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      },
      body: JSON.stringify({ ...request, params: { ...params, _meta: meta } }),
    }),
  );
  const text = await res.text();
  const data = text.split("\n").find((l) => l.startsWith("data: "));
  return { request, response: JSON.parse(data ? data.slice(6) : text) as Record<string, unknown> };
}
