/**
 * Memory regression test for exchangeMessage: once an exchange is over, nothing of it may stay reachable.
 *
 * The bug this guards against: the exchange combined its own signal with the caller's through `AbortSignal.any` and
 * put an `abort` listener on the result. Node keeps such a composite signal in a process-wide strong set until the
 * listener is removed, and a successful exchange never removed it, so the listener's scope (the transport, the
 * options, the promise and with it the request's async context: in Next.js the request store and the response) was
 * kept for good: ~42 KB per /api/rpc call. The async-context store below stands in for Next's request store.
 *
 * Runs under the plain unit test command: `gc` is taken from V8 when the process was not started with --expose-gc.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { getEventListeners } from "node:events";
import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { exchangeMessage } from "./upstream-http.ts";
import type { Target } from "../egress/targets.ts";

const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  })();

/** Full collections until every given ref is cleared (or a few rounds passed); yields so finalizers and microtasks run. */
async function collect(refs: WeakRef<object>[]): Promise<void> {
  for (let round = 0; round < 10 && refs.some((r) => r.deref() !== undefined); round++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
}

type Answer = "json" | "sse" | "hang";

/** An in-process MCP endpoint (like the builtin demo target): answers the POST as JSON, as an event stream, or never. */
function inProcessTarget(answer: Answer): Target {
  const url = new URL("http://mcp.invalid/mcp");
  const fetchFn = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    if ((init?.method ?? "GET") !== "POST") return new Response(null, { status: 405 });
    const { id } = JSON.parse(String(init?.body)) as { id: unknown };
    const reply = JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "ok" }] } });
    if (answer === "json") return new Response(reply, { headers: { "content-type": "application/json" } });
    if (answer === "sse") return new Response(`event: message\ndata: ${reply}\n\n`, { headers: { "content-type": "text/event-stream" } });
    const signal = init?.signal;
    return new Promise<Response>((_, reject) => signal?.addEventListener("abort", () => reject(signal.reason), { once: true }));
  }) as typeof fetch;
  return { url, fetch: fetchFn, displayUrl: url.toString() };
}

/**
 * Aborts the caller later, from a scope that holds nothing else: the abort reason's stack trace keeps the timer
 * callback (and so its scope) alive as long as the caller's signal lives, and the timer the async context it was set in.
 */
function abortLater(caller: AbortController, ms: number): void {
  setTimeout(() => caller.abort(), ms);
}

/**
 * Runs one exchange inside an async context whose store holds a large buffer, with a caller signal that lives on
 * (like the browser request's, which may be kept by the framework), and returns weak refs to what must be freed.
 */
async function oneExchange(answer: Answer, caller: AbortController, opts: { abortAfterMs?: number } = {}) {
  const als = new AsyncLocalStorage<{ payload: number[] }>();
  // On the JS heap (a typed array's bytes would be external memory, which heapUsed does not count): 512 KB.
  const store = { payload: new Array<number>(64 * 1024).fill(0.5) };
  const target = inProcessTarget(answer);
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_issues", arguments: { query: "login" } } };
  const refs = [new WeakRef(store), new WeakRef(target), new WeakRef(message)];
  if (opts.abortAfterMs !== undefined) abortLater(caller, opts.abortAfterMs);
  const outcome = await als.run(store, async () => {
    try {
      const result = await exchangeMessage({
        target,
        descriptor: { era: "modern", protocolVersion: "2026-07-28" },
        message,
        userHeaders: {},
        timeoutMs: 5_000,
        maxBodyBytes: 1_000_000,
        signal: caller.signal,
      });
      return (result.response?.result as { content: { text: string }[] }).content[0]?.text;
    } catch (err) {
      return `failed: ${(err as Error).message}`;
    }
  });
  return { refs, outcome };
}

for (const answer of ["json", "sse"] as const) {
  test(`an exchange answered as ${answer} leaves nothing attached to the caller's signal and nothing reachable`, async () => {
    const caller = new AbortController();
    const { refs, outcome } = await oneExchange(answer, caller);
    assert.equal(outcome, "ok");
    assert.equal(getEventListeners(caller.signal, "abort").length, 0, "no listener left on the caller's signal");
    await collect(refs);
    assert.deepEqual(
      refs.map((r) => r.deref() !== undefined),
      [false, false, false],
      "the request's async-context store, the target and the message are collectable after the exchange",
    );
  });
}

test("an exchange the caller cancels fails as cancelled and is released too", async () => {
  const caller = new AbortController();
  const { refs, outcome } = await oneExchange("hang", caller, { abortAfterMs: 20 });
  assert.match(outcome ?? "", /cancelled/);
  await collect(refs);
  assert.deepEqual(
    refs.map((r) => r.deref() !== undefined),
    [false, false, false],
  );
});

test("many exchanges on one long-lived caller signal do not accumulate (heap after GC stays flat)", async () => {
  const caller = new AbortController();
  const heapAfterGc = async () => {
    await collect([new WeakRef({})]);
    gc();
    return process.memoryUsage().heapUsed;
  };
  // Warm up (compiled code, SDK caches), then measure 200 exchanges; each leaked one would keep its 512 KB store.
  for (let i = 0; i < 20; i++) await oneExchange("json", caller);
  const before = await heapAfterGc();
  for (let i = 0; i < 200; i++) await oneExchange(i % 2 ? "json" : "sse", caller);
  const grownMb = ((await heapAfterGc()) - before) / 1e6;
  assert.ok(grownMb < 5, `heap after GC grew ${grownMb.toFixed(1)} MB over 200 exchanges`);
  assert.equal(getEventListeners(caller.signal, "abort").length, 0);
});
