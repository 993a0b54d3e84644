import { test } from "node:test";
import assert from "node:assert/strict";
import { elicitResult, rootsResult, samplingResult } from "./mrtr.ts";
import {
  answerFailedNotice,
  answerRequest,
  answerResponse,
  answerSummary,
  cancelledLocally,
  countdownText,
  endedNotice,
  enqueueAsk,
  formatDuration,
  removeAsk,
  requestMethod,
  requestTiming,
  toServerAsk,
  USER_DECLINED_ERROR,
  type ServerRequestEvent,
} from "./server-requests.ts";

const FORM = {
  jsonrpc: "2.0",
  id: 0,
  method: "elicitation/create",
  params: { message: "Who are you?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};
const event = (pendingId: string, request: Record<string, unknown>, timeoutMs = 3000): ServerRequestEvent => ({
  type: "server-request",
  streamId: "s1",
  pendingId,
  request,
  timeoutMs,
});

test("toServerAsk reads the request with the MRTR parser, keyed by the pending id, and sets the deadline", () => {
  const ask = toServerAsk(event("p1", FORM), 1_000);
  assert.equal(ask.method, "elicitation/create");
  assert.deepEqual(ask.input, { key: "p1", kind: "elicit-form", message: "Who are you?", requestedSchema: FORM.params.requestedSchema });
  assert.equal(ask.deadline, 4_000);
  assert.equal(ask.streamId, "s1");
  assert.equal(toServerAsk(event("p2", { jsonrpc: "2.0", id: 1, method: "roots/list" }), 0).input.kind, "roots");
  assert.equal(
    toServerAsk(event("p3", { jsonrpc: "2.0", id: 2, method: "sampling/createMessage", params: { messages: [] } }), 0).input.kind,
    "sampling",
  );
  assert.equal(
    toServerAsk(
      event("p4", {
        jsonrpc: "2.0",
        id: 3,
        method: "elicitation/create",
        params: { mode: "url", message: "Log in", url: "https://example.com/x", elicitationId: "e" },
      }),
      0,
    ).input.kind,
    "elicit-url",
  );
  // A nonsensical timeout does not make a deadline in the past or NaN.
  assert.equal(toServerAsk(event("p5", FORM, Number.NaN), 10).deadline, 10);
});

test("the queue keeps arrival order, ignores a repeated announcement and removes by pending id", () => {
  const a = toServerAsk(event("a", FORM), 0);
  const b = toServerAsk(event("b", { method: "roots/list" }), 0);
  let q = enqueueAsk(enqueueAsk([], a), b);
  assert.deepEqual(
    q.map((x) => x.pendingId),
    ["a", "b"],
  );
  q = enqueueAsk(q, a);
  assert.equal(q.length, 2);
  const { queue, removed } = removeAsk(q, "a");
  assert.deepEqual(
    queue.map((x) => x.pendingId),
    ["b"],
  );
  assert.equal(removed?.pendingId, "a");
  assert.equal(removeAsk(queue, "zzz").removed, undefined);
});

test("answers: the results built by mrtr.ts, an error -1 when left unanswered, -32601 / -32602 when the playground cannot answer", () => {
  const form = toServerAsk(event("p1", FORM), 0);
  assert.deepEqual(answerRequest(form, elicitResult("accept", { name: "Ada" })), {
    streamId: "s1",
    pendingId: "p1",
    response: { result: { action: "accept", content: { name: "Ada" } } },
  });
  assert.deepEqual(answerResponse(form, elicitResult("decline")), { result: { action: "decline" } });
  assert.deepEqual(answerResponse(form, elicitResult("cancel")), { result: { action: "cancel" } });
  const sampling = toServerAsk(event("p2", { method: "sampling/createMessage", params: { messages: [] } }), 0);
  assert.deepEqual(answerResponse(sampling, samplingResult("Paris")), {
    result: { role: "assistant", content: { type: "text", text: "Paris" }, model: "toolscope-human", stopReason: "endTurn" },
  });
  assert.deepEqual(answerResponse(sampling, null), { error: { code: -1, message: "The user declined to answer" } });
  assert.deepEqual(USER_DECLINED_ERROR, { code: -1, message: "The user declined to answer" });
  const roots = toServerAsk(event("p3", { method: "roots/list" }), 0);
  assert.deepEqual(answerResponse(roots, rootsResult([{ uri: "file:///tmp/a", name: "A" }])), {
    result: { roots: [{ uri: "file:///tmp/a", name: "A" }] },
  });
  const unknown = toServerAsk(event("p4", { method: "tasks/get", params: {} }), 0);
  assert.equal((answerResponse(unknown, null) as { error: { code: number } }).error.code, -32601);
  // Even a result the UI might pass for an unknown request is not sent: the playground cannot answer that method.
  assert.equal((answerResponse(unknown, { whatever: 1 }) as { error: { code: number } }).error.code, -32601);
  const badUrl = toServerAsk(event("p5", { method: "elicitation/create", params: { mode: "url", message: "x" } }), 0);
  assert.deepEqual(answerResponse(badUrl, null), { error: { code: -32602, message: "Invalid params: a URL elicitation without a url" } });
});

test("endedNotice: timed out, withdrawn, answered by the proxy or elsewhere; nothing for a request no longer waiting here", () => {
  const ask = { method: "elicitation/create", timeoutMs: 3000 };
  assert.equal(
    endedNotice({ answeredBy: "timeout", note: "No answer within 3 s: the server got a JSON-RPC error instead." }, ask),
    "The server's request (elicitation/create) timed out after 3 s; the server got an error.",
  );
  assert.match(endedNotice({ answeredBy: "timeout" }, { method: "roots/list", timeoutMs: 300_000 })!, /timed out after 5 min;/);
  assert.match(
    endedNotice({ answeredBy: "cancelled", note: "The stream closed." }, ask)!,
    /^The call ended before you answered the server's elicitation\/create request; it was withdrawn\. The stream closed\.$/,
  );
  assert.match(endedNotice({ answeredBy: "proxy" }, ask)!, /^Toolscope answered/);
  assert.match(endedNotice({ answeredBy: "user" }, ask)!, /answered from elsewhere/);
  assert.equal(endedNotice({ answeredBy: "timeout" }, undefined), undefined);
});

test("answerFailedNotice: too late (404) or not delivered", () => {
  assert.match(answerFailedNotice("roots/list", { status: 404, body: { kind: "not-found", message: "No such request" } }), /came too late/);
  assert.match(
    answerFailedNotice("roots/list", { status: 0, body: { kind: "internal", message: "Toolscope's server could not be reached." } }),
    /could not be delivered: Toolscope's server could not be reached\./,
  );
});

test("durations and the countdown", () => {
  assert.equal(formatDuration(450), "450 ms");
  assert.equal(formatDuration(1500), "1.5 s");
  assert.equal(formatDuration(3000), "3 s");
  assert.equal(formatDuration(42_400), "42 s");
  assert.equal(formatDuration(120_000), "2 min");
  assert.equal(formatDuration(150_000), "2 min 30 s");
  assert.equal(formatDuration(-5), "0 s");
  assert.equal(countdownText(2_100), "3 s");
  assert.equal(countdownText(299_500), "5:00");
  assert.equal(countdownText(65_000), "1:05");
  assert.equal(countdownText(-1), "0 s");
});

test("answerSummary and requestTiming, for the result view", () => {
  assert.equal(
    answerSummary({ jsonrpc: "2.0", id: 0, result: { action: "accept", content: { name: "Ada", check: true } } }),
    "accept (2 fields)",
  );
  assert.equal(answerSummary({ result: { action: "decline" } }), "decline");
  assert.equal(answerSummary({ result: rootsResult([{ uri: "file:///a" }]) }), "1 root");
  assert.equal(answerSummary({ result: samplingResult("hi") }), "reply as toolscope-human");
  assert.equal(answerSummary({ result: {} }), "empty result");
  assert.equal(answerSummary({ error: { code: -1, message: "The user declined to answer" } }), "error -1: The user declined to answer");
  assert.equal(answerSummary({}), "no answer");
  assert.equal(requestTiming({ atMs: 120, answeredAtMs: 3320 }), "at 120 ms, answered 3.2 s later");
  assert.equal(requestMethod({ method: "ping" }), "ping");
  assert.equal(requestMethod(null), "?");
});

test("cancelledLocally says why the exchanges are missing", () => {
  assert.equal(cancelledLocally("before-stream").kind, "bad-request");
  assert.match(cancelledLocally("no-confirmation").message, /did not confirm within 3 s/);
});
