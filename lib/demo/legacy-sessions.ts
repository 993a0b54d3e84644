/**
 * 2025-era serving for the demo: a bounded pool of sessionful Streamable HTTP transports
 * (`initialize` mints an `Mcp-Session-Id`; later POST/GET/DELETE carry it). Sessions are what let
 * a 2025 server send requests to the client mid-call (elicitation for `purge_closed_issues`).
 * Session-less, non-`initialize` legacy traffic goes to the SDK's stateless fallback instead.
 */
import {
  WebStandardStreamableHTTPServerTransport,
  isInitializeRequest,
  type LegacyHttpHandler,
  type McpServer,
} from "@modelcontextprotocol/server";
import { randomUUID } from "node:crypto";

export interface LegacySessionPoolOptions {
  /** Builds the server bound to one session. */
  createServer: () => McpServer;
  /** Serves legacy requests that neither initialize nor carry a session id. */
  stateless: LegacyHttpHandler;
  /** Most sessions kept at once; the least recently used one is closed to make room. */
  maxSessions?: number;
  /** Sessions idle for longer than this are closed. */
  idleMs?: number;
  /** Wall clock for idleness (not the demo's injectable clock). */
  clock?: () => number;
  onerror?: (error: Error) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

async function peekJson(request: Request): Promise<unknown> {
  try {
    return JSON.parse(await request.clone().text());
  } catch {
    return undefined;
  }
}

export class LegacySessionPool {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly clock: () => number;

  constructor(private readonly options: LegacySessionPoolOptions) {
    this.maxSessions = options.maxSessions ?? 100;
    this.idleMs = options.idleMs ?? 30 * 60 * 1000;
    this.clock = options.clock ?? Date.now;
  }

  get size(): number {
    return this.sessions.size;
  }

  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId) {
      const session = this.sessions.get(sessionId);
      if (!session)
        return jsonRpcError(
          404,
          -32001,
          "Session not found: it expired, was closed, or the server restarted. Send a new initialize request.",
        );
      session.lastSeen = this.clock();
      return session.transport.handleRequest(request);
    }
    if (request.method === "POST") {
      const body = await peekJson(request);
      if (isInitializeRequest(body)) return this.open(request, body);
    }
    return this.options.stateless(request);
  }

  private async open(request: Request, body: unknown): Promise<Response> {
    this.sweep();
    const server = this.options.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, lastSeen: this.clock() });
      },
      onsessionclosed: (id) => {
        this.sessions.delete(id);
      },
    });
    transport.onerror = (error) => this.options.onerror?.(error);
    await server.connect(transport);
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (transport.sessionId === undefined || !this.sessions.has(transport.sessionId)) await server.close().catch(() => undefined);
    return response;
  }

  /** Closes idle sessions, then the least recently used ones until there is room for one more. */
  private sweep(): void {
    const now = this.clock();
    const byAge = [...this.sessions.entries()].sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    for (const [id, session] of byAge) {
      if (now - session.lastSeen > this.idleMs || this.sessions.size >= this.maxSessions) this.drop(id, session);
    }
  }

  private drop(id: string, session: Session): void {
    this.sessions.delete(id);
    void session.server
      .close()
      .catch((error: unknown) => this.options.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }

  /** Runs `fn` on every live session's server (e.g. to follow a process-wide tool list change). */
  forEachServer(fn: (server: McpServer) => void): void {
    for (const session of this.sessions.values()) fn(session.server);
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.entries()];
    this.sessions.clear();
    await Promise.all(all.map(([, s]) => s.server.close().catch(() => undefined)));
  }
}
