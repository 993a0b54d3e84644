/**
 * Tests only: a real MCP server (the SDK's McpServer, 2025-era) whose tools ask the client something in the middle of
 * the call and return what they heard: `ask-elicit` (elicitation/create, sent on the call's own stream),
 * `ask-sample` (sampling/createMessage, same), `ask-roots` (roots/list through `server.listRoots()`, which on
 * Streamable HTTP goes out on the session's GET stream), and `ask-ping` (ping through `server.server.ping()`, which
 * every client answers with `{}`). Each tool's result is `{"answer": <result>}` or
 * `{"error": <message>}` as JSON text, so a test can see what reached the server. `waitMs` bounds the server's own
 * wait for the answer (the SDK's request timeout; on it the SDK withdraws the request with notifications/cancelled).
 * `ask-and-go` asks and returns without waiting for the answer. With `rootsAtStart`, the server also asks `roots/list`
 * 150 ms after `notifications/initialized`, between calls, as server-everything does, and `roots-at-start` returns
 * what it heard then (`{"pending": true}` while it still waits). `declared-capabilities` returns what the client
 * declared at initialize.
 *
 * Served three ways: Streamable HTTP with sessions (`asksHttpHandler`, a fetch handler), HTTP+SSE (`serveAsksSse`,
 * GET /sse + POST /message, a minimal SSE server transport below), and stdio (run this file with `stdio`).
 */
import { createServer, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { McpServer, WebStandardStreamableHTTPServerTransport, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/server";
import * as z from "zod";

const WAIT = { waitMs: z.number().int().positive().optional() };

function said(value: unknown) {
  return { content: [{ type: "text" as const, text: JSON.stringify(value) }] };
}

async function heard(ask: () => Promise<unknown>) {
  try {
    return said({ answer: await ask() });
  } catch (err) {
    // A moment before answering the call, so whatever the SDK sent on the failure (notifications/cancelled at its
    // timeout) reaches the client first, even when it goes out on another stream (the session's GET stream).
    await new Promise((r) => setTimeout(r, 150));
    return said({ error: (err as Error).message });
  }
}

export function createAsksServer({ rootsAtStart = false }: { rootsAtStart?: boolean } = {}): McpServer {
  const server = new McpServer({ name: "asks", version: "1.0.0" }, { capabilities: { tools: {} } });
  if (rootsAtStart) {
    let atStart: unknown = { pending: true };
    server.server.oninitialized = () =>
      void setTimeout(() => {
        server.server.listRoots(undefined, { timeout: 1_500 }).then(
          (answer) => (atStart = { answer }),
          (err: Error) => (atStart = { error: err.message }),
        );
      }, 150);
    server.registerTool(
      "roots-at-start",
      { description: "What the server heard when it asked roots/list right after initialized.", inputSchema: z.object({}) },
      async () => said(atStart),
    );
  }
  server.registerTool(
    "declared-capabilities",
    { description: "The capabilities the client declared at initialize, as the server holds them.", inputSchema: z.object({}) },
    async () => said(server.server.getClientCapabilities() ?? null),
  );
  server.registerTool(
    "ask-elicit",
    { description: "Asks the user for a name (elicitation/create) and returns the answer.", inputSchema: z.object(WAIT) },
    async ({ waitMs }, ctx) =>
      heard(() =>
        ctx.mcpReq.elicitInput(
          {
            mode: "form",
            message: "What is your name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
          { timeout: waitMs },
        ),
      ),
  );
  server.registerTool(
    "ask-sample",
    { description: "Asks the client's model (sampling/createMessage) and returns the answer.", inputSchema: z.object(WAIT) },
    async ({ waitMs }, ctx) =>
      heard(() =>
        ctx.mcpReq.requestSampling(
          { messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 20 },
          { timeout: waitMs },
        ),
      ),
  );
  server.registerTool(
    "ask-roots",
    { description: "Asks the client for its roots (roots/list) and returns them.", inputSchema: z.object(WAIT) },
    async ({ waitMs }) => heard(() => server.server.listRoots(undefined, { timeout: waitMs })),
  );
  // Asks and answers the call without waiting for the answer (the request goes out first).
  server.registerTool(
    "ask-and-go",
    { description: "Asks the user for a name, does not wait for the answer, and returns.", inputSchema: z.object({}) },
    async (_args, ctx) => {
      void ctx.mcpReq
        .elicitInput({
          mode: "form",
          message: "Your name (nobody waits for it)?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } } },
        })
        .catch(() => undefined);
      await new Promise((r) => setTimeout(r, 50));
      return said({ went: true });
    },
  );
  // Pings the client (`ping`, a server request every client must answer with `{}`) and returns the answer.
  server.registerTool("ask-ping", { description: "Pings the client (ping) and returns its answer.", inputSchema: z.object({}) }, async () =>
    heard(() => server.server.ping()),
  );
  // Its inputSchema is over TOOLSCOPE_MAX_SCHEMA_BYTES: listed as excluded, and a call to it must be refused by the client.
  server.registerTool(
    "oversized-schema",
    {
      description: "A tool whose inputSchema is too large to read.",
      inputSchema: z.object({ note: z.string().describe("x".repeat(300_000)) }),
    },
    async () => said({ called: true }),
  );
  return server;
}

/** Streamable HTTP with sessions (the 2025-era way a server can send requests to the client mid-call). */
export function asksHttpHandler(opts: { rootsAtStart?: boolean } = {}): { fetch(req: Request): Promise<Response>; close(): Promise<void> } {
  const sessions = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; server: McpServer }>();
  return {
    async fetch(req) {
      const sessionId = req.headers.get("mcp-session-id");
      if (sessionId) {
        const session = sessions.get(sessionId);
        if (!session)
          return Response.json({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }, { status: 404 });
        return session.transport.handleRequest(req);
      }
      const server = createAsksServer(opts);
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      await server.connect(transport);
      return transport.handleRequest(req);
    },
    async close() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.server.close().catch(() => undefined)));
    },
  };
}

/** The server side of one HTTP+SSE (2024-11-05) session: messages out as `message` events, in through POSTs. */
class SseServerTransport implements Transport {
  readonly sessionId = randomUUID();
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  constructor(private readonly res: ServerResponse) {}

  async start(): Promise<void> {
    this.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    this.res.write(`event: endpoint\ndata: /message?sessionId=${this.sessionId}\n\n`);
    this.res.on("close", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  async close(): Promise<void> {
    this.res.end();
  }

  receive(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

/** HTTP+SSE on 127.0.0.1: GET /sse opens a session, POST /message?sessionId= carries the client's messages. */
export async function serveAsksSse(): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, { transport: SseServerTransport; server: McpServer }>();
  const http = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://asks");
    if (req.method === "GET" && url.pathname === "/sse") {
      const server = createAsksServer();
      const transport = new SseServerTransport(res);
      sessions.set(transport.sessionId, { transport, server });
      res.on("close", () => {
        sessions.delete(transport.sessionId);
        void server.close().catch(() => undefined);
      });
      void server.connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/message") {
      const session = sessions.get(url.searchParams.get("sessionId") ?? "");
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => (body += c));
      req.on("end", () => {
        if (!session) return void res.writeHead(404).end("no such session");
        res.writeHead(202).end("Accepted");
        session.transport.receive(JSON.parse(body) as JSONRPCMessage);
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/sse`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

// `node --import tsx lib/upstream/testing/asks-server.ts stdio`: the same server on stdin/stdout.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href && process.argv[2] === "stdio") {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(() => createAsksServer());
}
