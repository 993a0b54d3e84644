import { expect, test } from "./test";
import type { APIRequestContext } from "@playwright/test";

const DEMO = "builtin:demo";

async function connect(request: APIRequestContext, url: string, era = "auto", headers?: Record<string, string>) {
  const res = await request.post("/api/connect", { data: { url, era, headers } });
  return { status: res.status(), body: await res.json() };
}

test.describe("proxy API against real servers", () => {
  test("connects to the demo server in the modern era and lists every page of tools", async ({ request }) => {
    const { status, body } = await connect(request, DEMO);
    expect(status).toBe(200);
    expect(body.server.era).toBe("modern");
    expect(body.server.protocolVersion).toBe("2026-07-28");
    expect(body.server.supportedVersions).toContain("2026-07-28");
    expect(body.server.serverInfo.name).toBe("toolscope-demo");
    expect(body.connection.sessionId).toBeUndefined();

    const tools = await (await request.post("/api/tools", { data: { connection: body.connection } })).json();
    expect(tools.pages).toBeGreaterThanOrEqual(2);
    const names = tools.tools.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(["search_issues", "execute_sql", "open_basket", "delete_issue"]));
    expect(new Set(names).size).toBe(names.length);
    expect(tools.ttlMs).toBeGreaterThan(0);
    expect(tools.cacheScope).toBe("public");
  });

  test("the demo server also speaks legacy: initialize and a session id in the descriptor", async ({ request }) => {
    const { status, body } = await connect(request, DEMO, "legacy");
    expect(status).toBe(200);
    expect(body.server.era).toBe("legacy");
    const tools = await (await request.post("/api/tools", { data: { connection: body.connection } })).json();
    expect(tools.tools.length).toBeGreaterThan(5);
  });

  test("rpc stamps _meta, mirrors x-mcp-header into Mcp-Param-*, and returns the exchange with secrets masked", async ({ request }) => {
    const { body } = await connect(request, DEMO);
    const res = await request.post("/api/rpc", {
      data: {
        connection: body.connection,
        headers: { Authorization: "Bearer sekrit-token-123" },
        message: {
          jsonrpc: "2.0",
          id: 5,
          method: "tools/call",
          params: { name: "execute_sql", arguments: { query: "SELECT * FROM issues", region: "eu-west1" } },
        },
      },
    });
    expect(res.status()).toBe(200);
    const rpc = await res.json();
    expect(rpc.response.id).toBe(5);
    expect(rpc.response.result.isError).not.toBe(true);
    const sent = Object.fromEntries(rpc.exchanges[0].request.headers.map(([k, v]: [string, string]) => [k.toLowerCase(), v]));
    expect(sent["mcp-method"]).toBe("tools/call");
    expect(sent["mcp-name"]).toBe("execute_sql");
    expect(sent["mcp-param-region"]).toBe("eu-west1");
    expect(sent["mcp-protocol-version"]).toBe("2026-07-28");
    expect(sent.authorization).not.toContain("sekrit");
    expect(JSON.stringify(rpc)).not.toContain("sekrit-token-123");
    expect(rpc.added.map((a: { name: string }) => a.name)).toContain("/params/_meta/io.modelcontextprotocol~1protocolVersion");
    expect(rpc.added.map((a: { name: string }) => a.name)).toContain("Mcp-Param-Region");
  });

  test("a tools/call result comes back with the outputSchema verdict", async ({ request }) => {
    const { body } = await connect(request, DEMO);
    const res = await request.post("/api/rpc", {
      data: {
        connection: body.connection,
        message: { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "search_issues", arguments: { query: "login" } } },
      },
    });
    const rpc = await res.json();
    expect(rpc.outputValidation).toEqual({ ok: true, mismatches: [] });
  });

  test("a JSON-RPC error from the server is an answer (HTTP 200), not a proxy failure", async ({ request }) => {
    const { body } = await connect(request, DEMO);
    const res = await request.post("/api/rpc", {
      data: { connection: body.connection, message: { jsonrpc: "2.0", id: 1, method: "no/such-method" } },
    });
    expect(res.status()).toBe(200);
    const rpc = await res.json();
    expect(rpc.response.error.code).toBe(-32601);
  });

  test("bad requests to our API get 400 with what to fix", async ({ request }) => {
    const cases: [unknown, RegExp][] = [
      [{}, /"url" is required/],
      [{ url: "ftp://example.com" }, /Only http/],
      [{ url: "http://exa mple" }, /not a valid URL/],
      [{ url: "https://example.com", era: "future" }, /must be one of/],
      [{ url: "https://example.com", headers: { "X-A": "1\r\nX-B: 2" } }, /line break/],
    ];
    for (const [data, message] of cases) {
      const res = await request.post("/api/connect", { data: data as object });
      expect(res.status(), JSON.stringify(data)).toBe(400);
      expect((await res.json()).error.message).toMatch(message);
    }
    const notJson = await request.post("/api/connect", { data: Buffer.from("{nope"), headers: { "content-type": "application/json" } });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).error.message).toMatch(/not valid JSON/);
  });

  test("non-MCP endpoints and hung servers give clear errors within the timeout", async ({ request }) => {
    const base = process.env.MISBEHAVING_BASE!;
    const html = await connect(request, `${base}/html`);
    expect(html.status).toBe(502);
    expect(html.body.error.kind).toBe("upstream-protocol");

    const missing = await connect(request, `${base}/nothing-here`);
    expect(missing.status).toBe(502);
    expect(missing.body.error.message).toMatch(/404|no MCP endpoint|not/i);

    const started = Date.now();
    const hung = await connect(request, `${base}/hang`);
    expect(hung.status).toBe(504);
    expect(hung.body.error.kind).toBe("upstream-timeout");
    expect(Date.now() - started).toBeLessThan(20_000);

    const refused = await connect(request, `http://127.0.0.1:${process.env.CLOSED_PORT}/mcp`);
    expect(refused.status).toBe(502);
    expect(refused.body.error.kind).toBe("upstream-unreachable");
  });

  test("the published server-everything (legacy era) connects and lists its tools", async ({ request }) => {
    const { status, body } = await connect(request, process.env.EVERYTHING_URL!);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.server.era).toBe("legacy");
    expect(body.connection.sessionId).toBeTruthy();
    const tools = await (await request.post("/api/tools", { data: { connection: body.connection } })).json();
    expect(tools.tools.map((t: { name: string }) => t.name)).toContain("echo");
    // A legacy list carries no ttlMs (never cached), yet the call is judged against the outputSchema last listed.
    const call = await request.post("/api/rpc", {
      data: {
        connection: body.connection,
        message: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "get-structured-content", arguments: { location: "New York" } },
        },
      },
    });
    const rpc = await call.json();
    expect(call.status(), JSON.stringify(rpc)).toBe(200);
    expect(rpc.outputValidation, JSON.stringify(rpc.response)).toEqual(expect.objectContaining({ ok: true }));
  });

  test("a tools/call with an integer beyond ±2^53 is refused with the pointer, not silently rounded", async ({ request }) => {
    const { body } = await connect(request, "builtin:demo");
    const raw = `{"connection":${JSON.stringify(body.connection)},"message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_issue","arguments":{"id":9007199254740993}}}}`;
    const res = await request.post("/api/rpc", { data: raw, headers: { "content-type": "application/json" } });
    expect(res.status()).toBe(400);
    const { error } = await res.json();
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain("/message/params/arguments/id");
    expect(error.message).toContain("9007199254740992");
  });
});
