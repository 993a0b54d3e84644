import { test } from "node:test";
import assert from "node:assert/strict";
import {
  buildRetryMessage,
  canonicalJson,
  elicitResult,
  isLoop,
  MAX_MRTR_ROUNDS,
  nextStep,
  parseInputRequests,
  parseRootLines,
  retryId,
  rootsResult,
  samplingPrompt,
  samplingResult,
  type RoundRecord,
} from "./mrtr.ts";

const CALL = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "purge_closed_issues", arguments: {} } };
const STATE = "eyJhbGciOi+/=\u00e9 opaque"; // odd characters on purpose: echoed byte for byte

const INPUT_REQUESTS = {
  confirm: {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Delete 3?",
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
    },
  },
  login: {
    method: "elicitation/create",
    params: { mode: "url", message: "Connect GitHub", url: "https://example.com/connect", elicitationId: "e1" },
  },
  capital: {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 10 },
  },
  where: { method: "roots/list" },
  legacyForm: { method: "elicitation/create", params: { message: "no mode", requestedSchema: { type: "object", properties: {} } } },
  weird: { method: "tasks/get", params: {} },
};

const inputRequired = (
  id: unknown,
  extra: Record<string, unknown> = { inputRequests: { confirm: INPUT_REQUESTS.confirm }, requestState: STATE },
) => ({
  jsonrpc: "2.0",
  id,
  result: { resultType: "input_required", ...extra },
});

test("parseInputRequests types each request by method and mode, keeping the server's keys", () => {
  const parsed = parseInputRequests(INPUT_REQUESTS);
  assert.deepEqual(
    parsed.map((r) => [r.key, r.kind]),
    [
      ["confirm", "elicit-form"],
      ["login", "elicit-url"],
      ["capital", "sampling"],
      ["where", "roots"],
      ["legacyForm", "elicit-form"],
      ["weird", "unknown"],
    ],
  );
  assert.equal((parsed[1] as { url: string }).url, "https://example.com/connect");
  assert.deepEqual(samplingPrompt((parsed[2] as { params: Record<string, unknown> }).params), [
    { role: "user", text: "Capital of France?" },
  ]);
});

test("buildRetryMessage: inputResponses keyed like the requests, requestState echoed exactly, fresh id, nothing else changed", () => {
  const answers = { confirm: elicitResult("accept", { confirm: true }) };
  const retry = buildRetryMessage(CALL, { inputResponses: answers, requestState: STATE, id: 8 });
  assert.deepEqual(retry, {
    jsonrpc: "2.0",
    id: 8,
    method: "tools/call",
    params: { name: "purge_closed_issues", arguments: {}, inputResponses: answers, requestState: STATE },
  });
  assert.equal((retry.params as { requestState: string }).requestState, STATE);
  assert.notEqual(retry.id, CALL.id);
  // The original is untouched, and a second round replaces (never merges) the earlier answers and state.
  assert.equal("inputResponses" in CALL.params, false);
  const third = buildRetryMessage(retry, { inputResponses: {}, id: 9 });
  assert.deepEqual(third.params, { name: "purge_closed_issues", arguments: {} });
});

test("retryId differs from the original and from every id used", () => {
  assert.equal(retryId(7, 2, new Set([7])), 8);
  assert.equal(retryId(7, 3, new Set([7, 8, 9])), 10);
  assert.equal(retryId("abc", 2, new Set(["abc"])), "abc-r2");
  assert.equal(retryId("abc", 2, new Set(["abc", "abc-r2"])), "abc-r2.2");
  assert.equal(retryId(undefined, 2, new Set()), "request-r2");
});

test("answer builders: ElicitResult, CreateMessageResult, ListRootsResult", () => {
  assert.deepEqual(elicitResult("decline"), { action: "decline" });
  assert.deepEqual(elicitResult("cancel", { x: 1 }), { action: "cancel" });
  assert.deepEqual(elicitResult("accept"), { action: "accept" });
  assert.deepEqual(samplingResult("Paris", "me"), {
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "me",
    stopReason: "endTurn",
  });
  assert.deepEqual(rootsResult([{ uri: "file:///a" }, { uri: "file:///b", name: "B" }]), {
    roots: [{ uri: "file:///a" }, { uri: "file:///b", name: "B" }],
  });
  const parsed = parseRootLines("file:///home/me/project My project\n\nhttps://x.y\nfile:///tmp");
  assert.deepEqual(parsed.roots, [{ uri: "file:///home/me/project", name: "My project" }, { uri: "file:///tmp" }]);
  assert.match(parsed.errors[0], /^Line 3: a root must be a file:\/\/ URI/);
});

test("nextStep: done on a final answer, ask on input_required, retry at once on requestState only", () => {
  assert.deepEqual(nextStep([{ message: CALL, response: { jsonrpc: "2.0", id: 7, result: { content: [] } } }]), { kind: "done" });
  assert.deepEqual(nextStep([{ message: CALL, response: { jsonrpc: "2.0", id: 7, error: { code: -32602, message: "x" } } }]), {
    kind: "done",
  });
  assert.deepEqual(nextStep([{ message: CALL, response: null }]), { kind: "done" });
  const ask = nextStep([{ message: CALL, response: inputRequired(7) }]);
  assert.equal(ask.kind, "ask");
  if (ask.kind === "ask") {
    assert.equal(ask.requestState, STATE);
    assert.equal(ask.requests[0].key, "confirm");
    assert.equal(ask.repeated, false);
  }
  assert.deepEqual(nextStep([{ message: CALL, response: inputRequired(7, { requestState: "s1" }) }]), {
    kind: "retry",
    requestState: "s1",
  });
  const bad = nextStep([{ message: CALL, response: inputRequired(7, {}) }]);
  assert.equal(bad.kind, "stop");
  assert.equal(nextStep([{ message: CALL, response: inputRequired(7, { requestState: 42 }) }]).kind, "stop");
});

test("nextStep stops at the round limit and on a loop; flags a repeated question", () => {
  const rounds: RoundRecord[] = [];
  for (let i = 0; i < MAX_MRTR_ROUNDS; i++) {
    const message = buildRetryMessage(CALL, {
      inputResponses: { confirm: elicitResult("accept", { confirm: i % 2 === 0 }) },
      requestState: `s${i}`,
      id: 7 + i,
    });
    rounds.push({
      message,
      response: inputRequired(7 + i, { inputRequests: { confirm: INPUT_REQUESTS.confirm }, requestState: `s${i + 1}` }),
    });
  }
  const atLimit = nextStep(rounds);
  assert.equal(atLimit.kind, "stop");
  assert.match((atLimit as { reason: string }).reason, /round limit 8/);
  const two = nextStep(rounds.slice(0, 2));
  assert.equal(two.kind, "ask");
  assert.equal((two as { repeated: boolean }).repeated, true);
  assert.equal(nextStep(rounds.slice(0, 3), 3).kind, "stop");

  // The same retry (ids aside) got the same answer: a loop.
  const retry = {
    message: buildRetryMessage(CALL, { inputResponses: {}, requestState: "same", id: 8 }),
    response: inputRequired(8, { requestState: "same" }),
  };
  const loop = [
    { message: CALL, response: inputRequired(7, { requestState: "same" }) },
    retry,
    { ...retry, message: { ...retry.message, id: 9 }, response: inputRequired(9, { requestState: "same" }) },
  ];
  assert.equal(isLoop(loop), true);
  assert.equal(nextStep(loop).kind, "stop");
  assert.equal(isLoop(loop.slice(0, 2)), false);
});

test("canonicalJson ignores key order", () => {
  assert.equal(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }), canonicalJson({ a: [{ c: 2, d: 1 }], b: 1 }));
});
