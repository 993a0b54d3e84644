import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { RpcStreamEvent } from "@/lib/mcp/contract";
import type { ApiContext } from "../../server/api/api-route.ts";
import { config } from "../../server/platform/config.ts";
import { connect, disconnect, rpc, tools } from "../../server/api/proxy-service.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { stdioRegistry } from "./stdio-registry.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";

// The published @modelcontextprotocol/server-everything (a dev dependency), launched over stdio from a config file.
const dir = mkdtempSync(path.join(tmpdir(), "toolscope-stdio-it-"));
const configPath = path.join(dir, "servers.json");
const everything = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
writeFileSync(
  configPath,
  JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [everything, "stdio"] },
      asks: {
        command: process.execPath,
        args: ["--import", "tsx", path.resolve("lib/upstream/testing/asks-server.ts"), "stdio"],
        cwd: process.cwd(),
      },
      crashes: { command: process.execPath, args: ["-e", "process.stderr.write('boom: missing API_KEY\\n'); process.exit(2)"] },
      missing: { command: "toolscope-no-such-command-xyz" },
    },
  }),
);

const cfg = { ...config(), mode: "local" as const, stdioConfigPath: configPath, requestTimeoutMs: 20_000 };
const ctx: ApiContext = { config: cfg, origin: "http://localhost:3000", signal: new AbortController().signal };

after(async () => {
  await stdioRegistry(cfg).stopAll();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pidOf(displayUrl: string): number {
  const m = /pid (\d+)/.exec(displayUrl);
  assert.ok(m, displayUrl);
  return Number(m[1]);
}

describe("stdio: server-everything through the proxy service", () => {
  test("connect → tools → rpc echo (plain and streamed) → disconnect: the process is gone", async () => {
    const connected = await connect({ url: "stdio:everything", era: "auto", headers: {} }, ctx);
    const { connection, server } = connected;
    assert.equal(connection.url, "stdio:everything");
    assert.ok(connection.stdioId);
    assert.equal(server.era, "legacy", "server-everything speaks 2025-11-25 on stdio: the SDK fell back after the server/discover probe");
    assert.equal(server.serverInfo?.name, "mcp-servers/everything");
    assert.ok(Array.isArray(connected.stderr));
    assert.match(connected.stderr?.join("\n") ?? "", /Starting default \(STDIO\) server/);
    const pid = pidOf(server.displayUrl);
    assert.ok(alive(pid));

    const list = await tools({ connection, headers: {} }, ctx);
    assert.ok(
      list.tools.some((t) => t.name === "echo"),
      "echo is listed",
    );
    assert.equal(list.pages >= 1, true);

    const res = await rpc(
      {
        connection,
        headers: {},
        message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "hello over stdio" } } },
      },
      ctx,
    );
    assert.deepEqual(res.response, { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "Echo: hello over stdio" }] } });
    assert.deepEqual(res.added, [], "legacy era: nothing stamped; no Mcp-* headers on stdio");
    assert.equal(res.exchanges.length, 1);
    assert.equal(res.exchanges[0].transport, "stdio");
    assert.equal(res.exchanges[0].request.url, "stdio:everything");
    assert.deepEqual(JSON.parse(res.exchanges[0].request.body ?? ""), res.sent);
    assert.ok(Array.isArray(res.stderr));

    // Streamed: progress notifications relayed through the same hook as on HTTP.
    const events: RpcStreamEvent[] = [];
    const streamed = await rpc(
      {
        connection,
        headers: {},
        message: {
          jsonrpc: "2.0",
          id: "lro",
          method: "tools/call",
          params: { name: "trigger-long-running-operation", arguments: { duration: 0.4, steps: 2 }, _meta: { progressToken: "p1" } },
        },
      },
      { ...ctx, emit: (e) => events.push(e) },
    );
    assert.ok(streamed.response && "result" in streamed.response);
    const progress = events.filter((e) => e.type === "notification" && e.message.method === "notifications/progress");
    assert.equal(progress.length, 2);
    assert.equal(streamed.notifications.filter((n) => n.method === "notifications/progress").length, 2);

    // A JSON-RPC error is the server's answer.
    const unknown = await rpc(
      {
        connection,
        headers: {},
        message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
      },
      ctx,
    );
    assert.ok(unknown.response && ("error" in unknown.response || (unknown.response.result as { isError?: boolean }).isError));

    const bye = await disconnect({ connection, headers: {} }, ctx);
    assert.equal(bye.ended, true);
    assert.match(bye.note, /Stopped the stdio server "everything"/);
    assert.equal(alive(pid), false, "the process is gone after disconnect");

    await assert.rejects(
      rpc({ connection, headers: {}, message: { jsonrpc: "2.0", id: 3, method: "ping" } }, ctx),
      (err: unknown) => err instanceof ProxyError && /No running process/.test(err.message),
    );
    const again = await disconnect({ connection, headers: {} }, ctx);
    assert.match(again.note, /already stopped/);
  });

  test("a server that crashes on launch: a clear error with its exit code and stderr", async () => {
    await assert.rejects(connect({ url: "stdio:crashes", era: "legacy", headers: {} }, ctx), (err: unknown) => {
      const e = err instanceof ExchangeFailure ? err.cause : err;
      return e instanceof ProxyError && /"crashes" exited with code 2/.test(e.message) && /boom: missing API_KEY/.test(e.message);
    });
    assert.equal(stdioRegistry(cfg).running, 0, "nothing left running");
  });

  test("a command that does not exist: a clear error", async () => {
    await assert.rejects(
      connect({ url: "stdio:missing", era: "legacy", headers: {} }, ctx),
      (err: unknown) => err instanceof ProxyError && /was not found/.test(err.message),
    );
  });

  test("names only: an unconfigured name is refused before anything runs; hosted mode refuses everything", async () => {
    await assert.rejects(
      connect({ url: "stdio:nope", era: "auto", headers: {} }, ctx),
      (err: unknown) => err instanceof ProxyError && err.kind === "bad-request" && /stdio:everything/.test(err.hint ?? ""),
    );
    const hosted: ApiContext = { ...ctx, config: { ...cfg, mode: "hosted" } };
    await assert.rejects(
      connect({ url: "stdio:everything", era: "auto", headers: {} }, hosted),
      (err: unknown) =>
        err instanceof ProxyError && err.kind === "blocked-target" && /only available when Toolscope runs locally/.test(err.message),
    );
    const descriptor = { v: 1 as const, url: "stdio:everything", era: "legacy" as const, protocolVersion: "2025-11-25", stdioId: "x" };
    await assert.rejects(
      tools({ connection: descriptor, headers: {} }, hosted),
      (err: unknown) => err instanceof ProxyError && err.kind === "blocked-target",
    );
    await assert.rejects(
      rpc({ connection: descriptor, headers: {}, message: { jsonrpc: "2.0", id: 1, method: "ping" } }, hosted),
      (err: unknown) => err instanceof ProxyError && err.kind === "blocked-target",
    );
    await assert.rejects(
      disconnect({ connection: descriptor, headers: {} }, hosted),
      (err: unknown) => err instanceof ProxyError && err.kind === "blocked-target",
    );
  });
});

describe("stdio: the client rules apply as on HTTP", () => {
  test("a call to a tool the list excluded (inputSchema over the size limit) is refused before anything is written", async () => {
    const { connection } = await connect({ url: "stdio:asks", era: "legacy", headers: {} }, ctx);
    try {
      const list = await tools({ connection, headers: {} }, ctx);
      assert.ok(
        list.excluded.some((e) => e.tool.name === "oversized-schema"),
        JSON.stringify(list.excluded.map((e) => e.tool.name)),
      );
      await assert.rejects(
        rpc(
          {
            connection,
            headers: {},
            message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "oversized-schema", arguments: { note: "x" } } },
          },
          ctx,
        ),
        (err: unknown) => err instanceof ProxyError && err.kind === "bad-request" && /is excluded and cannot be called/.test(err.message),
      );
      // The process is fine and the other tools still work.
      const res = await rpc(
        {
          connection,
          headers: {},
          message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask-roots", arguments: { waitMs: 2000 } } },
        },
        ctx,
      );
      assert.ok(res.response && "result" in res.response);
      assert.deepEqual(
        res.serverRequests?.map((r) => [r.request.method, r.answeredBy]),
        [["roots/list", "proxy"]],
        "a call that is not streamed refuses the server's request at once",
      );
    } finally {
      await disconnect({ connection, headers: {} }, ctx);
    }
  });
});
