import assert from "node:assert/strict";
import { test } from "node:test";
import type { ConnectionDescriptor, RpcStreamEvent } from "../mcp/contract.ts";
import { backoffDelay, declinedFilterKeys, openListen, type ListenStatus } from "./listen-client.ts";

const CONNECTION: ConnectionDescriptor = {
  v: 1,
  url: "builtin:demo",
  era: "modern",
  protocolVersion: "2026-07-28",
} as ConnectionDescriptor;

test("backoff doubles from the base up to the cap, with half of each delay jittered", () => {
  const low = Array.from({ length: 8 }, (_, i) => backoffDelay(i + 1, { random: () => 0 }));
  const high = Array.from({ length: 8 }, (_, i) => backoffDelay(i + 1, { random: () => 0.999999 }));
  assert.deepEqual(low, [500, 1000, 2000, 4000, 8000, 15000, 15000, 15000]);
  assert.deepEqual(high, [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  assert.equal(backoffDelay(3, { baseMs: 100, maxMs: 250, random: () => 0.5 }), 188);
  assert.equal(backoffDelay(10_000, { random: () => 1 }), 30000, "huge attempt numbers stay capped");
  assert.equal(backoffDelay(0, { random: () => 0 }), 500, "attempts below 1 count as the first");
  for (let attempt = 1; attempt < 20; attempt++) {
    const d = backoffDelay(attempt);
    assert.ok(d >= 500 && d <= 30000, `attempt ${attempt}: ${d}`);
  }
});

test("declinedFilterKeys names what the acknowledgment left out", () => {
  assert.deepEqual(
    declinedFilterKeys({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: false }, { toolsListChanged: true }),
    ["promptsListChanged"],
  );
  assert.deepEqual(declinedFilterKeys({ resourceSubscriptions: ["a://1", "a://2"] }, { resourceSubscriptions: ["a://2"] }), [
    "resourceSubscriptions:a://1",
  ]);
  assert.deepEqual(declinedFilterKeys({ toolsListChanged: true }, { toolsListChanged: true }), []);
});

/** One fake /api/rpc stream the test writes events into. */
class FakeStream {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly body = new ReadableStream<Uint8Array>({ start: (c) => void (this.controller = c) });
  aborted = false;
  send(event: RpcStreamEvent) {
    this.controller.enqueue(new TextEncoder().encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
  }
  end() {
    this.controller.close();
  }
  fail() {
    this.controller.error(new TypeError("network error"));
  }
}

function harness(responses: Array<FakeStream | Response>) {
  const statuses: ListenStatus[] = [];
  const notifications: Record<string, unknown>[] = [];
  const requests: Array<{ message: { id: number; method: string; params: unknown }; connection: unknown }> = [];
  const timers: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  let clock = 0;
  const fetch = (async (_url: string, init: RequestInit) => {
    requests.push(JSON.parse(String(init.body)));
    const next = responses.shift();
    if (!next) throw new Error("no more responses");
    if (next instanceof Response) return next;
    init.signal?.addEventListener("abort", () => {
      next.aborted = true;
      next.fail();
    });
    return new Response(next.body, { headers: { "content-type": "text/event-stream" } });
  }) as unknown as typeof globalThis.fetch;
  const handle = openListen({
    connection: CONNECTION,
    filter: { toolsListChanged: true },
    onStatus: (s) => statuses.push(s),
    onNotification: (m) => notifications.push(m),
    fetch,
    schedule: (fn, ms) => {
      const timer = { fn, ms, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
    now: () => clock,
    backoff: { random: () => 0 },
  });
  return { statuses, notifications, requests, timers, handle, advance: (ms: number) => void (clock += ms) };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

function ack(id: number, notifications: Record<string, unknown> = { toolsListChanged: true }): RpcStreamEvent {
  return {
    type: "notification",
    message: {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { "io.modelcontextprotocol/subscriptionId": id }, notifications },
    },
  };
}
const listChanged = (id: number): RpcStreamEvent => ({
  type: "notification",
  message: {
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { "io.modelcontextprotocol/subscriptionId": id } },
  },
});
const graceful = (id: number) =>
  ({ type: "result", body: { response: { jsonrpc: "2.0", id, result: { resultType: "complete" } } } }) as unknown as RpcStreamEvent;

test("subscribes, reports the acknowledgment, forwards notifications, and stops after a graceful closure", async () => {
  const stream = new FakeStream();
  const h = harness([stream]);
  await tick();
  assert.deepEqual(h.statuses, [{ state: "connecting", attempt: 1 }]);
  assert.equal(h.requests[0].message.method, "subscriptions/listen");
  assert.deepEqual(h.requests[0].message.params, { notifications: { toolsListChanged: true } });
  assert.equal(h.requests[0].message.id, 1);
  assert.deepEqual(h.requests[0].connection, CONNECTION);

  stream.send(ack(1, {}));
  stream.send(listChanged(1));
  await tick();
  assert.deepEqual(h.statuses[1], {
    state: "subscribed",
    subscriptionId: 1,
    acknowledged: {},
    declined: ["toolsListChanged"],
    subscriptions: 1,
  });
  assert.deepEqual(
    h.notifications.map((n) => n.method),
    ["notifications/tools/list_changed"],
    "the acknowledgment is a status, not a notification",
  );

  stream.send(graceful(1));
  await tick();
  assert.deepEqual(h.statuses.at(-1), { state: "closed", reason: "graceful", message: "The server ended the subscription." });
  assert.equal(h.timers.length, 0, "no reconnect after a graceful closure");
});

test("a dropped stream reconnects with growing delays; a long-lived subscription resets the backoff", async () => {
  const streams = [new FakeStream(), new FakeStream(), new FakeStream(), new FakeStream()];
  const h = harness([...streams]);
  await tick();
  streams[0].send(ack(1));
  await tick();
  streams[0].end();
  await tick();
  assert.deepEqual(h.statuses.at(-1), { state: "reconnecting", attempt: 1, inMs: 500, reason: "The listen stream dropped." });

  h.timers[0].fn();
  await tick();
  assert.equal(h.requests[1].message.id, 2, "each attempt is a new listen request with its own id");
  streams[1].fail();
  await tick();
  assert.deepEqual(h.statuses.at(-1), {
    state: "reconnecting",
    attempt: 2,
    inMs: 1000,
    reason: "Toolscope's server could not be reached (network error).",
  });

  h.timers[1].fn();
  await tick();
  streams[2].send(ack(3));
  await tick();
  assert.equal((h.statuses.at(-1) as { subscriptions: number }).subscriptions, 2);
  h.advance(60_000);
  streams[2].end();
  await tick();
  assert.deepEqual(h.statuses.at(-1), { state: "reconnecting", attempt: 1, inMs: 500, reason: "The listen stream dropped." });
  h.handle.close();
  assert.equal(h.timers.at(-1)?.cancelled, true, "close() cancels the pending reconnect");
  assert.deepEqual(h.statuses.at(-1), { state: "closed", reason: "stopped" });
});

test("proxy failures: 5xx error events are retried, a 400 answer or a permanent JSON-RPC error stops for good", async () => {
  const retried = new FakeStream();
  const h = harness([
    retried,
    Response.json({ error: { kind: "bad-request", message: "open subscriptions/listen with Accept: text/event-stream" } }, { status: 400 }),
  ]);
  await tick();
  retried.send({ type: "error", status: 504, body: { error: { kind: "upstream-timeout", message: "too long" } } });
  await tick();
  assert.deepEqual(h.statuses.at(-1), { state: "reconnecting", attempt: 1, inMs: 500, reason: "too long" });
  h.timers[0].fn();
  await tick();
  assert.deepEqual(h.statuses.at(-1), {
    state: "closed",
    reason: "failed",
    message: "open subscriptions/listen with Accept: text/event-stream",
  });

  const unsupported = new FakeStream();
  const h2 = harness([unsupported]);
  await tick();
  unsupported.send({
    type: "result",
    body: { response: { jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found" } } },
  } as unknown as RpcStreamEvent);
  await tick();
  assert.deepEqual(h2.statuses.at(-1), {
    state: "closed",
    reason: "failed",
    message: "The server refused subscriptions/listen: Method not found (-32601).",
  });
});

test("close() aborts the open stream and reports nothing more", async () => {
  const stream = new FakeStream();
  const h = harness([stream, new FakeStream()]);
  await tick();
  stream.send(ack(1));
  await tick();
  h.handle.close();
  await tick();
  assert.equal(stream.aborted, true);
  assert.deepEqual(h.statuses.at(-1), { state: "closed", reason: "stopped" });
  const count = h.statuses.length;
  h.handle.close();
  await tick();
  assert.equal(h.statuses.length, count, "close is idempotent and nothing follows it");
  assert.equal(h.timers.length, 0);
});
