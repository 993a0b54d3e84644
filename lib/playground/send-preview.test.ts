import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { buildSendPreview, overrideMap, previewLines, writeIntoRequest, type PreviewInput } from "./send-preview.ts";
import { parseMessage } from "./playground-state.ts";

const SQL: Tool = {
  name: "execute_sql",
  inputSchema: { type: "object", properties: { query: { type: "string" }, region: { type: "string", "x-mcp-header": "Region" } } },
};

const call = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", ...extra, method: "tools/call", params: { name: "execute_sql", arguments: args } });

function preview(over: Partial<PreviewInput>) {
  return buildSendPreview({
    text: call({ query: "SELECT 1", region: "eu-west1" }, { id: 1 }),
    era: "modern",
    transport: "http",
    endpoint: "http://localhost:3000/api/demo/mcp",
    protocolVersion: "2026-07-28",
    tools: [SQL],
    userHeaders: {},
    nextId: () => "toolscope-test-1",
    ...over,
  });
}

function ok(p: ReturnType<typeof buildSendPreview>) {
  assert.equal(p.ok, true, JSON.stringify(p));
  return p as Extract<typeof p, { ok: true }>;
}

const headerMap = (p: ReturnType<typeof ok>) => Object.fromEntries(p.http!.headers.map((h) => [h.name, h.value]));

test("modern body: the id and _meta the proxy adds, and the playground's progressToken and logLevel, each marked with who adds it", () => {
  const off = ok(preview({ text: call({ query: "SELECT 1", region: "eu-west1" }) }));
  assert.ok(!off.added.some((a) => a.pointer.endsWith("logLevel")), "no log level unless the user picks one");
  const p = ok(preview({ text: call({ query: "SELECT 1", region: "eu-west1" }), logLevel: "debug" }));
  assert.equal(p.body.id, "toolscope-test-1");
  const meta = (p.body.params as { _meta: Record<string, unknown> })._meta;
  assert.equal(meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  assert.equal(meta["io.modelcontextprotocol/logLevel"], "debug");
  assert.equal(meta.progressToken, "toolscope-call");
  assert.deepEqual(
    p.added.map((a) => `${a.by} ${a.pointer}`),
    [
      "playground /params/_meta/progressToken",
      "playground /params/_meta/io.modelcontextprotocol~1logLevel",
      "proxy /id",
      "proxy /params/_meta/io.modelcontextprotocol~1protocolVersion",
      "proxy /params/_meta/io.modelcontextprotocol~1clientInfo",
      "proxy /params/_meta/io.modelcontextprotocol~1clientCapabilities",
    ],
  );
});

test("modern headers: content negotiation, protocol version from _meta, Mcp-Method, Mcp-Name, the mirrored Mcp-Param-Region", () => {
  const p = ok(preview({}));
  assert.deepEqual(p.http?.method, "POST");
  assert.deepEqual(headerMap(p), {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
    "Mcp-Name": "execute_sql",
    "Mcp-Param-Region": "eu-west1",
  });
  assert.deepEqual(
    p.http!.headers.map((h) => h.kind),
    ["content", "content", "protocol", "protocol", "protocol", "param"],
  );
});

test("a non-ASCII parameter value is sent base64-encoded, with its decoded form beside it", () => {
  const p = ok(preview({ text: call({ query: "x", region: "Zürich" }, { id: 1 }) }));
  const h = p.http!.headers.find((x) => x.name === "Mcp-Param-Region")!;
  assert.equal(h.value, `=?base64?${Buffer.from("Zürich").toString("base64")}?=`);
  assert.equal(h.decoded, "Zürich");
  const plain = ok(preview({})).http!.headers.find((x) => x.name === "Mcp-Param-Region")!;
  assert.equal(plain.decoded, undefined);
});

test("legacy: no _meta envelope, no Mcp-Method/Mcp-Name/Mcp-Param; the session's version and Mcp-Session-Id", () => {
  const p = ok(preview({ era: "legacy", protocolVersion: "2025-11-25", sessionId: "sess-1" }));
  assert.deepEqual(
    p.added.map((a) => a.pointer),
    ["/params/_meta/progressToken"],
  );
  assert.deepEqual(headerMap(p), {
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
    "Mcp-Session-Id": "sess-1",
  });
});

test("stdio: the stamped body, and no HTTP request at all", () => {
  const p = ok(preview({ transport: "stdio" }));
  assert.equal(p.http, undefined);
  assert.ok(p.added.some((a) => a.pointer === "/params/_meta/io.modelcontextprotocol~1protocolVersion"));
});

test("overrides replace the derived value (remembered as replaced) or add a header; the user's headers show by name, values masked", () => {
  const p = ok(
    preview({
      overrides: { "mcp-param-region": "us-east1", "Mcp-Param-Extra": "x" },
      userHeaders: { Authorization: "Bearer secret-token", "X-Team": "blue" },
    }),
  );
  const region = p.http!.headers.find((h) => h.name === "Mcp-Param-Region")!;
  assert.deepEqual([region.value, region.overridden], ["us-east1", { replaced: "eu-west1" }]);
  const extra = p.http!.headers.find((h) => h.name === "Mcp-Param-Extra")!;
  assert.deepEqual(extra.overridden, {});
  const users = p.http!.headers.filter((h) => h.kind === "user");
  assert.deepEqual(
    users.map((h) => h.name),
    ["Authorization", "X-Team"],
  );
  assert.ok(users.every((h) => h.value.includes("••••") && !h.value.includes("secret") && !h.value.includes("blue")));
});

test("what the user wrote wins: a written id and _meta field are not added again", () => {
  const text = JSON.stringify({
    jsonrpc: "2.0",
    id: 7,
    method: "tools/list",
    params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  });
  const p = ok(preview({ text }));
  assert.equal(p.body.id, 7);
  assert.deepEqual(
    p.added.map((a) => a.pointer),
    ["/params/_meta/io.modelcontextprotocol~1clientInfo", "/params/_meta/io.modelcontextprotocol~1clientCapabilities"],
  );
  assert.equal(headerMap(p)["Mcp-Name"], undefined, "tools/list names nothing");
});

test("a notification gets the envelope but no id and, like on the wire, no body-derived headers", () => {
  const p = ok(preview({ text: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }) }));
  assert.equal("id" in p.body, false);
  assert.deepEqual(Object.keys(headerMap(p)), ["Content-Type", "Accept"]);
});

test("text that is not a sendable message says what Send says: what, where, and that it is not sent until fixed", () => {
  const text = '{"jsonrpc": "2.0", "method": ';
  const parsed = parseMessage(text);
  assert.deepEqual(preview({ text }), { ok: false, problem: !parsed.ok && parsed.error, blocked: true });
  assert.match(
    (preview({ text }) as { problem: string }).problem,
    /^Line 1, column \d+: .*Send will not send the request until this is fixed\.$/,
  );
  assert.equal(preview({ text: "[1]" }).ok, false);
  assert.match((preview({ text: '{"id": 9007199254740993, "method": "ping"}' }) as { problem: string }).problem, /^Line 1, column 8: /);
  assert.match((preview({ text: '{"id": 1}' }) as { problem: string }).problem, /method/);
});

test("writeIntoRequest puts an added field into the text, creating parents; the preview then no longer adds it", () => {
  const text = '{\n  "jsonrpc": "2.0",\n  "method": "tools/list"\n}';
  const withId = writeIntoRequest(text, "/id", "toolscope-test-1");
  assert.equal(JSON.parse(withId).id, "toolscope-test-1");
  const withMeta = writeIntoRequest(withId, "/params/_meta/io.modelcontextprotocol~1protocolVersion", "2026-07-28");
  assert.deepEqual(JSON.parse(withMeta).params, { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
  assert.match(withMeta, /\n {2}"params": \{\n {4}"_meta"/);
  const p = ok(preview({ text: withMeta }));
  assert.equal(
    p.added.some((a) => a.pointer === "/id" || a.pointer.endsWith("protocolVersion")),
    false,
  );
});

test("previewLines prints like JSON.stringify(…, null, 2) and marks the added fields' lines (whole subtrees)", () => {
  const body = { jsonrpc: "2.0", id: "x", method: "m", params: { name: "n", _meta: { "a/b": { deep: [1, 2] }, kept: true }, empty: {} } };
  const lines = previewLines(body, new Set(["/id", "/params/_meta/a~1b"]));
  assert.equal(lines.map((l) => l.text).join("\n"), JSON.stringify(body, null, 2));
  assert.deepEqual(
    lines.filter((l) => l.added).map((l) => l.text.trim()),
    ['"id": "x",', '"a/b": {', '"deep": [', "1,", "2", "]", "},"],
  );
  const whole = previewLines(
    { method: "m", params: { name: "n", _meta: { a: 1, b: 2 } } },
    new Set(["/params/_meta/a", "/params/_meta/b"]),
  );
  // The user's own (empty) params holding an added _meta: the braces of _meta are added, those of params are not.
  const own = previewLines({ method: "tools/list", params: { _meta: { a: 1 } } }, new Set(["/params/_meta/a"]));
  assert.deepEqual(
    own.filter((l) => l.added).map((l) => l.text.trim()),
    ['"_meta": {', '"a": 1', "}"],
  );
  assert.deepEqual(
    whole.filter((l) => l.added).map((l) => l.text.trim()),
    ['"_meta": {', '"a": 1,', '"b": 2', "}"],
    "a wholly added _meta is marked with its braces",
  );
});

test("overrideMap sends only valid drafts and says what is wrong with the others", () => {
  const { overrides, problems } = overrideMap([
    { name: "Mcp-Param-Region", value: "us-east1" },
    { name: "Mcp-Method", value: "x" },
    { name: "mcp-param-region", value: "again" },
    { name: "Mcp-Name", value: "Zürich" },
  ]);
  assert.deepEqual(overrides, { "Mcp-Param-Region": "us-east1" });
  assert.equal(problems[0], undefined);
  assert.match(problems[1]!, /Only Mcp-Name and Mcp-Param-\*/);
  assert.match(problems[2]!, /overridden above already/);
  assert.match(problems[3]!, /=\?base64\?/);
});

test("legacy on HTTP+SSE: only content headers and the version on the POST (the session is in the endpoint URL), with a note", () => {
  const p = ok(preview({ era: "legacy", transport: "sse", protocolVersion: "2024-11-05", sessionId: undefined }));
  assert.deepEqual(headerMap(p), { "Content-Type": "application/json", Accept: "*/*", "MCP-Protocol-Version": "2024-11-05" });
  assert.match(p.http!.endpointNote!, /endpoint the stream names/);
});

test("the MCP Apps switch shows in the preview: the modern _meta declares the extension unless the connection is without apps", () => {
  const caps = (p: ReturnType<typeof ok>) =>
    ((p.body.params as Record<string, unknown>)._meta as Record<string, Record<string, unknown>>)[
      "io.modelcontextprotocol/clientCapabilities"
    ];
  assert.deepEqual(caps(ok(preview({}))).extensions, { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } });
  const without = caps(ok(preview({ apps: false })));
  assert.equal(without.extensions, undefined);
  assert.deepEqual(Object.keys(without).sort(), ["elicitation", "roots", "sampling"]);
});
