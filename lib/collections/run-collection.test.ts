import { test } from "node:test";
import assert from "node:assert/strict";
import { runCollection } from "./run-collection.ts";
import type { Collection, CollectionCall } from "./format.ts";
import type { Sender } from "./sender.ts";

/** A fake server: `echo` answers its arguments as text JSON; `slow` never answers; `confirm` asks for input (MRTR). */
function fakeServer() {
  const sent: Record<string, unknown>[] = [];
  const send: Sender = async (message) => {
    sent.push(message);
    const params = (message.params ?? {}) as Record<string, unknown>;
    const reply = (result: unknown) => ({ response: { jsonrpc: "2.0", id: message.id, result }, durationMs: 5 });
    if (message.method === "tools/list") return reply({ tools: [{ name: "echo", inputSchema: { type: "object" } }] });
    if (params.name === "slow") return new Promise(() => undefined);
    if (params.name === "confirm") {
      const answer = (params.inputResponses as Record<string, { action?: string }> | undefined)?.ok;
      if (answer && params.requestState === "s1") return reply({ content: [{ type: "text", text: `action: ${answer.action}` }] });
      return reply({
        resultType: "input_required",
        inputRequests: {
          ok: { method: "elicitation/create", params: { mode: "form", message: "Sure?", requestedSchema: { type: "object" } } },
        },
        requestState: "s1",
      });
    }
    return reply({ content: [{ type: "text", text: JSON.stringify(params.arguments ?? {}) }] });
  };
  return { send, sent };
}

const call = (name: string, args: Record<string, unknown>, rest: Partial<CollectionCall> = {}): CollectionCall => ({
  name,
  request: { method: "tools/call", params: { name: rest.name ?? "echo", arguments: args } },
  expect: [{ kind: "no-error" }],
  ...rest,
});

const collection = (calls: CollectionCall[]): Collection => ({
  format: "toolscope.collection/1",
  name: "c",
  environment: { variables: { greeting: "hi" } },
  calls,
});

test("captures feed later calls with their type; expectations use variables too", async () => {
  const { send, sent } = fakeServer();
  const report = await runCollection(
    collection([
      call("make", { id: 7, greeting: "{{greeting}}" }, { capture: { id: "/result/content/0/text/id" } }),
      {
        ...call("use", { issue_id: "{{id}}", label: "#{{id}}" }),
        expect: [{ kind: "equals", pointer: "/result/content/0/text/issue_id", value: "{{id}}" }],
      },
    ]),
    { send },
  );
  assert.deepEqual(
    report.calls.map((c) => c.status),
    ["passed", "passed"],
    JSON.stringify(report.calls, null, 1),
  );
  assert.deepEqual((sent[1].params as { arguments: unknown }).arguments, { issue_id: 7, label: "#7" });
  assert.deepEqual(report.calls[0].captured, { id: 7 });
  assert.equal(sent[0].jsonrpc, "2.0");
  assert.equal(sent[0].id, 1, "an id is assigned when the file gives none");
  assert.deepEqual(report.summary, { ...report.summary, total: 2, passed: 2, failed: 0, errors: 0, skipped: 0 });
});

test("a variable used before it is set stops that call, not the run", async () => {
  const { send, sent } = fakeServer();
  const report = await runCollection(
    collection([
      call("uses", { id: "{{id}}" }),
      call("sets", { id: 1 }, { capture: { id: "/result/content/0/text/id" } }),
      call("unknown", { x: "{{nope}}" }),
      call("fine", {}),
    ]),
    { send },
  );
  assert.deepEqual(
    report.calls.map((c) => c.status),
    ["error", "passed", "error", "passed"],
  );
  assert.equal(report.calls[0].error, 'variable used before it is set: {{id}} is captured by "sets", after this one');
  assert.match(report.calls[2].error!, /\{\{nope\}\} is not set by the environment or by any call's capture/);
  assert.equal(sent.length, 2, "the calls in error were never sent");
});

test("grep picks calls and names the call a variable would have come from; bail skips the rest", async () => {
  const { send } = fakeServer();
  const calls = [
    call("make", { id: 1 }, { capture: { id: "/result/content/0/text/id" } }),
    call("use", { id: "{{id}}" }),
    call("other", {}),
  ];
  const grep = await runCollection(collection(calls), { send, grep: /use|other/ });
  assert.deepEqual(
    grep.calls.map((c) => c.name),
    ["use", "other"],
  );
  assert.match(grep.calls[0].error!, /captured by "make", left out by the grep filter/);

  const failing = [{ ...call("first", {}), expect: [{ kind: "is-error" as const, value: true }] }, call("second", {})];
  const bail = await runCollection(collection(failing), { send, bail: true });
  assert.deepEqual(
    bail.calls.map((c) => c.status),
    ["failed", "skipped"],
  );
  assert.match(bail.calls[1].error!, /not run: --bail after "first" failed/);
  assert.match(bail.calls[0].expectations[0].message, /isError is false/);
});

test("a call's timeout ends that call as an error; a failed capture fails its call", async () => {
  const { send } = fakeServer();
  const report = await runCollection(
    collection([call("slow", {}, { name: "slow", timeoutMs: 50 }), call("capture", {}, { capture: { id: "/result/nope" } })]),
    { send },
  );
  assert.equal(report.calls[0].status, "error");
  assert.equal(report.calls[0].error, "timed out after 50 ms");
  assert.equal(report.calls[1].status, "failed");
  assert.deepEqual(report.calls[1].expectations.at(-1), {
    kind: "capture",
    label: "capture id from /result/nope",
    pass: false,
    message: "nothing at /result/nope",
  });
});

test("MRTR: answered from the call's answers (by key or method) with requestState echoed; else 'needs input'", async () => {
  const { send, sent } = fakeServer();
  const answered = { ...call("confirm", {}, { name: "confirm", answers: { ok: { action: "accept", content: {} } } }) };
  const byMethod = { ...call("by method", {}, { name: "confirm", answers: { "elicitation/create": { action: "decline" } } }) };
  const report = await runCollection(collection([answered, byMethod, call("unanswered", {}, { name: "confirm" })]), { send });
  assert.deepEqual(
    report.calls.map((c) => c.status),
    ["passed", "passed", "error"],
  );
  assert.equal((report.calls[0].response as { result: { content: { text: string }[] } }).result.content[0].text, "action: accept");
  assert.equal((report.calls[1].response as { result: { content: { text: string }[] } }).result.content[0].text, "action: decline");
  const retry = sent[1].params as Record<string, unknown>;
  assert.equal(retry.requestState, "s1");
  assert.notEqual(sent[1].id, sent[0].id, "the retry has a fresh id");
  assert.equal(report.calls[2].error, "needs input: ok");
});

test("tools/list is fetched once per run, only when an expectation needs it", async () => {
  const { send, sent } = fakeServer();
  const listed = { ...call("a", {}), expect: [{ kind: "tool-listed" as const, tool: "echo" }] };
  const report = await runCollection(collection([listed, { ...listed, name: "b" }, call("c", {})]), { send });
  assert.deepEqual(
    report.calls.map((c) => c.status),
    ["passed", "passed", "passed"],
  );
  assert.equal(sent.filter((m) => m.method === "tools/list").length, 1);
  const none = fakeServer();
  await runCollection(collection([call("c", {})]), { send: none.send });
  assert.equal(none.sent.filter((m) => m.method === "tools/list").length, 0);
});

/** A call to the fake server's `confirm` tool under its own name. */
const asks = (name: string): CollectionCall => ({
  ...call(name, {}),
  request: { method: "tools/call", params: { name: "confirm", arguments: {} } },
});

test("MRTR input no prepared answer covers goes to `ask` (the playground's person); null stops that call only", async () => {
  const { send } = fakeServer();
  const asked: string[] = [];
  const answers = [{ ok: { action: "accept", content: {} } }, null];
  const report = await runCollection(collection([asks("first"), asks("second"), call("third", {})]), {
    send,
    ask: (c) => async (requests) => {
      asked.push(`${c.name}: ${requests.map((r) => `${r.key} (${r.kind})`).join(", ")}`);
      return answers.shift() ?? null;
    },
  });
  assert.deepEqual(asked, ["first: ok (elicit-form)", "second: ok (elicit-form)"]);
  assert.deepEqual(
    report.calls.map((c) => c.status),
    ["passed", "error", "passed"],
  );
  assert.equal((report.calls[0].response as { result: { content: { text: string }[] } }).result.content[0].text, "action: accept");
  assert.equal(report.calls[1].error, "needs input: ok (not answered)");
});
