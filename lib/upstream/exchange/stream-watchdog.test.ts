import { test } from "node:test";
import assert from "node:assert/strict";
import { streamCutError, streamLimitsFor, watchExchange, type Expiry, type Timers } from "./stream-watchdog.ts";

/** A fake clock: timers fire when `advance` passes their due time (a unit test may fake time, never the protocol). */
function fakeClock() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { due: number; run: () => void }>();
  const timers: Timers = {
    set: (run, ms) => {
      pending.set(++nextId, { due: now + ms, run });
      return nextId;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = [...pending.entries()].filter(([, t]) => t.due <= until).sort((a, b) => a[1].due - b[1].due)[0];
      if (!next) break;
      pending.delete(next[0]);
      now = next[1].due;
      next[1].run();
    }
    now = until;
  };
  return { timers, advance, pending: () => pending.size };
}

const cfg = { streamIdleMs: 1_000, streamMaxMs: 10_000, listenMaxMs: 60_000 };

function watch(stream = true) {
  const clock = fakeClock();
  const fired: Expiry[] = [];
  const dog = watchExchange({
    timeoutMs: 3_000,
    stream: stream ? streamLimitsFor("tools/call", cfg) : undefined,
    onExpire: (e) => fired.push(e),
    timers: clock.timers,
  });
  return { clock, fired, dog };
}

test("before the stream opens, the request timeout applies", () => {
  const { clock, fired } = watch();
  clock.advance(2_999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ["request"]);
});

test("a stream that keeps sending outlives the request timeout and is bounded by its maximum", () => {
  const { clock, fired, dog } = watch();
  clock.advance(500);
  dog.streamOpened();
  for (let t = 0; t < 9_900; t += 900) {
    clock.advance(900);
    dog.activity();
  }
  assert.deepEqual(fired, [], "well past the 3 s request timeout, still running");
  clock.advance(100);
  assert.deepEqual(fired, ["max"]);
  assert.equal(clock.pending(), 0, "nothing left armed");
});

test("a stream on which nothing arrives is cut after the idle limit, counted from the last byte", () => {
  const { clock, fired, dog } = watch();
  dog.streamOpened();
  clock.advance(800);
  dog.activity();
  clock.advance(999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ["idle"]);
});

test("without stream limits (list pages, connects) the request timeout bounds a streamed answer too", () => {
  const { clock, fired, dog } = watch(false);
  dog.streamOpened();
  clock.advance(2_000);
  dog.activity();
  clock.advance(1_000);
  assert.deepEqual(fired, ["request"]);
});

test("fires at most once, and never after stop", () => {
  const { clock, fired, dog } = watch();
  dog.streamOpened();
  clock.advance(1_000);
  dog.activity();
  clock.advance(60_000);
  assert.deepEqual(fired, ["idle"]);
  const second = watch();
  second.dog.stop();
  second.clock.advance(60_000);
  assert.deepEqual(second.fired, []);
});

test("the errors name the limit, its setting and what to do", () => {
  const idle = streamCutError("idle", streamLimitsFor("tools/call", cfg));
  assert.equal(idle.kind, "upstream-timeout");
  assert.match(
    idle.message,
    /The streamed response went silent: nothing arrived \(no event, no keep-alive comment\) for 1000 ms \(TOOLSCOPE_STREAM_IDLE_MS\)/,
  );
  assert.match(idle.hint ?? "", /keep-alive/);
  const max = streamCutError("max", streamLimitsFor("subscriptions/listen", cfg));
  assert.equal(max.message, "The subscriptions/listen stream reached its longest allowed duration (60000 ms, TOOLSCOPE_LISTEN_MAX_MS).");
  assert.match(streamCutError("max", streamLimitsFor("tools/call", cfg)).message, /TOOLSCOPE_STREAM_MAX_MS/);
});

test("hold: the request timeout does not run while a person is asked; on release it starts over", () => {
  const { clock, fired, dog } = watch();
  clock.advance(2_000);
  const release = dog.hold();
  clock.advance(10_000);
  assert.deepEqual(fired, [], "held well past the 3 s request timeout");
  release();
  clock.advance(2_999);
  assert.deepEqual(fired, [], "a full request timeout again, counted from the release");
  clock.advance(1);
  assert.deepEqual(fired, ["request"]);
});

test("hold: the idle limit does not run while held, not even on activity; on release it starts over; the maximum keeps running", () => {
  const { clock, fired, dog } = watch();
  dog.streamOpened();
  clock.advance(500);
  const release = dog.hold();
  clock.advance(5_000);
  dog.activity(); // bytes while held do not re-arm the idle limit
  clock.advance(3_000);
  assert.deepEqual(fired, [], "8.5 s without the idle limit (1 s)");
  release();
  clock.advance(999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ["idle"], "the idle limit, counted from the release");

  const second = watch();
  second.dog.streamOpened();
  second.dog.hold();
  second.clock.advance(9_999);
  assert.deepEqual(second.fired, []);
  second.clock.advance(1);
  assert.deepEqual(second.fired, ["max"], "the stream maximum bounds the whole call, held or not");
  assert.equal(second.clock.pending(), 0, "nothing left armed");
});

test("hold: a stream opening while held arms only the maximum; the idle limit waits for the release", () => {
  const { clock, fired, dog } = watch();
  const release = dog.hold();
  dog.streamOpened();
  clock.advance(5_000);
  assert.deepEqual(fired, [], "neither the request timeout nor the idle limit ran");
  release();
  clock.advance(1_000);
  assert.deepEqual(fired, ["idle"], "after the release the stream's idle limit applies, not the request timeout");
});

test("hold: several holds keep the limits off until the last is released; a second release of the same hold is harmless", () => {
  const { clock, fired, dog } = watch();
  const first = dog.hold();
  const second = dog.hold();
  first();
  first(); // must not count as releasing `second`
  clock.advance(10_000);
  assert.deepEqual(fired, [], "still held by the second");
  second();
  second();
  clock.advance(2_999);
  assert.deepEqual(fired, []);
  clock.advance(1);
  assert.deepEqual(fired, ["request"], "fires once");
  clock.advance(10_000);
  assert.deepEqual(fired, ["request"]);
  assert.equal(clock.pending(), 0, "a double release armed nothing extra");
});

test("hold: after stop neither hold nor release arms anything", () => {
  const { clock, fired, dog } = watch();
  const release = dog.hold();
  dog.stop();
  release();
  const late = dog.hold();
  late();
  assert.equal(clock.pending(), 0);
  clock.advance(60_000);
  assert.deepEqual(fired, []);
});
