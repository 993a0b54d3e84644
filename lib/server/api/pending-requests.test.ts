import { test } from "node:test";
import assert from "node:assert/strict";
import type { RpcStreamEvent } from "@/lib/mcp/contract";
import { PendingCalls, type PendingLimits } from "./pending-requests.ts";
import { ProxyError } from "../../upstream/errors/proxy-error.ts";
import { NO_ANSWER, type AskOutcome } from "../../upstream/exchange/server-request-asker.ts";

/** Injectable timers that fire only when told (`fire`), so the timeout is tested without waiting for it. */
function fakeTimers() {
  let next = 0;
  const armed = new Map<number, { run: () => void; ms: number }>();
  return {
    timers: {
      set: (run: () => void, ms: number) => {
        armed.set(++next, { run, ms });
        return next;
      },
      clear: (handle: unknown) => void armed.delete(handle as number),
    },
    /** Timers armed and not cleared. */
    armed: () => [...armed.values()],
    /** Run every armed timer (as if their time had come). */
    fireAll: () => {
      const due = [...armed.entries()];
      armed.clear();
      for (const [, t] of due) t.run();
    },
  };
}

const LIMITS: PendingLimits = { timeoutMs: 120_000, maxPending: 10, maxPerStream: 3 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const elicit = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "elicitation/create",
  params: { message: "Name?", requestedSchema: { type: "object", properties: {} } },
});

function setup(limits: PendingLimits = LIMITS) {
  const clock = fakeTimers();
  const calls = new PendingCalls(limits, clock.timers);
  const events: RpcStreamEvent[] = [];
  let cancelled = 0;
  const call = calls.open(
    (e) => events.push(e),
    () => cancelled++,
  );
  const requests = () => events.filter((e): e is Extract<RpcStreamEvent, { type: "server-request" }> => e.type === "server-request");
  const ended = () =>
    events.filter((e): e is Extract<RpcStreamEvent, { type: "server-request-ended" }> => e.type === "server-request-ended");
  return { clock, calls, call, events, requests, ended, cancelled: () => cancelled };
}

/** Settled yet? (A pending promise stays pending across a macrotask turn.) */
async function settled<T>(p: Promise<T>): Promise<boolean> {
  const marker = Symbol("pending");
  return (await Promise.race([p, new Promise((r) => setImmediate(() => r(marker)))])) !== marker;
}

/** The ask's outcome, or a clear failure when it is still waiting (instead of a test that never ends). */
async function outcome(p: Promise<AskOutcome>, ms = 1_000): Promise<AskOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`the ask is still waiting after ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

function isError(outcome: AskOutcome): outcome is AskOutcome & { answer: { error: { code: number; message: string } } } {
  return "error" in outcome.answer;
}

test("an ask goes to the browser as a server-request event with unguessable ids and resolves with its answer", async () => {
  const { calls, call, requests, ended, events } = setup();
  assert.match(call.streamId, UUID, "the stream id is a random UUID");
  const request = elicit("srv-1");
  const asked = call.asker.ask(request, new AbortController().signal);
  assert.equal(await settled(asked), false, "waits for the person");
  const [event] = requests();
  assert.ok(event, "a server-request event was emitted");
  assert.equal(event.streamId, call.streamId);
  assert.match(event.pendingId, UUID, "the pending id is a random UUID");
  assert.notEqual(event.pendingId, call.streamId);
  assert.deepEqual(event.request, request);
  assert.equal(event.timeoutMs, LIMITS.timeoutMs);
  assert.equal(calls.pendingCount, 1);

  calls.answer(call.streamId, event.pendingId, { result: { action: "accept", content: { name: "Ada" } } });
  const answered = await outcome(asked);
  assert.deepEqual(answered, { answer: { result: { action: "accept", content: { name: "Ada" } } }, answeredBy: "user" });
  assert.deepEqual(ended(), [{ type: "server-request-ended", pendingId: event.pendingId, answeredBy: "user" }]);
  assert.equal(events.length, 2, "one event for the question, one for its end");
  assert.equal(calls.pendingCount, 0);
  // Answered once: a second answer finds nothing waiting.
  assert.throws(
    () => calls.answer(call.streamId, event.pendingId, { result: {} }),
    (err: unknown) => err instanceof ProxyError && err.kind === "not-found",
  );
  call.close();
});

test("two asks on one call get different pending ids, and each answer reaches its own", async () => {
  const { calls, call, requests } = setup();
  const a = call.asker.ask(elicit(1), new AbortController().signal);
  const b = call.asker.ask(elicit(2), new AbortController().signal);
  const [ea, eb] = requests();
  assert.notEqual(ea!.pendingId, eb!.pendingId);
  calls.answer(call.streamId, eb!.pendingId, { result: { which: "b" } });
  calls.answer(call.streamId, ea!.pendingId, { result: { which: "a" } });
  assert.deepEqual((await outcome(a)).answer, { result: { which: "a" } });
  assert.deepEqual((await outcome(b)).answer, { result: { which: "b" } });
  call.close();
});

test("an answer naming another stream, or an unknown pending id, is refused as not-found and leaves the question waiting", async () => {
  const { calls, call, requests } = setup();
  const other = calls.open(
    () => undefined,
    () => undefined,
  );
  const asked = call.asker.ask(elicit(), new AbortController().signal);
  const { pendingId } = requests()[0]!;
  const notFound = (err: unknown) => err instanceof ProxyError && err.kind === "not-found";
  assert.throws(() => calls.answer(other.streamId, pendingId, { result: {} }), notFound, "the right pending id on another stream");
  assert.throws(() => calls.answer("00000000-0000-4000-8000-000000000000", pendingId, { result: {} }), notFound, "an unknown stream");
  assert.throws(
    () => calls.answer(call.streamId, "00000000-0000-4000-8000-000000000000", { result: {} }),
    notFound,
    "an unknown pending id",
  );
  assert.equal(await settled(asked), false, "still waiting for the right answer");
  assert.equal(calls.pendingCount, 1);
  calls.answer(call.streamId, pendingId, { result: {} });
  assert.equal((await outcome(asked)).answeredBy, "user");
  call.close();
  other.close();
});

test("no answer within the timeout: the server gets an error naming TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS, the browser an event", async () => {
  const { clock, calls, call, requests, ended } = setup({ ...LIMITS, timeoutMs: 90_000 });
  const asked = call.asker.ask(elicit(), new AbortController().signal);
  assert.deepEqual(
    clock.armed().map((t) => t.ms),
    [90_000],
    "one timer, of the configured length",
  );
  clock.fireAll();
  const timedOut = await outcome(asked);
  assert.equal(timedOut.answeredBy, "timeout");
  assert.ok(isError(timedOut));
  assert.equal(timedOut.answer.error.code, NO_ANSWER);
  assert.match(timedOut.answer.error.message, /no answer within 90 s \(TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS\)/);
  const [end] = ended();
  assert.equal(end?.pendingId, requests()[0]!.pendingId);
  assert.equal(end?.answeredBy, "timeout");
  assert.match(end?.note ?? "", /TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS/);
  assert.equal(calls.pendingCount, 0);
  assert.throws(
    () => calls.answer(call.streamId, requests()[0]!.pendingId, { result: {} }),
    (err: unknown) => err instanceof ProxyError && err.kind === "not-found",
    "too late",
  );
  call.close();
});

test("an answer clears the timeout timer (nothing left armed)", async () => {
  const { clock, calls, call, requests } = setup();
  const asked = call.asker.ask(elicit(), new AbortController().signal);
  calls.answer(call.streamId, requests()[0]!.pendingId, { result: {} });
  await outcome(asked);
  assert.equal(clock.armed().length, 0);
  call.close();
});

test("the per-stream cap answers at once with an error naming TOOLSCOPE_MAX_PENDING_PER_STREAM, without an event", async () => {
  const { calls, call, requests } = setup({ ...LIMITS, maxPerStream: 2 });
  const signal = new AbortController().signal;
  const waiting = [call.asker.ask(elicit(1), signal), call.asker.ask(elicit(2), signal)];
  const third = await outcome(call.asker.ask(elicit(3), signal));
  assert.equal(third.answeredBy, "proxy");
  assert.ok(isError(third));
  assert.match(third.answer.error.message, /TOOLSCOPE_MAX_PENDING_PER_STREAM/);
  assert.equal(requests().length, 2, "the refused one never reached the browser");
  assert.equal(calls.pendingCount, 2);
  // Another call still has room: the cap is per stream.
  const other = calls.open(
    () => undefined,
    () => undefined,
  );
  const elsewhere = other.asker.ask(elicit(4), signal);
  assert.equal(await settled(elsewhere), false);
  call.close();
  other.close();
  await Promise.all([...waiting, elsewhere].map((p) => outcome(p)));
  assert.equal(calls.pendingCount, 0);
});

test("the per-process cap answers at once with an error naming TOOLSCOPE_MAX_PENDING_SERVER_REQUESTS", async () => {
  const { calls, call } = setup({ ...LIMITS, maxPending: 2, maxPerStream: 5 });
  const signal = new AbortController().signal;
  const other = calls.open(
    () => undefined,
    () => undefined,
  );
  const waiting = [call.asker.ask(elicit(1), signal), other.asker.ask(elicit(2), signal)];
  const refused = await outcome(call.asker.ask(elicit(3), signal));
  assert.equal(refused.answeredBy, "proxy");
  assert.ok(isError(refused));
  assert.match(refused.answer.error.message, /TOOLSCOPE_MAX_PENDING_SERVER_REQUESTS/);
  call.close();
  other.close();
  await Promise.all(waiting.map((p) => outcome(p)));
  assert.equal(calls.pendingCount, 0);
  // Room again once they ended.
  const again = calls.open(
    () => undefined,
    () => undefined,
  );
  const asked = again.asker.ask(elicit(4), signal);
  assert.equal(await settled(asked), false);
  again.close();
  assert.equal((await outcome(asked)).answeredBy, "cancelled");
});

test("aborting the exchange's signal settles the question as cancelled, with an event and no timer left", async () => {
  const { clock, calls, call, ended } = setup();
  const ctrl = new AbortController();
  const asked = call.asker.ask(elicit(), ctrl.signal);
  ctrl.abort();
  const cancelled = await outcome(asked);
  assert.equal(cancelled.answeredBy, "cancelled");
  assert.ok(isError(cancelled));
  assert.equal(cancelled.answer.error.code, NO_ANSWER);
  assert.equal(ended()[0]?.answeredBy, "cancelled");
  assert.equal(calls.pendingCount, 0);
  assert.equal(clock.armed().length, 0);
  // A signal already aborted never reaches the browser.
  const late = await outcome(call.asker.ask(elicit(2), ctrl.signal));
  assert.equal(late.answeredBy, "cancelled");
  assert.equal(calls.pendingCount, 0);
  call.close();
});

test("close() of the call settles every question still waiting as cancelled and forgets the call", async () => {
  const { calls, call, ended } = setup();
  const signal = new AbortController().signal;
  const asks = [call.asker.ask(elicit(1), signal), call.asker.ask(elicit(2), signal)];
  call.close();
  const outcomes = await Promise.all(asks.map((p) => outcome(p)));
  assert.deepEqual(
    outcomes.map((o) => o.answeredBy),
    ["cancelled", "cancelled"],
  );
  assert.equal(ended().length, 2);
  assert.ok(ended().every((e) => /ended before you answered/.test(e.note ?? "")));
  assert.equal(calls.pendingCount, 0);
  assert.equal(calls.callCount, 0);
  assert.equal(calls.holds(call.streamId), false);
  // A question after the call ended is answered at once.
  assert.equal((await outcome(call.asker.ask(elicit(3), signal))).answeredBy, "cancelled");
  assert.equal(calls.pendingCount, 0);
});

test("ping is answered at once by the proxy, without an event and without counting", async () => {
  const { calls, call, events, clock } = setup();
  const pong = await outcome(call.asker.ask({ jsonrpc: "2.0", id: 5, method: "ping" }, new AbortController().signal));
  assert.deepEqual(pong, { answer: { result: {} }, answeredBy: "proxy" });
  assert.equal(events.length, 0);
  assert.equal(calls.pendingCount, 0);
  assert.equal(clock.armed().length, 0);
  call.close();
});

test("cancel(streamId) calls the call's cancel; an unknown stream is not-found", () => {
  const { calls, call, cancelled } = setup();
  assert.equal(calls.holds(call.streamId), true);
  calls.cancel(call.streamId);
  assert.equal(cancelled(), 1);
  assert.throws(
    () => calls.cancel("00000000-0000-4000-8000-000000000000"),
    (err: unknown) => err instanceof ProxyError && err.kind === "not-found",
  );
  call.close();
  assert.throws(
    () => calls.cancel(call.streamId),
    (err: unknown) => err instanceof ProxyError && err.kind === "not-found",
    "a closed call cannot be cancelled",
  );
  assert.equal(cancelled(), 1);
});

test("no leak: after many calls answered, timed out, aborted and closed, the counts are back to 0 and no timer is armed", async () => {
  const clock = fakeTimers();
  const calls = new PendingCalls(LIMITS, clock.timers);
  for (let i = 0; i < 50; i++) {
    const events: RpcStreamEvent[] = [];
    const call = calls.open(
      (e) => events.push(e),
      () => undefined,
    );
    const ctrl = new AbortController();
    const answered = call.asker.ask(elicit(1), new AbortController().signal);
    const timedOut = call.asker.ask(elicit(2), new AbortController().signal);
    const aborted = call.asker.ask(elicit(3), ctrl.signal);
    const first = events.find((e) => e.type === "server-request");
    calls.answer(call.streamId, (first as { pendingId: string }).pendingId, { result: {} });
    ctrl.abort();
    clock.fireAll();
    assert.deepEqual(
      (await Promise.all([answered, timedOut, aborted].map((p) => outcome(p)))).map((o) => o.answeredBy),
      ["user", "timeout", "cancelled"],
    );
    const closed = call.asker.ask(elicit(4), new AbortController().signal);
    call.close();
    assert.equal((await outcome(closed)).answeredBy, "cancelled");
  }
  assert.equal(calls.pendingCount, 0);
  assert.equal(calls.callCount, 0);
  assert.equal(clock.armed().length, 0);
});

test("an answer from a collection's prepared answers is recorded as such, not as the person's", async () => {
  const { calls, call, requests, ended } = setup();
  const asked = call.asker.ask(elicit("srv-p"), new AbortController().signal);
  const [event] = requests();
  calls.answer(call.streamId, event.pendingId, { result: { action: "accept", content: {} } }, "prepared");
  assert.equal((await outcome(asked)).answeredBy, "prepared");
  assert.deepEqual(ended(), [{ type: "server-request-ended", pendingId: event.pendingId, answeredBy: "prepared" }]);
});
