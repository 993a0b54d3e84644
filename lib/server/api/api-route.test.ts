/**
 * What handleApi does before a run: admission per route class, the client's concurrency slot, then the body, read
 * under TOOLSCOPE_BODY_READ_TIMEOUT_MS. The bodies are real web streams, some of which send part and then stall, as
 * a slow or hostile client does; the run is a stand-in (what it does is not under test here).
 */
import { test } from "node:test";
import assert from "node:assert/strict";

process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_LIMITS = "on";
process.env.TOOLSCOPE_BODY_READ_TIMEOUT_MS = "300";
process.env.TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT = "2";
process.env.TOOLSCOPE_MAX_INFLIGHT_CONTROL = "3";
delete process.env.REDIS_URL;

const { handleApi } = await import("./api-route.ts");
const { admission } = await import("../limits/admission.ts");
const { config } = await import("../platform/config.ts");

interface Sent {
  /** Resolves when the body's stream was cancelled (by our side). */
  cancelled: Promise<void>;
  request: Request;
}

/** A POST whose body sends `first` and then, unless `end`, nothing more (the stream stays open). */
function post(path: string, client: string, first: string, end = false): Sent {
  let onCancel = () => {};
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
      if (end) controller.close();
    },
    cancel: () => onCancel(),
  });
  const request = new Request(`http://127.0.0.1:3000${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolscope-peer": client },
    body,
    duplex: "half",
  } as RequestInit);
  return { cancelled, request };
}

let runs = 0;
function call(sent: Sent): Promise<Response> {
  return handleApi(
    sent.request,
    (body) => body,
    async () => ({ ok: ++runs }),
    () => "",
  );
}

async function errorOf(res: Response): Promise<{ kind: string; message: string; hint?: string }> {
  return ((await res.json()) as { error: { kind: string; message: string; hint?: string } }).error;
}

test("a body that stalls is answered 408 request-timeout at TOOLSCOPE_BODY_READ_TIMEOUT_MS, and its stream cancelled", async () => {
  const sent = post("/api/rpc/cancel", "192.0.2.1", '{"streamId":"');
  const started = performance.now();
  const res = await call(sent);
  const took = performance.now() - started;
  assert.equal(res.status, 408);
  const error = await errorOf(res);
  assert.equal(error.kind, "request-timeout");
  assert.match(error.message, /within 300 ms \(TOOLSCOPE_BODY_READ_TIMEOUT_MS\)/);
  assert.ok(took >= 290 && took < 2_000, `answered after ${Math.round(took)} ms`);
  await sent.cancelled;
});

test("the client's slot is taken before the body: stalled bodies hold it, the next request is refused at once", async () => {
  const client = "192.0.2.2";
  const stalled = [post("/api/rpc/cancel", client, "{"), post("/api/rpc/cancel", client, "{")].map(call);
  // A complete request from the same client while both of its slots wait for bodies.
  const started = performance.now();
  const third = await call(post("/api/rpc/cancel", client, "{}", true));
  assert.ok(performance.now() - started < 200, "refused without waiting");
  assert.equal(third.status, 429);
  assert.match((await errorOf(third)).message, /TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT/);
  // Another client is not held up.
  assert.equal((await call(post("/api/rpc/cancel", "192.0.2.3", "{}", true))).status, 200);
  assert.deepEqual(
    (await Promise.all(stalled)).map((r) => r.status),
    [408, 408],
  );
  // Cut off, they gave their slots back.
  assert.equal((await call(post("/api/rpc/cancel", client, "{}", true))).status, 200);
});

test("past TOOLSCOPE_MAX_INFLIGHT_<CLASS> on this instance, 503 with Retry-After naming the setting; other classes go on", async () => {
  const stalled = ["192.0.2.10", "192.0.2.11", "192.0.2.12"].map((c) => call(post("/api/rpc/answer", c, "{")));
  const started = performance.now();
  const refused = await call(post("/api/rpc/cancel", "192.0.2.13", "{}", true));
  assert.ok(performance.now() - started < 200, "refused without waiting");
  assert.equal(refused.status, 503);
  assert.equal(refused.headers.get("retry-after"), "2");
  const error = await errorOf(refused);
  assert.equal(error.kind, "unavailable");
  assert.match(error.message, /working on 3 answers and cancels of streamed calls already.*\(TOOLSCOPE_MAX_INFLIGHT_CONTROL\)/);
  assert.match(error.hint ?? "", /raise TOOLSCOPE_MAX_INFLIGHT_CONTROL/);
  // Another class has its own room.
  assert.equal((await call(post("/api/tools", "192.0.2.13", "{}", true))).status, 200);
  assert.deepEqual(
    (await Promise.all(stalled)).map((r) => r.status),
    [408, 408, 408],
  );
  assert.equal(admission(config()).inFlight("control"), 0);
  assert.equal((await call(post("/api/rpc/cancel", "192.0.2.13", "{}", true))).status, 200);
});

test("a refused or failed request gives its admission back", async () => {
  for (let i = 0; i < 5; i++) assert.equal((await call(post("/api/rpc/answer", "192.0.2.20", "not json", true))).status, 400);
  assert.equal(admission(config()).inFlight("control"), 0);
  assert.equal(admission(config()).inFlight("tools"), 0);
});

test("a body without a length that grows past TOOLSCOPE_MAX_REQUEST_BYTES is refused as too large, and its stream cancelled", async () => {
  const max = config().maxRequestBytes;
  let onCancel = () => {};
  const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
  const chunk = new TextEncoder().encode(`"${"a".repeat(64 * 1024)}",`);
  let sent = 0;
  // Sends for as long as it is read: only the cap stops it.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel: () => onCancel(),
  });
  const request = new Request("http://127.0.0.1:3000/api/rpc/cancel", {
    method: "POST",
    headers: { "content-type": "application/json", "x-toolscope-peer": "192.0.2.9" },
    body,
    duplex: "half",
  } as RequestInit);
  const res = await call({ request, cancelled });
  assert.equal(res.status, 413);
  const error = await errorOf(res);
  assert.equal(error.kind, "too-large");
  assert.match(error.message, new RegExp(`exceeds ${max} bytes \\(TOOLSCOPE_MAX_REQUEST_BYTES\\)`));
  await cancelled;
  assert.ok(sent < max + 4 * chunk.byteLength, `read ${sent} bytes for a cap of ${max}`);
});
