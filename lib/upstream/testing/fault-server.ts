/**
 * Tests only: a real node:http server on 127.0.0.1 whose paths fail the way MCP endpoints fail in the wild, counting
 * every request it gets (path, HTTP method, JSON-RPC method), so a test can assert what the proxy said *and* what it
 * sent. `/mcp-tools-429` is a working MCP server (the demo) whose `tools/list` is rate-limited.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  path: string;
  method: string;
  /** The JSON-RPC method of a POST body, when it has one. */
  rpc?: string;
}

export interface FaultServer {
  origin: string;
  url(path: string): string;
  /** Every request so far, in order. */
  seen: SeenRequest[];
  /** The requests to one path. */
  to(path: string): SeenRequest[];
  close(): Promise<void>;
}

export const RATE_LIMIT_TEXT = "Too many requests from your address; slow down.";
export const RPC_500_MESSAGE = "database connection pool exhausted";
export const TEXT_500 = "Internal error: upstream pool exhausted (request 7f3a)";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => resolve(body));
    req.on("error", () => resolve(body));
  });
}

function rpcMethod(body: string): string | undefined {
  try {
    const m = (JSON.parse(body) as { method?: unknown }).method;
    return typeof m === "string" ? m : undefined;
  } catch {
    return undefined;
  }
}

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;

/** The paths. Each answers every method the same way unless it says otherwise. */
function routes(inner?: { fetch(req: Request): Promise<Response> }): Record<string, Route> {
  const redirect = (to: string) => (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(307, { location: to, "content-type": "text/plain" });
    res.end(`See ${to}`);
  };
  return {
    "/rate-limited": (_req, res) => {
      res.writeHead(429, { "retry-after": "30", "content-type": "text/plain" });
      res.end(RATE_LIMIT_TEXT);
    },
    "/unavailable": (_req, res) => {
      res.writeHead(503, { "retry-after": "12", "content-type": "application/json" });
      res.end(JSON.stringify({ error: "Scheduled maintenance until the top of the hour" }));
    },
    "/loop-a": redirect("/loop-b"),
    "/loop-b": redirect("/loop-a"),
    "/rpc-error-500": (_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: RPC_500_MESSAGE } }));
    },
    "/text-500": (_req, res) => {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(TEXT_500);
    },
    // An event stream that breaks off mid-event: the socket is destroyed, the chunked body never ends properly.
    "/sse-cut": (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write('event: message\ndata: {"jsonrpc":"2.0","id":');
      setTimeout(() => res.destroy(), 50);
    },
    // An event stream the server ends cleanly, but before the answer (half an event, then the end).
    "/sse-ended": (_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(': ok\n\nevent: message\ndata: {"jsonrpc":');
      setTimeout(() => res.end(), 50);
    },
    "/reset": (req) => {
      req.socket.destroy();
    },
    "/bad-json": (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{not json");
    },
    // Never answers (until the client goes away).
    "/hang": () => undefined,
    "/ok": (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("ok");
    },
    // A working MCP server, except that tools/list is rate-limited.
    "/mcp-tools-429": async (req, res, body) => {
      if (rpcMethod(body) === "tools/list") {
        res.writeHead(429, { "retry-after": "45", "content-type": "text/plain" });
        return void res.end("tools/list is limited to 10 per minute");
      }
      if (!inner) throw new Error("no MCP handler");
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const answer = await inner.fetch(
        new Request(`http://127.0.0.1${req.url}`, {
          method: req.method,
          headers,
          body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
        }),
      );
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => (out[k] = v));
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    },
  };
}

/** Starts the fault server. `mcp` (optional) serves the working part of `/mcp-tools-429`. */
export async function startFaultServer(mcp?: { fetch(req: Request): Promise<Response> }): Promise<FaultServer> {
  const seen: SeenRequest[] = [];
  const table = routes(mcp);
  const server = createServer((req, res) => {
    void (async () => {
      const body = req.method === "POST" ? await readBody(req) : "";
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const hops = /^\/hops\/(\d+)$/.exec(path);
      seen.push({ path, method: req.method ?? "GET", ...(rpcMethod(body) ? { rpc: rpcMethod(body) } : {}) });
      if (hops) {
        // A chain without end, no address twice: too many redirects, not a loop.
        res.writeHead(307, { location: `/hops/${Number(hops[1]) + 1}` });
        return void res.end();
      }
      const route = table[path];
      if (!route) {
        res.writeHead(404, { "content-type": "text/plain" });
        return void res.end("Not found");
      }
      try {
        await route(req, res, body);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(err));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => `${origin}${path}`,
    seen,
    to: (path) => seen.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
