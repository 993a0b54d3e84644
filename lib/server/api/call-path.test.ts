/**
 * The path of one call, as docs/architecture.md writes it down, checked against the code: a `tools/call` sent through
 * the `/api/rpc` route to a real SDK server over loopback HTTP, in both eras. At the moment its POST reaches undici
 * (the `undici:request:create` diagnostics channel) the async stack is the path the call took from the route to the
 * wire; its repo files, top down, must be the ones the document lists, in that order, each entered once.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { McpServer, WebStandardStreamableHTTPServerTransport, createMcpHandler } from "@modelcontextprotocol/server";
import * as z from "zod";

process.env.TOOLSCOPE_MODE = "local";
delete process.env.REDIS_URL;
const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { POST: RPC } = await import("@/app/api/rpc/route");
const { POST: CONNECT } = await import("@/app/api/connect/route");
const { POST: TOOLS } = await import("@/app/api/tools/route");

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** The repo files of the call path, top down, as docs/architecture.md lists them (its first fenced block under the heading). */
function documentedPath(): string[] {
  const doc = readFileSync(path.join(ROOT, "docs/architecture.md"), "utf8");
  const section = doc.slice(doc.indexOf("## The path of one `/api/rpc` call"));
  const block = section.slice(section.indexOf("```") + 3, section.indexOf("```", section.indexOf("```") + 3));
  return block
    .split("\n")
    .map((line) => line.trim().split(/\s+/)[0])
    .filter((file) => /^lib\/\S+\.ts$/.test(file));
}

/** The repo files of an async stack, top down (the caller first), consecutive frames of one file as one. */
function filesOf(stack: string): string[] {
  const files = [...stack.matchAll(/\((\/[^():]+):\d+:\d+\)|at (?:async )?(\/[^():]+):\d+:\d+/g)]
    .map((m) => path.relative(ROOT, m[1] ?? m[2]))
    .filter((f) => f.startsWith("lib/") && !f.endsWith(".test.ts"))
    .reverse();
  return files.filter((f, i) => f !== files[i - 1]);
}

const servers: { name: string; url: () => string; era: string }[] = [];
const closers: (() => Promise<void>)[] = [];
function echoServer(): McpServer {
  const server = new McpServer({ name: "echo", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.registerTool("echo", { description: "Echo.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

/** The 2025 way: a session per initialize, kept by its Mcp-Session-Id. */
function legacySessions() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return {
    async fetch(req: Request): Promise<Response> {
      const id = req.headers.get("mcp-session-id");
      if (id) return sessions.get(id)?.handleRequest(req) ?? new Response("no such session", { status: 404 });
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void sessions.set(sid, transport),
      });
      await echoServer().connect(transport);
      return transport.handleRequest(req);
    },
  };
}

before(async () => {
  const modern = await serveFetchHandler(createMcpHandler(() => echoServer()));
  const legacy = await serveFetchHandler(legacySessions());
  closers.push(
    () => modern.close(),
    () => legacy.close(),
  );
  servers.push(
    { name: "modern (2026-07-28)", url: () => modern.url.toString(), era: "modern" },
    { name: "legacy (a 2025-11-25 session)", url: () => legacy.url.toString(), era: "legacy" },
  );
});
after(async () => {
  for (const close of closers) await close();
});

function post(route: string, body: unknown) {
  return new Request(`http://127.0.0.1:3000${route}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      host: "127.0.0.1:3000",
      origin: "http://127.0.0.1:3000",
      "sec-fetch-site": "same-origin",
    },
    body: JSON.stringify(body),
  });
}

for (const era of ["modern", "legacy"]) {
  test(`a ${era} tools/call takes the documented path from the route to the wire, each file once`, async () => {
    const server = servers.find((s) => s.era === era)!;
    const connected = (await (await CONNECT(post("/api/connect", { url: server.url(), era }))).json()) as { connection: unknown };
    await TOOLS(post("/api/tools", { connection: connected.connection }));
    const stacks: string[] = [];
    const onCreate = (m: unknown) => {
      const { request } = m as { request: { method: string; headers: unknown } };
      if (request.method !== "POST") return; // the call's own POST: the definitions were listed just before
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 200;
      stacks.push(new Error().stack ?? "");
      Error.stackTraceLimit = limit;
    };
    diagnostics.subscribe("undici:request:create", onCreate);
    try {
      const tool = { name: "echo", arguments: { text: "hi" } };
      const res = await RPC(
        post("/api/rpc", { connection: connected.connection, message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: tool } }),
      );
      assert.equal(res.status, 200, await res.clone().text());
      assert.ok(((await res.json()) as { response?: { result?: unknown } }).response?.result, "the call answered");
    } finally {
      diagnostics.unsubscribe("undici:request:create", onCreate);
    }
    assert.equal(stacks.length, 1, "one POST carried the call");
    const taken = filesOf(stacks[0]);
    assert.equal(new Set(taken).size, taken.length, `a file entered twice on the way down:\n${taken.join("\n")}`);
    assert.deepEqual(taken, documentedPath(), "docs/architecture.md's call path is the one the code takes");
  });
}
