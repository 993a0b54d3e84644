import http from "node:http";
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { ProxyError } from "../errors/proxy-error.ts";
import { ExchangeFailure } from "../exchange/exchange-core.ts";
import { exchangeMessage, LEGACY_RESUME_ATTEMPTS } from "./upstream-http.ts";

/** A real HTTP endpoint whose POST answers with an event stream scripted per test. */
type Script = (req: http.IncomingMessage, body: Record<string, unknown> | undefined, res: http.ServerResponse) => void;
let script: Script = () => undefined;
const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (c: Buffer) => (raw += c));
  req.on("end", () => script(req, raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined, res));
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
after(() => server.close());

const sse = (res: http.ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s1" });
const event = (message: unknown, id?: string) => `${id ? `id: ${id}\n` : ""}event: message\ndata: ${JSON.stringify(message)}\n\n`;
const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } };
const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: {}, _meta: { progressToken: 1 } } };

function exchange(era: "modern" | "legacy", timeoutMs = 5_000) {
  const notifications: unknown[] = [];
  const run = exchangeMessage({
    target: { url, fetch, displayUrl: url.toString() },
    descriptor: era === "modern" ? { era, protocolVersion: "2026-07-28" } : { era, protocolVersion: "2025-11-25", sessionId: "s1" },
    message: call,
    userHeaders: {},
    timeoutMs,
    maxBodyBytes: 1_000_000,
    onNotification: (n) => notifications.push(n),
  });
  return { run, notifications };
}

test("a stream that closes before the answer fails at once as stream-broken, not at the timeout, with what arrived", async () => {
  script = (_req, _body, res) => {
    sse(res);
    res.write(event(progress));
    setTimeout(() => res.end(), 50);
  };
  const started = performance.now();
  const { run, notifications } = exchange("modern", 5_000);
  const err = await run.then(
    () => assert.fail("resolved"),
    (e: unknown) => e,
  );
  assert.ok(performance.now() - started < 2_000, "reported when the stream ended, long before the 5 s timeout");
  assert.ok(err instanceof ExchangeFailure);
  assert.ok(err.cause instanceof ProxyError);
  assert.equal(err.cause.kind, "stream-broken");
  assert.match(err.cause.message, /closed before the answer to tools\/call/);
  assert.match(err.cause.hint ?? "", /may or may not have run/);
  assert.deepEqual(notifications, [progress]);
  assert.equal(err.exchanges.length, 1, "modern streams are never resumed or re-sent");
  assert.equal(err.exchanges[0]?.response?.sseEvents?.length, 1);
});

test("an answer at the end of the stream is the answer (the end of a complete stream is no error)", async () => {
  script = (_req, body, res) => {
    sse(res);
    res.write(event(progress));
    res.end(event({ jsonrpc: "2.0", id: body?.id, result: { content: [] } }));
  };
  const { run } = exchange("modern");
  const result = await run;
  assert.deepEqual(result.response, { jsonrpc: "2.0", id: 7, result: { content: [] } });
});

test("legacy: a numbered stream closed early is resumed with GET + Last-Event-ID, and nothing is re-sent", async () => {
  const seen: string[] = [];
  script = (req, body, res) => {
    seen.push(`${req.method} ${req.headers["last-event-id"] ?? ""}`.trim());
    sse(res);
    if (req.method === "POST") {
      res.write(event(progress, "e1"));
      setTimeout(() => res.end(), 20);
    } else res.end(event({ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "resumed" }] } }, "e2"));
    void body;
  };
  const { run } = exchange("legacy");
  const result = await run;
  assert.equal((result.response?.result as { content: { text: string }[] }).content[0]?.text, "resumed");
  assert.deepEqual(seen, ["POST", "GET e1"]);
});

test("legacy: a server that keeps closing numbered streams is polled until the request timeout; the request is sent once", async () => {
  const seen: string[] = [];
  script = (req, _body, res) => {
    seen.push(req.method ?? "");
    sse(res);
    res.write(event(progress, `e${seen.length}`));
    setTimeout(() => res.end(), 20);
  };
  const err = await exchange("legacy", 1_500).run.then(
    () => assert.fail("resolved"),
    (e: unknown) => e,
  );
  assert.equal(((err as ExchangeFailure).cause as ProxyError).kind, "upstream-timeout");
  assert.equal(seen.filter((m) => m === "POST").length, 1);
  assert.ok(seen.filter((m) => m === "GET").length >= LEGACY_RESUME_ATTEMPTS, "resumed (polling, SEP-1699)");
});

test("legacy: a stream without event ids cannot be resumed: closed early, it is stream-broken", async () => {
  script = (_req, _body, res) => {
    sse(res);
    res.write(event(progress));
    setTimeout(() => res.end(), 20);
  };
  const err = await exchange("legacy").run.then(
    () => assert.fail("resolved"),
    (e: unknown) => e,
  );
  assert.equal(((err as ExchangeFailure).cause as ProxyError).kind, "stream-broken");
  assert.equal((err as ExchangeFailure).exchanges.length, 1);
});
