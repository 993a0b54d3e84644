import { test } from "node:test";
import assert from "node:assert/strict";
import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import type { HttpExchange } from "@/lib/mcp/contract";
import { ContractError } from "@/lib/mcp/contract-guards";
import { BlockedTargetError, ConnectionWaitTimeout } from "../egress/egress.ts";
import {
  classifyError,
  describeRedirects,
  errorHeaders,
  formatWait,
  MAX_SERVER_TEXT_CHARS,
  noMcpTransport,
  ProxyError,
  parseRetryAfter,
  serverText,
  upstreamRateLimited,
} from "./proxy-error.ts";

const URL_ = "https://mcp.example.com/mcp?api_key=sk-live-0123456789abcdefABCDEF";

function exchange(url: string, status: number, headers: [string, string][] = [], body?: string, method = "POST"): HttpExchange {
  return {
    request: { method, url, headers: [] },
    response: { status, statusText: "", headers, sseEvents: [], ...(body !== undefined ? { body } : {}) },
    startedAt: "",
    durationMs: 1,
  };
}

test("Retry-After: seconds, HTTP dates (past ones are 0), anything else is unreadable", () => {
  const now = Date.parse("2026-12-03T14:00:00Z");
  assert.equal(parseRetryAfter("120", now), 120);
  assert.equal(parseRetryAfter(" 0 ", now), 0);
  assert.equal(parseRetryAfter("Thu, 03 Dec 2026 14:01:30 GMT", now), 90);
  assert.equal(parseRetryAfter("Thu, 03 Dec 2026 13:00:00 GMT", now), 0);
  for (const bad of [null, undefined, "", "soon", "-5", "1.5", "12abc"]) assert.equal(parseRetryAfter(bad, now), undefined, String(bad));
  assert.deepEqual([30, 300, 3600, 5400, 3 * 86400].map(formatWait), ["30 s", "5 min", "1 h", "1 h 30 min", "3 days"]);
});

test("a rate limit says when to retry, quotes the server, and carries Retry-After for our answer", () => {
  const now = Date.parse("2026-12-03T14:00:00Z");
  const e = upstreamRateLimited(URL_, { status: 429, retryAfter: "90", body: "Slow down, please.", now });
  assert.equal(e.kind, "upstream-rate-limited");
  assert.equal(
    e.message,
    "https://mcp.example.com/mcp is rate-limiting Toolscope: it answered HTTP 429 (Too Many Requests). Retry in 90 s (at 14:01:30 UTC), as its Retry-After asks. It said: “Slow down, please.”.",
  );
  assert.ok(!e.message.includes("sk-live"), "the URL's secret is not shown");
  assert.equal(e.retryAfterSeconds, 90);
  assert.deepEqual(errorHeaders(e), { "retry-after": "90" });
  assert.match(
    upstreamRateLimited(URL_, { status: 429, retryAfter: null, now }).message,
    /did not say when to retry \(no Retry-After\)\.$/,
  );
  assert.doesNotMatch(upstreamRateLimited(URL_, { status: 429, now }).message, /Retry-After/, "headers not at hand: no claim about them");
  assert.match(
    upstreamRateLimited(URL_, { status: 429, retryAfter: "whenever", now }).message,
    /Its Retry-After \("whenever"\) is not a number of seconds or a date\./,
  );
  const year = upstreamRateLimited(URL_, { status: 503, retryAfter: String(365 * 86400), now });
  assert.match(year.message, /asks to wait 365 days/);
  assert.equal(year.retryAfterSeconds, 86400, "our own Retry-After is capped at a day");
});

test("the server's own words: bounded, one line, credentials masked", () => {
  assert.equal(
    serverText(JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "db down" } })),
    "“db down” (JSON-RPC error -32603)",
  );
  assert.equal(serverText(JSON.stringify({ error: "quota exceeded" })), "“quota exceeded”");
  assert.equal(
    serverText("<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>"),
    "“502 Bad Gateway”",
  );
  assert.equal(serverText("line one\r\n\tline two\u202Eevil\u0000"), "“line one line two evil”");
  assert.equal(serverText("   "), undefined);
  const echoed = serverText(
    "Request failed: authorization=Bearer abc.def.ghi token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig and my-header-value-123",
    ["my-header-value-123"],
  );
  assert.ok(echoed && !/abc\.def|eyJhbGci|my-header-value/.test(echoed), echoed);
  const long = serverText("x".repeat(10_000))!;
  assert.equal(long.length, MAX_SERVER_TEXT_CHARS + 2, "the excerpt plus its quotes");
  assert.ok(long.endsWith("…”"));
});

test("redirect tails: a loop, too many hops, another origin, https to http", () => {
  const o = "https://mcp.example.com";
  const loop = describeRedirects(`${o}/a`, [
    exchange(`${o}/a`, 307, [["location", "/b"]]),
    exchange(`${o}/b`, 307, [["location", "/a"]]),
    exchange(`${o}/a`, 307, [["location", "/b"]]),
  ]);
  assert.match(loop!.message, /redirects in a loop: \/a → \/b → \/a \(HTTP 307\)/);
  const chain = [0, 1, 2, 3, 4, 5].map((n) => exchange(`${o}/h${n}`, 308, [["location", `/h${n + 1}`]]));
  assert.match(describeRedirects(`${o}/h0`, chain)!.message, /redirected 6 times \(HTTP 308; last to https:\/\/mcp\.example\.com\/h6\)/);
  assert.match(
    describeRedirects(`${o}/mcp`, [exchange(`${o}/mcp`, 307, [["location", "https://other.example.net/mcp"]])])!.message,
    /redirects to https:\/\/other\.example\.net\/mcp \(HTTP 307\) to another origin/,
  );
  assert.match(
    describeRedirects(`${o}/mcp`, [exchange(`${o}/mcp`, 301, [["location", "http://mcp.example.com/mcp"]])])!.message,
    /from https to plain http/,
  );
  assert.equal(describeRedirects(`${o}/mcp`, [exchange(`${o}/mcp`, 200)]), undefined);
});

test("HTTP failures from the SDK: 429 reads Retry-After from the exchanges, 3xx is named, 5xx quotes the server", () => {
  const url = "https://mcp.example.com/mcp";
  const http = (status: number, text?: string) =>
    new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: ${text}`, { status, statusText: "", text });
  const limited = classifyError(http(429, "busy"), url, 1000, [exchange(url, 429, [["retry-after", "20"]], "busy")]);
  assert.equal(limited.kind, "upstream-rate-limited");
  assert.match(limited.message, /Retry in 20 s .* It said: “busy”\.$/);
  assert.equal(
    classifyError(http(503, "down"), url, 1000).kind,
    "upstream-protocol",
    "a 503 without Retry-After is a failure, not a rate limit",
  );
  assert.equal(classifyError(http(503, "down"), url, 1000, [exchange(url, 503, [["retry-after", "5"]])]).kind, "upstream-rate-limited");
  assert.match(
    classifyError(http(307), url, 1000, [exchange(url, 307, [["location", "https://elsewhere.example/mcp"]])]).message,
    /redirects to https:\/\/elsewhere\.example\/mcp/,
  );
  assert.doesNotMatch(classifyError(http(307), url, 1000).message, /^The server answered HTTP 307\.$/);
  assert.equal(
    classifyError(http(502, "<html><title>Bad gateway</title></html>"), url, 1000).message,
    "The server failed with HTTP 502: “Bad gateway”.",
  );
});

test("a pinned negotiation that met a redirect or a rate limit is not blamed on the protocol version", () => {
  const url = "https://mcp.example.com/mcp";
  const pinned = new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    "Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server/discover (no fallback in pin mode)",
  );
  assert.equal(classifyError(pinned, url, 1000, [exchange(url, 429, [["retry-after", "9"]])]).kind, "upstream-rate-limited");
  assert.match(classifyError(pinned, url, 1000, [exchange(url, 307, [["location", "/mcp"]])]).message, /redirects in a loop/);
  const genuine = classifyError(pinned, url, 1000, [
    exchange(url, 400, [], '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}'),
  ]);
  assert.match(genuine.message, /did not offer pinned protocol version/);
  assert.match(genuine.hint ?? "", /era auto/);
});

test("every classified failure has a hint", () => {
  const url = "https://mcp.example.com/mcp";
  const errors: unknown[] = [
    new ContractError("url is required"),
    new BlockedTargetError("10.0.0.1 is private"),
    new ConnectionWaitTimeout("busy", "Try again shortly."),
    new SdkError(SdkErrorCode.RequestTimeout, "timed out"),
    Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }),
    Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    new TypeError("fetch failed", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) }),
    Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
    Object.assign(new Error("certificate has expired"), { code: "CERT_HAS_EXPIRED" }),
    new SdkError(SdkErrorCode.EraNegotiationFailed, "Version negotiation probe failed: unusable reply", {
      cause: new SyntaxError("Unexpected token < in JSON at position 0"),
    }),
    new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: text/html"),
    ...[401, 403, 404, 405, 400, 409, 429, 500, 503].map(
      (status) => new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "x", { status, statusText: "" }),
    ),
    new Error("something nobody expected"),
  ];
  for (const err of errors) {
    const e = classifyError(err, url, 1000);
    assert.ok(e.hint && e.hint.length > 10, `${e.kind}: ${e.message} has no hint`);
  }
});

test("SDK failures are told apart by their codes and classes, never by their message text", () => {
  const url = "https://mcp.example.com/mcp";
  // An answer that is neither JSON nor an event stream: the code says so, directly or as the cause of a failed probe.
  const html = new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: text/html; charset=utf-8", {
    contentType: "text/html; charset=utf-8",
  });
  const probe = new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    "Version negotiation probe failed: the server answered with an unusable reply (Unexpected content type: text/html; charset=utf-8)",
    { cause: html },
    { cause: html },
  );
  for (const err of [html, probe]) {
    const e = classifyError(err, url, 1000);
    assert.equal(e.kind, "upstream-protocol");
    assert.equal(
      e.message,
      `${url} did not answer like an MCP server: its answer has Content-Type text/html; charset=utf-8, not JSON or an event stream.`,
    );
    assert.match(e.hint ?? "", /not a web page/);
  }
  const bare = classifyError(
    new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: null", { contentType: null }),
    url,
    1000,
  );
  assert.match(bare.message, /its answer has no Content-Type, not JSON or an event stream\.$/);

  // A reply that is not JSON, or not JSON-RPC, as the cause of a failed probe: the SyntaxError / ZodError decides.
  const syntax = new SyntaxError("Unexpected token '<', \"<html>\" is not valid JSON");
  assert.match(
    classifyError(new SdkError(SdkErrorCode.EraNegotiationFailed, "probe failed", { cause: syntax }, { cause: syntax }), url, 1000).message,
    /its answer is not valid JSON/,
  );
  const zod = Object.assign(new Error("[]"), { name: "ZodError" });
  assert.match(
    classifyError(new SdkError(SdkErrorCode.EraNegotiationFailed, "probe failed", { cause: zod }, { cause: zod }), url, 1000).message,
    /JSON, but not a JSON-RPC message/,
  );

  // Words in a message decide nothing: a server's text that mentions content types or JSON is not a protocol verdict.
  for (const text of [
    "Upstream said: bad Content-Type header in your request",
    "Unexpected token in JSON at position 3 (from the server's own log)",
    'validation failed: "code": "invalid_type"',
  ]) {
    const e = classifyError(new Error(text), url, 1000);
    assert.equal(e.message, `The exchange with ${url} failed: ${text}`);
    assert.match(e.hint ?? "", /exchanges show what was sent/);
  }
});

test("a pin refusal is known by its shape (negotiation failed, no HTTP status, no cause), whatever the SDK's wording", () => {
  const url = "https://mcp.example.com/mcp";
  for (const message of [
    "Version negotiation failed: the connection closed during the server/discover probe before the server offered pinned protocol version 2026-07-28 (no fallback in pin mode)",
    "Negotiation ended without a modern verdict",
  ]) {
    const e = classifyError(new SdkError(SdkErrorCode.EraNegotiationFailed, message), url, 1000);
    assert.equal(e.kind, "upstream-protocol");
    assert.match(e.hint ?? "", /Era modern pins 2026-07-28/);
    assert.equal(
      classifyError(new SdkError(SdkErrorCode.EraNegotiationFailed, message), url, 1000, [exchange(url, 429, [["retry-after", "9"]])]).kind,
      "upstream-rate-limited",
    );
  }
  // With a cause (the probe's network failure) it is that failure, not the pin.
  const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
  const network = new SdkError(
    SdkErrorCode.EraNegotiationFailed,
    "Version negotiation probe failed: pinned protocol version unreachable",
    { cause: refused },
    { cause: refused },
  );
  assert.equal(classifyError(network, url, 1000).kind, "upstream-unreachable");
  // With an HTTP status it is the HTTP failure.
  const forbidden = new SdkHttpError(
    SdkErrorCode.EraNegotiationFailed,
    "Version negotiation failed: the server answered the probe with HTTP 502",
    { status: 502, statusText: "Bad Gateway" },
  );
  assert.match(classifyError(forbidden, url, 1000).message, /^The server failed with HTTP 502/);
  // Another SDK code with the same words is not a pin refusal.
  const other = classifyError(
    new SdkError(SdkErrorCode.ConnectionClosed, "closed before the server offered pinned protocol version 2026-07-28"),
    url,
    1000,
  );
  assert.doesNotMatch(other.hint ?? "", /Era modern/);
});

test("noMcpTransport: says what each transport got back and what to check, keeping the primary failure's kind", () => {
  const ex = (method: string, body: string | undefined, status: number, type: string): HttpExchange => ({
    request: { method, url: "https://example.com/api/x", headers: [], ...(body ? { body } : {}) },
    response: { status, statusText: "", headers: [["content-type", type]], sseEvents: [] },
    startedAt: "2026-12-03T12:00:00.000Z",
    durationMs: 1,
  });
  const posts = [
    ex("POST", '{"jsonrpc":"2.0","id":1,"method":"server/discover"}', 405, "text/plain"),
    ex("POST", '{"jsonrpc":"2.0","id":2,"method":"initialize"}', 405, "text/plain"),
  ];
  const get = ex("GET", undefined, 200, "application/json; charset=utf-8");
  const sse = new ProxyError(
    "upstream-protocol",
    "https://example.com/api/x did not open an HTTP+SSE event stream (Invalid content type).",
  );
  const primary = new ProxyError("upstream-protocol", "primary", undefined, 200);
  const err = noMcpTransport("https://user:pw@example.com/api/x", primary, sse, posts, [...posts, get]);
  assert.equal(err.kind, "upstream-protocol");
  assert.equal(err.upstreamStatus, 200);
  assert.equal(
    err.message,
    "https://example.com/api/x did not answer like an MCP server on either transport. Streamable HTTP: POST server/discover → HTTP 405 (text/plain), POST initialize → HTTP 405 (text/plain). Then HTTP+SSE: GET → HTTP 200 (application/json); it did not open an HTTP+SSE event stream (Invalid content type).",
  );
  assert.match(err.hint ?? "", /URL path.*\/mcp/);
  assert.doesNotMatch(err.message, /pw/, "no credentials in the message");
});
