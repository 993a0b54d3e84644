import { test } from "node:test";
import assert from "node:assert/strict";
import { api, ApiError } from "./api-client.ts";

const CONNECTION = { v: 1 as const, url: "builtin:demo", era: "modern" as const, protocolVersion: "2026-07-28" };

function sse(events: unknown[], chunk = 7): Response {
  const text = events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join("");
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.length; i += chunk) c.enqueue(bytes.slice(i, i + chunk));
      c.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

async function withFetch<T>(answer: (init: RequestInit) => Response, f: () => Promise<T>): Promise<T> {
  const original = globalThis.fetch;
  globalThis.fetch = (async (_url: unknown, init: RequestInit) => answer(init)) as typeof fetch;
  try {
    return await f();
  } finally {
    globalThis.fetch = original;
  }
}

const RESULT = { response: { jsonrpc: "2.0", id: 1, result: {} }, notifications: [], sent: {}, added: [], exchanges: [], durationMs: 3 };

test("rpcStream asks for an event stream, hands notifications over as they come, resolves with the result", async () => {
  const seen: unknown[] = [];
  let accept = "";
  const body = await withFetch(
    (init) => {
      accept = new Headers(init.headers).get("accept") ?? "";
      return sse([
        { type: "upstream-event", event: { atMs: 1, data: "{}" } },
        { type: "notification", message: { method: "notifications/progress", params: { progress: 1 } } },
        { type: "result", body: RESULT },
      ]);
    },
    () => api.rpcStream(CONNECTION, { method: "tools/call" }, {}, (n) => seen.push(n)),
  );
  assert.equal(accept, "text/event-stream");
  assert.deepEqual(seen, [{ method: "notifications/progress", params: { progress: 1 } }]);
  assert.deepEqual(body, RESULT);
});

test("rpcStream: an error event, a cut stream and a plain JSON answer", async () => {
  await assert.rejects(
    withFetch(
      () => sse([{ type: "error", status: 504, body: { error: { kind: "upstream-timeout", message: "No response within 5000 ms." } } }]),
      () => api.rpcStream(CONNECTION, {}, {}, () => {}),
    ),
    (err: unknown) => err instanceof ApiError && err.status === 504 && err.body.kind === "upstream-timeout",
  );
  await assert.rejects(
    withFetch(
      () => sse([{ type: "notification", message: {} }]),
      () => api.rpcStream(CONNECTION, {}, {}, () => {}),
    ),
    /ended before the answer/,
  );
  assert.deepEqual(
    await withFetch(
      () => Response.json(RESULT),
      () => api.rpcStream(CONNECTION, {}, {}, () => {}),
    ),
    RESULT,
  );
  await assert.rejects(
    withFetch(
      () => Response.json({ error: { kind: "bad-request", message: "nope" } }, { status: 400 }),
      () => api.rpcStream(CONNECTION, {}, {}, () => {}),
    ),
    (err: unknown) => err instanceof ApiError && err.status === 400,
  );
});

test("rpcStream hands over the stream id, the server's requests and their end, in order, before the result", async () => {
  const seen: string[] = [];
  const request = { jsonrpc: "2.0", id: 0, method: "roots/list" };
  const body = await withFetch(
    () =>
      sse([
        { type: "stream", streamId: "s-1" },
        { type: "server-request", streamId: "s-1", pendingId: "p-1", request, timeoutMs: 300000 },
        { type: "notification", message: { method: "notifications/progress" } },
        { type: "server-request-ended", pendingId: "p-1", answeredBy: "timeout" },
        { type: "result", body: RESULT },
      ]),
    () =>
      api.rpcStream(
        CONNECTION,
        {},
        {},
        {
          onStream: (id) => seen.push(`stream ${id}`),
          onServerRequest: (e) => seen.push(`request ${e.pendingId} ${String(e.request.method)} ${e.timeoutMs}`),
          onNotification: (n) => seen.push(`notification ${String(n.method)}`),
          onServerRequestEnded: (e) => seen.push(`ended ${e.pendingId} ${e.answeredBy}`),
        },
      ),
  );
  assert.deepEqual(seen, ["stream s-1", "request p-1 roots/list 300000", "notification notifications/progress", "ended p-1 timeout"]);
  assert.deepEqual(body, RESULT);
  // Handlers are optional: a stream event nobody listens to is skipped.
  assert.deepEqual(
    await withFetch(
      () =>
        sse([
          { type: "stream", streamId: "s-2" },
          { type: "result", body: RESULT },
        ]),
      () => api.rpcStream(CONNECTION, {}, {}, {}),
    ),
    RESULT,
  );
});

test("a cancelled call: the stream ends with an error event carrying the exchanges so far", async () => {
  const exchanges = [
    { request: { method: "POST", url: "http://x/mcp", headers: [] }, startedAt: "2026-01-01T00:00:00.000Z", durationMs: 5 },
  ];
  await assert.rejects(
    withFetch(
      () =>
        sse([
          { type: "stream", streamId: "s" },
          { type: "error", status: 400, body: { error: { kind: "bad-request", message: "The request was cancelled.", exchanges } } },
        ]),
      () => api.rpcStream(CONNECTION, {}, {}, {}),
    ),
    (err: unknown) => err instanceof ApiError && err.body.kind === "bad-request" && err.body.exchanges?.length === 1,
  );
});

test("answer and cancel POST JSON to their routes; a request that stopped waiting is a 404 ApiError", async () => {
  const calls: { url: string; body: unknown; type: string | null }[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (url: unknown, init: RequestInit) => {
    calls.push({ url: String(url), body: JSON.parse(String(init.body)), type: new Headers(init.headers).get("content-type") });
    return String(url).endsWith("/answer") && calls.length > 1
      ? Response.json({ error: { kind: "not-found", message: "Not waiting." } }, { status: 404 })
      : Response.json({ ok: true, delivered: "local" });
  }) as typeof fetch;
  try {
    const response = { result: { action: "decline" } };
    assert.deepEqual(await api.answer({ streamId: "s", pendingId: "p", response }), { ok: true, delivered: "local" });
    await assert.rejects(
      api.answer({ streamId: "s", pendingId: "p", response }),
      (err: unknown) => err instanceof ApiError && err.status === 404 && err.body.kind === "not-found",
    );
    assert.deepEqual(await api.cancel({ streamId: "s" }), { ok: true, delivered: "local" });
  } finally {
    globalThis.fetch = original;
  }
  assert.deepEqual(
    calls.map((c) => c.url),
    ["/api/rpc/answer", "/api/rpc/answer", "/api/rpc/cancel"],
  );
  assert.deepEqual(calls[0].body, { streamId: "s", pendingId: "p", response: { result: { action: "decline" } } });
  assert.deepEqual(calls[2].body, { streamId: "s" });
  assert.ok(calls.every((c) => c.type === "application/json"));
});
