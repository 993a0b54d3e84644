/**
 * Echoed secrets (issue 25, item 3): a real server on 127.0.0.1 echoes the user's own header values back in every way
 * a failing server does (5xx text, an HTML error page, a JSON-RPC error, 401/403 bodies and challenges, an event
 * stream, a URL-encoded or Basic-decoded copy, a body long enough to be cut mid-secret). Each is driven through the
 * composition of our API routes (handleApi + proxy-service, as connect-faults.test.ts does) while everything the
 * process writes to stdout and stderr is captured; the values must appear in no error message, no hint, no challenge
 * and no log line, and in no snapshot a signed-in Share stores. The recorded exchanges go back to the user who sent
 * the values (docs/security.md): their request headers stay masked; the server's body is kept as it came.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ConnectResponse, ProxyErrorBody } from "@/lib/mcp/contract";

process.env.TOOLSCOPE_REQUEST_TIMEOUT_MS = "4000";
process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_LOG_LEVEL = "debug";

const { parseConnectRequest, parseRpcRequest, parseToolsRequest } = await import("@/lib/mcp/contract-guards");
const { handleApi } = await import("./api-route.ts");
const { connect, rpc, tools } = await import("./proxy-service.ts");
const { freshDocsSnapshot } = await import("../docs/docs-snapshot.ts");
const { snapshotDefinitions } = await import("../snapshots/snapshot-store.ts");

/** Distinctive, and deliberately not shaped like a token (no digits): only the exact-value rule can catch them. */
const TOKEN = "SECRET-echo/correct+horse-battery";
const KEY = "SECRET-key-staple-pony-meadow";
const PASSWORD = "SECRET-basic-tulip-meadow";
const BEARER = { Authorization: `Bearer ${TOKEN}`, "X-Api-Key": KEY };
const BASIC = { Authorization: `Basic ${btoa(`alice:${PASSWORD}`)}` };
/** Every spelling that must not leak: as sent, the bare token, URL-encoded, the Basic password. */
const LEAKS = [TOKEN, KEY, PASSWORD, encodeURIComponent(TOKEN), "SECRET"];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => resolve(body));
  });
}

/** What the server says back: the user's header values as it received them. */
function echo(req: IncomingMessage): string {
  const auth = req.headers.authorization ?? "";
  const basic = auth.startsWith("Basic ") ? ` (credentials ${atob(auth.slice(6))})` : "";
  return `invalid api key ${req.headers["x-api-key"] ?? "-"} for ${auth}${basic}`;
}

function rpcOf(body: string): { id?: unknown; method?: string } {
  try {
    return JSON.parse(body) as { id?: unknown; method?: string };
  } catch {
    return {};
  }
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** A plain legacy MCP server: initialize, notifications, and `tools` for tools/list, `call` for tools/call. */
function mcp(
  onList: (req: IncomingMessage, res: ServerResponse, id: unknown) => void,
  onCall: (req: IncomingMessage, res: ServerResponse, id: unknown) => void,
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const { id, method } = rpcOf(await readBody(req));
    if (id === undefined) return void res.writeHead(202).end();
    if (method === "initialize")
      return json(res, 200, {
        jsonrpc: "2.0",
        id,
        result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "echo", version: "1.0.0" } },
      });
    if (method === "tools/list") return onList(req, res, id);
    if (method === "tools/call") return onCall(req, res, id);
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
  };
}

type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;
const text = (status: number, body: (req: IncomingMessage) => string, type = "text/plain"): Route => {
  return (req, res) => {
    res.writeHead(status, { "content-type": type });
    res.end(body(req));
  };
};

const ROUTES: Record<string, Route> = {
  "/500-text": text(500, (req) => `upstream failure: ${echo(req)}`),
  "/502-html": text(
    502,
    (req) =>
      `<!doctype html><html><head><title>Bad Gateway: key ${req.headers["x-api-key"]}</title></head><body><h1>Refused ${req.headers.authorization}</h1></body></html>`,
    "text/html",
  ),
  "/500-jsonrpc": (req, res) => json(res, 500, { jsonrpc: "2.0", id: null, error: { code: -32603, message: echo(req) } }),
  "/500-long": text(500, (req) => `${"x".repeat(288)} key=${req.headers["x-api-key"]}`),
  "/500-urlenc": text(500, (req) => `session lost, sign in at /login?next=%2Fmcp&token=${encodeURIComponent(TOKEN)} (${echo(req)})`),
  "/500-basic": text(500, (req) => echo(req)),
  "/401": (req, res) =>
    json(
      res,
      401,
      { error: echo(req) },
      { "www-authenticate": `Bearer error="invalid_token", error_description="token ${TOKEN} expired"` },
    ),
  "/403": text(403, (req) => `forbidden: ${echo(req)}`),
  "/jsonrpc-error": async (req, res) => {
    const { id } = rpcOf(await readBody(req));
    if (id === undefined) return void res.writeHead(202).end();
    json(res, 200, { jsonrpc: "2.0", id, error: { code: -32001, message: echo(req) } });
  },
  "/sse-error": async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const { id } = rpcOf(await readBody(req));
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32000, message: echo(req) } })}\n\n`);
  },
  "/sse-cut": async (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    await readBody(req);
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`event: error\ndata: ${echo(req)}\n\n`);
  },
  "/mcp": mcp(
    (req, res, id) => json(res, 200, { jsonrpc: "2.0", id, error: { code: -32603, message: `cannot list: ${echo(req)}` } }),
    (req, res) => text(500, (r) => `tool crashed: ${echo(r)}`)(req, res),
  ),
  "/mcp-share": mcp(
    (req, res, id) =>
      json(res, 200, {
        jsonrpc: "2.0",
        id,
        result: { tools: [{ name: "whoami", description: `Debug: you are ${echo(req)}`, inputSchema: { type: "object" } }] },
      }),
    (_req, res, id) => json(res, 200, { jsonrpc: "2.0", id, result: { content: [] } }),
  ),
};

let server: Server;
let origin = "";
before(async () => {
  server = createServer((req, res) => {
    const route = ROUTES[new URL(req.url ?? "/", "http://x").pathname];
    if (!route) return void res.writeHead(404).end();
    void route(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Everything written to stdout and stderr while `fn` runs (passed through as well). */
async function capturingLog<T>(fn: () => Promise<T>): Promise<{ value: T; log: string }> {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((s) => s.write.bind(s));
  streams.forEach((s, i) => {
    s.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return (originals[i] as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof s.write;
  });
  try {
    return { value: await fn(), log: chunks.join("") };
  } finally {
    streams.forEach((s, i) => (s.write = originals[i] as typeof s.write));
  }
}

function post(path: string, body: unknown, accept?: string): Request {
  return new Request(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000", ...(accept ? { accept } : {}) },
    body: JSON.stringify(body),
  });
}

function assertNoLeak(where: string, value: string): void {
  for (const leak of LEAKS) assert.ok(!value.includes(leak), `${where} holds ${JSON.stringify(leak)}:\n${value.slice(0, 2000)}`);
}

/** Our answer's error (message, hint, challenge) and the log: none may hold the values; the exchanges mask the request. */
function assertMasked(body: ProxyErrorBody, log: string): void {
  const { exchanges, ...error } = body.error;
  assertNoLeak("the error", JSON.stringify(error));
  assertNoLeak("the log", log);
  for (const e of exchanges ?? []) assertNoLeak("a recorded request", JSON.stringify(e.request));
  // The server did echo them (the test would prove nothing otherwise): the user who sent them sees its answer whole.
  const answered = (exchanges ?? []).map((e) => `${e.response?.body ?? ""}${JSON.stringify(e.response?.sseEvents ?? [])}`).join("");
  if (exchanges?.length) assert.ok(answered.includes("SECRET-"), "the server's recorded answer should hold its echo");
}

async function apiConnect(path: string, headers: Record<string, string>, era = "legacy") {
  return capturingLog(async () => {
    const res = await handleApi(
      post("/api/connect", { url: `${origin}${path}`, era, headers }),
      parseConnectRequest,
      connect,
      (i) => i.url,
    );
    return { status: res.status, body: (await res.json()) as ProxyErrorBody };
  });
}

describe("a server echoing the user's headers in a failure", () => {
  const rows: { path: string; headers: Record<string, string>; kind: string; era?: string; logged?: boolean }[] = [
    { path: "/500-text", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/502-html", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/500-jsonrpc", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/500-long", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/500-urlenc", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/500-basic", headers: BASIC, kind: "upstream-protocol", logged: true },
    { path: "/401", headers: BEARER, kind: "upstream-auth" },
    { path: "/403", headers: BEARER, kind: "upstream-protocol", logged: true },
    { path: "/jsonrpc-error", headers: BEARER, kind: "upstream-protocol", era: "auto" },
    { path: "/sse-error", headers: BEARER, kind: "upstream-protocol" },
    { path: "/sse-cut", headers: BEARER, kind: "stream-broken" },
  ];
  for (const row of rows) {
    test(`connect to ${row.path} (${row.kind})`, async () => {
      const { value, log } = await apiConnect(row.path, row.headers, row.era);
      assert.equal(value.body.error.kind, row.kind, value.body.error.message);
      if (row.logged) assert.match(log, /upstream failure/);
      assertMasked(value.body, log);
    });
  }

  test("a secret at the end of a long body is masked before the excerpt is cut", async () => {
    const { value } = await apiConnect("/500-long", BEARER);
    assert.match(value.body.error.message, /x key=••••”\.$/);
  });

  test("tools/list answered with a JSON-RPC error, and tools/call with a 500, echoing them (plain and streamed)", async () => {
    const connected = await handleApi(
      post("/api/connect", { url: `${origin}/mcp`, era: "legacy", headers: BEARER }),
      parseConnectRequest,
      connect,
      (i) => i.url,
    );
    const { connection } = (await connected.json()) as ConnectResponse;
    assert.ok(connection, "the echo server connects");

    const listed = await capturingLog(async () => {
      const res = await handleApi(post("/api/tools", { connection, headers: BEARER }), parseToolsRequest, tools, (i) => i.connection.url);
      return (await res.json()) as ProxyErrorBody;
    });
    assert.match(listed.value.error.message, /tools\/list failed: cannot list: invalid api key ••••/);
    assertMasked(listed.value, listed.log);

    const message = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x", arguments: {} } };
    const called = await capturingLog(async () => {
      const res = await handleApi(
        post("/api/rpc", { connection, message, headers: BEARER }),
        parseRpcRequest,
        rpc,
        (i) => i.connection.url,
        {
          streamable: true,
        },
      );
      return { status: res.status, body: (await res.json()) as ProxyErrorBody };
    });
    assert.equal(called.value.body.error.kind, "upstream-protocol", called.value.body.error.message);
    assertMasked(called.value.body, called.log);

    const streamed = await capturingLog(async () => {
      const res = await handleApi(
        post("/api/rpc", { connection, message, headers: BEARER }, "text/event-stream"),
        parseRpcRequest,
        rpc,
        (i) => i.connection.url,
        { streamable: true },
      );
      return res.text();
    });
    const last = streamed.value.trim().split("\n\n").at(-1) ?? "";
    const event = JSON.parse(last.slice(last.indexOf("data: ") + 6)) as { type: string; body: ProxyErrorBody };
    assert.equal(event.type, "error");
    assertMasked(event.body, streamed.log);
  });
});

test("a signed-in Share stores no header value a server echoed into its definitions", async () => {
  const url = `${origin}/mcp-share`;
  const { value: snap, log } = await capturingLog(() => freshDocsSnapshot(url, "http://127.0.0.1:3000", BEARER));
  assert.equal(snap.list.tools[0]?.name, "whoami");
  assert.match(snap.list.tools[0]?.description ?? "", /^Debug: you are invalid api key •••• for ••••$/);
  assertNoLeak("the stored snapshot", JSON.stringify(snapshotDefinitions(url, snap)));
  assertNoLeak("the log", log);
});
