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
      return sse([{ type: "upstream-event", event: { atMs: 1, data: "{}" } }, { type: "notification", message: { method: "notifications/progress", params: { progress: 1 } } }, { type: "result", body: RESULT }]);
    },
    () => api.rpcStream(CONNECTION, { method: "tools/call" }, {}, (n) => seen.push(n)),
  );
  assert.equal(accept, "text/event-stream");
  assert.deepEqual(seen, [{ method: "notifications/progress", params: { progress: 1 } }]);
  assert.deepEqual(body, RESULT);
});

test("rpcStream: an error event, a cut stream and a plain JSON answer", async () => {
  await assert.rejects(
    withFetch(() => sse([{ type: "error", status: 504, body: { error: { kind: "upstream-timeout", message: "No response within 5000 ms." } } }]), () => api.rpcStream(CONNECTION, {}, {}, () => {})),
    (err: unknown) => err instanceof ApiError && err.status === 504 && err.body.kind === "upstream-timeout",
  );
  await assert.rejects(withFetch(() => sse([{ type: "notification", message: {} }]), () => api.rpcStream(CONNECTION, {}, {}, () => {})), /ended before the answer/);
  assert.deepEqual(await withFetch(() => Response.json(RESULT), () => api.rpcStream(CONNECTION, {}, {}, () => {})), RESULT);
  await assert.rejects(
    withFetch(() => Response.json({ error: { kind: "bad-request", message: "nope" } }, { status: 400 }), () => api.rpcStream(CONNECTION, {}, {}, () => {})),
    (err: unknown) => err instanceof ApiError && err.status === 400,
  );
});
