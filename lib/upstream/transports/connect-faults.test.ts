/**
 * The fault table: real local HTTP servers that fail the way MCP endpoints fail in the wild, connected to through
 * the same composition as POST /api/connect (handleApi + proxy-service). Each row asserts the kind, the HTTP status
 * of our answer, the message and the hint, and what reached the server (an `auto` connect sends nothing more into a
 * rate limit: no `initialize` after the refused probe).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ProxyErrorBody } from "@/lib/mcp/contract";

process.env.TOOLSCOPE_REQUEST_TIMEOUT_MS = "4000";
process.env.TOOLSCOPE_MODE = "local";

const { createMcpHandler } = await import("@modelcontextprotocol/server");
const { createDemoMcpServer } = await import("@/lib/demo/server");
const { parseConnectRequest, parseToolsRequest } = await import("@/lib/mcp/contract-guards");
const { handleApi } = await import("../../server/api/api-route.ts");
const { connect, tools } = await import("../../server/api/proxy-service.ts");
const { classifyError } = await import("../errors/proxy-error.ts");
const { ExchangeFailure } = await import("../exchange/exchange-core.ts");
const { RATE_LIMIT_TEXT, RPC_500_MESSAGE, TEXT_500, startFaultServer } = await import("../testing/fault-server.ts");

type FaultServer = Awaited<ReturnType<typeof startFaultServer>>;
let server: FaultServer;
const mcp = createMcpHandler(({ era }) => createDemoMcpServer({ era }), {});
before(async () => {
  server = await startFaultServer(mcp);
});
after(async () => {
  await server.close();
  await mcp.close();
});

function post(path: string, body: unknown): Request {
  return new Request(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000" },
    body: JSON.stringify(body),
  });
}

/** POST /api/connect as the route does it: the HTTP status and body of our answer. */
async function apiConnect(url: string, era: string): Promise<{ status: number; body: ProxyErrorBody; headers: Headers }> {
  const res = await handleApi(post("/api/connect", { url, era }), parseConnectRequest, connect, (i) => i.url);
  return { status: res.status, body: (await res.json()) as ProxyErrorBody, headers: res.headers };
}

interface Row {
  fault: string;
  path: string;
  era: "auto" | "modern" | "legacy";
  kind: string;
  status: number;
  message: RegExp;
  hint: RegExp;
  /** What the server got, in order: "<HTTP method> <path> <JSON-RPC method>". */
  requests: string[];
  /** Our answer came within this many ms (the request timeout is 4000). */
  withinMs?: number;
}

const ROWS: Row[] = [
  {
    fault: "429 with Retry-After on the probe (auto)",
    path: "/rate-limited",
    era: "auto",
    kind: "upstream-rate-limited",
    status: 502,
    message: new RegExp(
      `is rate-limiting Toolscope: it answered HTTP 429 \\(Too Many Requests\\)\\. Retry in 30 s \\(at \\d\\d:\\d\\d:\\d\\d UTC\\), as its Retry-After asks\\. It said: “${RATE_LIMIT_TEXT.replace(/[.;]/g, "\\$&")}”\\.$`,
    ),
    hint: /^Wait until then before connecting or sending again; Toolscope sent nothing more to it\.$/,
    requests: ["POST /rate-limited server/discover"],
  },
  {
    fault: "429 with Retry-After on the probe (modern: not a version problem)",
    path: "/rate-limited",
    era: "modern",
    kind: "upstream-rate-limited",
    status: 502,
    message: /answered HTTP 429 .*Retry in 30 s/,
    hint: /Wait until then/,
    requests: ["POST /rate-limited server/discover"],
  },
  {
    fault: "429 on initialize (legacy)",
    path: "/rate-limited",
    era: "legacy",
    kind: "upstream-rate-limited",
    status: 502,
    message: /answered HTTP 429 .*Retry in 30 s/,
    hint: /Wait until then/,
    requests: ["POST /rate-limited initialize"],
  },
  {
    fault: "503 with Retry-After",
    path: "/unavailable",
    era: "auto",
    kind: "upstream-rate-limited",
    status: 502,
    message: /answered HTTP 503 \(Service Unavailable\)\. Retry in 12 s .* It said: “Scheduled maintenance until the top of the hour”\.$/,
    hint: /Wait until then/,
    requests: ["POST /unavailable server/discover"],
  },
  {
    fault: "redirect loop (auto)",
    path: "/loop-a",
    era: "auto",
    kind: "upstream-protocol",
    status: 502,
    message: /\/loop-a redirects in a loop: \/loop-a → \/loop-b → \/loop-a \(HTTP 307\), so it never answers\.$/,
    hint: /redirect rules send requests round in a circle/,
    requests: ["POST /loop-a server/discover", "POST /loop-b server/discover"],
  },
  {
    fault: "redirect loop (modern: not a version problem)",
    path: "/loop-a",
    era: "modern",
    kind: "upstream-protocol",
    status: 502,
    message: /redirects in a loop: \/loop-a → \/loop-b → \/loop-a/,
    hint: /redirect rules/,
    requests: ["POST /loop-a server/discover", "POST /loop-b server/discover"],
  },
  {
    fault: "too many redirects",
    path: "/hops/0",
    era: "auto",
    kind: "upstream-protocol",
    status: 502,
    message:
      /\/hops\/0 redirected 6 times \(HTTP 307; last to http:\/\/127\.0\.0\.1:\d+\/hops\/6\); Toolscope follows at most 5 redirects per request\.$/,
    hint: /Use the address the redirects should end at/,
    requests: [0, 1, 2, 3, 4, 5].map((n) => `POST /hops/${n} server/discover`),
  },
  {
    fault: "500 with a JSON-RPC error body",
    path: "/rpc-error-500",
    era: "auto",
    kind: "upstream-protocol",
    status: 502,
    message: new RegExp(`^The server failed with HTTP 500: “${RPC_500_MESSAGE}” \\(JSON-RPC error -32603\\)\\.$`),
    hint: /try again later or check its logs/,
    requests: ["POST /rpc-error-500 server/discover"],
  },
  {
    fault: "500 with a text body",
    path: "/text-500",
    era: "legacy",
    kind: "upstream-protocol",
    status: 502,
    message: new RegExp(`^The server failed with HTTP 500: “${TEXT_500.replace(/[()]/g, "\\$&")}”\\.$`),
    hint: /try again later or check its logs/,
    requests: ["POST /text-500 initialize"],
  },
  {
    fault: "event stream cut mid-event on the probe",
    path: "/sse-cut",
    era: "auto",
    kind: "stream-broken",
    status: 502,
    message: /^The server's event stream broke off before the answer to server\/discover arrived, so the connection could not be set up\.$/,
    hint: /^Connecting is safe to repeat: connect again\./,
    requests: ["POST /sse-cut server/discover"],
    withinMs: 2_000,
  },
  {
    fault: "event stream ended mid-event on initialize",
    path: "/sse-ended",
    era: "legacy",
    kind: "stream-broken",
    status: 502,
    message: /^The server's event stream ended before the answer to initialize arrived/,
    hint: /Connecting is safe to repeat/,
    requests: ["POST /sse-ended initialize"],
    withinMs: 2_000,
  },
  {
    fault: "connection reset",
    path: "/reset",
    era: "auto",
    kind: "upstream-unreachable",
    status: 502,
    message: /\/reset was closed unexpectedly \(.+\) before an answer arrived\.$/,
    hint: /dropped the connection/,
    requests: ["POST /reset server/discover"],
  },
  {
    fault: "invalid JSON",
    path: "/bad-json",
    era: "auto",
    kind: "upstream-protocol",
    status: 502,
    message: /\/bad-json did not answer like an MCP server: its answer is not valid JSON \(.+\)\.$/,
    hint: /Check that the URL is the MCP endpoint itself/,
    requests: ["POST /bad-json server/discover"],
  },
];

describe("connect faults", () => {
  for (const row of ROWS) {
    test(`${row.fault}: ${row.kind}, HTTP ${row.status}`, async () => {
      // Anonymous connects remember a rate limit per URL: each rate-limited row gets a URL of its own.
      const url = row.kind === "upstream-rate-limited" ? `${server.url(row.path)}?era=${row.era}` : server.url(row.path);
      const seenBefore = server.seen.length;
      const started = performance.now();
      const { status, body } = await apiConnect(url, row.era);
      const took = performance.now() - started;
      assert.equal(body.error.kind, row.kind, body.error.message);
      assert.equal(status, row.status);
      assert.match(body.error.message, row.message);
      assert.match(body.error.hint ?? "", row.hint);
      assert.ok(!body.error.message.includes("negotiation"), `not blamed on version negotiation: ${body.error.message}`);
      assert.deepEqual(
        server.seen.slice(seenBefore).map((r) => `${r.method} ${r.path} ${r.rpc ?? ""}`.trim()),
        row.requests,
      );
      if (row.withinMs) assert.ok(took < row.withinMs, `answered after ${Math.round(took)} ms`);
      assert.ok(body.error.exchanges?.length, "the exchanges made are reported");
    });
  }

  test("after a 429, anonymous connects do not ask the server again until its Retry-After has passed", async () => {
    const url = `${server.url("/rate-limited")}?row=hold`;
    assert.equal((await apiConnect(url, "auto")).body.error.kind, "upstream-rate-limited");
    const seenBefore = server.seen.length;
    for (const era of ["auto", "modern"]) {
      const { status, body } = await apiConnect(url, era);
      assert.equal(status, 502);
      assert.equal(body.error.kind, "upstream-rate-limited");
      assert.match(
        body.error.message,
        /answered HTTP 429 \(Too Many Requests\) \d+ s ago: it is rate-limiting Toolscope\. Retry in (29|30) s/,
      );
      assert.match(body.error.hint ?? "", /did not contact it again/);
    }
    assert.equal(server.seen.length, seenBefore, "nothing was sent");
  });

  test("a tools/list answered 429: rate-limited, and the exchanges say when to retry", async () => {
    const url = server.url("/mcp-tools-429");
    const ctx = {
      config: (await import("../../server/platform/config.ts")).config(),
      origin: "http://127.0.0.1:3000",
      signal: new AbortController().signal,
    };
    const { connection } = await connect({ url, era: "auto", headers: {} }, ctx);
    // Through the route: the kind and status.
    const res = await handleApi(post("/api/tools", { connection, fresh: true }), parseToolsRequest, tools, (i) => i.connection.url);
    const body = (await res.json()) as ProxyErrorBody;
    assert.equal(res.status, 502);
    assert.equal(body.error.kind, "upstream-rate-limited");
    assert.match(body.error.message, /answered HTTP 429 \(Too Many Requests\)/);
    assert.match(body.error.message, /“tools\/list is limited to 10 per minute”/);
    // With the exchanges (what api-route passes once it hands them to classifyError): the Retry-After too.
    const err = await tools({ connection, headers: {}, fresh: true }, ctx).catch((e: unknown) => e);
    assert.ok(err instanceof ExchangeFailure);
    const classified = classifyError(err.cause, url, 4_000, err.exchanges);
    assert.match(classified.message, /Retry in 45 s/);
    assert.equal(classified.retryAfterSeconds, 45);
    assert.equal(server.to("/mcp-tools-429").filter((r) => r.rpc === "tools/list").length, 2, "one tools/list per attempt, never retried");
  });
});
