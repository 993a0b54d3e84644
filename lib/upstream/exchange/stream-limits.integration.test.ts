/**
 * The stream limits against a real SDK server over real HTTP (playwright/fixtures/misbehaving-server.ts, `/stalling`):
 * a call that keeps sending progress outlives the request timeout; one whose stream goes silent is cut by the idle
 * limit, with the error naming TOOLSCOPE_STREAM_IDLE_MS; a call without stream limits keeps the plain request timeout.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor } from "@/lib/mcp/contract";
import { stampMessage } from "@/lib/mcp/meta";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { createStallingMcpHandler } from "../../../playwright/fixtures/misbehaving-server.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { streamLimitsFor, type StreamLimits } from "./stream-watchdog.ts";
import { ExchangeFailure } from "./exchange-core.ts";
import { exchangeMessage } from "../transports/upstream-http.ts";

const MODERN: Pick<ConnectionDescriptor, "era" | "protocolVersion"> = { era: "modern", protocolVersion: "2026-07-28" };
const LIMITS = streamLimitsFor("tools/call", { streamIdleMs: 1_200, streamMaxMs: 10_000, listenMaxMs: 10_000 });

let served: ServedHandler;
const handler = createStallingMcpHandler();
before(async () => {
  served = await serveFetchHandler(handler);
  // The first request loads and compiles the SDK server's code: not part of any timing below.
  await send(call("tick", { count: 1, interval_ms: 1 }), undefined, 30_000);
});
after(async () => {
  await served.close();
  await handler.close();
});

function call(name: string, args: Record<string, unknown>) {
  return stampMessage(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, _meta: { progressToken: "p1" } } },
    "modern",
    () => 1,
  ).message;
}

/** The request timeout is 2 s: every call below that answers or is cut later shows which limit applied. */
function send(message: Record<string, unknown>, stream: StreamLimits | undefined, timeoutMs = 2_000) {
  return exchangeMessage({
    target: { url: served.url, displayUrl: served.url.href, fetch },
    descriptor: MODERN,
    message,
    userHeaders: {},
    timeoutMs,
    stream,
    maxBodyBytes: 1_000_000,
  });
}

const cutBy = (setting: string) => (err: unknown) =>
  err instanceof ExchangeFailure &&
  err.cause instanceof ProxyError &&
  err.cause.kind === "upstream-timeout" &&
  err.cause.message.includes(setting);

test("a call that sends progress every 500 ms runs past the 2 s request timeout and answers", async () => {
  const started = performance.now();
  const result = await send(call("tick", { count: 7, interval_ms: 500 }), LIMITS);
  assert.ok(performance.now() - started > 3_500);
  assert.equal(result.notifications.filter((n) => n.method === "notifications/progress").length, 7);
  assert.deepEqual((result.response?.result as { content: unknown[] }).content, [{ type: "text", text: "ticked 7 times" }]);
});

test("a call whose stream goes silent after its first event is cut after TOOLSCOPE_STREAM_IDLE_MS, with the exchange recorded", async () => {
  const started = performance.now();
  let failure: unknown;
  await assert.rejects(
    send(call("stall", {}), LIMITS).catch((err: unknown) => {
      failure = err;
      throw err;
    }),
    cutBy("TOOLSCOPE_STREAM_IDLE_MS"),
  );
  const took = performance.now() - started;
  assert.ok(took >= 1_200 && took < 6_000, `cut after ${took} ms`);
  assert.match(
    (failure as ExchangeFailure).cause instanceof ProxyError ? ((failure as ExchangeFailure).cause as ProxyError).message : "",
    /went silent/,
  );
  assert.equal((failure as ExchangeFailure).exchanges[0]?.response?.status, 200);
});

test("a progress gap longer than the idle limit cuts the call even though it was talking before", async () => {
  await assert.rejects(send(call("tick", { count: 3, interval_ms: 1_800 }), LIMITS), cutBy("TOOLSCOPE_STREAM_IDLE_MS"));
});

test("the stream maximum bounds a call that keeps talking", async () => {
  const short = { ...LIMITS, maxMs: 1_000 };
  await assert.rejects(send(call("tick", { count: 40, interval_ms: 100 }), short), cutBy("TOOLSCOPE_STREAM_MAX_MS"));
});

test("without stream limits, the request timeout bounds the streamed answer as a whole", async () => {
  await assert.rejects(
    send(call("tick", { count: 7, interval_ms: 500 }), undefined),
    (err: unknown) => err instanceof ExchangeFailure && (err.cause as ProxyError).message === "No response within 2000 ms.",
  );
});
