/**
 * runExchange against real SDK servers (McpServer from @modelcontextprotocol/server, lib/upstream/testing/asks-server.ts)
 * over each transport the proxy speaks: Streamable HTTP (a 2025 session, with its GET stream), HTTP+SSE and stdio. The
 * server's tools ask the client mid-call (elicitation/create, sampling/createMessage, roots/list) and return what they
 * heard, so each test sees both sides: the exchange's record, and what reached the server.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConnectionDescriptor, RpcStreamEvent } from "@/lib/mcp/contract";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { config } from "../../server/platform/config.ts";
import { connectServer } from "../transports/connect.ts";
import { runExchange, type ExchangeOptions, type ExchangeResult } from "./exchange-core.ts";
import { PendingCalls } from "../../server/api/pending-requests.ts";
import { NO_ANSWER, unattendedAsker, type AnswerBody, type ServerRequestAsker } from "./server-request-asker.ts";
import { StdioRegistry, type StdioProcess } from "../transports/stdio-registry.ts";
import type { StreamLimits } from "./stream-watchdog.ts";
import type { Target } from "../egress/targets.ts";
import { asksHttpHandler, serveAsksSse } from "../testing/asks-server.ts";
import { httpChannel } from "../transports/upstream-http.ts";
import { withSseSession } from "../transports/sse-session.ts";
import { connectStdio } from "../transports/upstream-stdio.ts";

const MAX_BODY = 1_000_000;

/** What a person would answer, per method. */
const ANSWERS: Record<string, { result: Record<string, unknown> }> = {
  "elicitation/create": { result: { action: "accept", content: { name: "Ada" } } },
  "sampling/createMessage": { result: { role: "assistant", content: { type: "text", text: "Hello from the test" }, model: "test-model" } },
  "roots/list": { result: { roots: [{ uri: "file:///tmp/asks-root", name: "asks-root" }] } },
};
const TOOLS = [
  { tool: "ask-elicit", method: "elicitation/create" },
  { tool: "ask-sample", method: "sampling/createMessage" },
  { tool: "ask-roots", method: "roots/list" },
] as const;

/** An asker standing in for the browser: answers from ANSWERS after `delayMs`, and keeps what it was asked. */
function person(delayMs = 0): ServerRequestAsker & { asked: Record<string, unknown>[] } {
  const asked: Record<string, unknown>[] = [];
  return {
    asked,
    async ask(request) {
      asked.push(request);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const answer: AnswerBody = ANSWERS[String(request.method)] ?? { error: { code: -32601, message: "not in the test's answers" } };
      return { answer, answeredBy: "user" };
    },
  };
}

/** Poll until `find` returns something (at most `ms`). */
async function until<T>(find: () => T | undefined, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`not there within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let nextId = 0;
function call(tool: string, args: Record<string, unknown> = {}): Record<string, unknown> {
  return { jsonrpc: "2.0", id: `call-${++nextId}`, method: "tools/call", params: { name: tool, arguments: args } };
}
const call_ = call;

/** The tool's own account of what reached the server: `{ answer }` or `{ error }`. */
function heard(result: ExchangeResult): { answer?: Record<string, unknown>; error?: string } {
  const body = result.response?.result as { content?: { text?: string }[] } | undefined;
  assert.ok(body?.content?.[0]?.text, `a tool result: ${JSON.stringify(result.response)}`);
  return JSON.parse(body.content[0].text) as { answer?: Record<string, unknown>; error?: string };
}

type Run = Omit<ExchangeOptions, "open">;
interface TransportUnderTest {
  name: string;
  exchange(opts: Run): Promise<ExchangeResult>;
}

let http: ServedHandler;
let httpHandler: ReturnType<typeof asksHttpHandler>;
let httpTarget: Target;
let sse: { url: string; close(): Promise<void> };
let sseTarget: Target;
const registry = new StdioRegistry({ maxProcesses: 4, idleMs: 120_000, maxMessageBytes: MAX_BODY });
let stdioProc: StdioProcess;

before(async () => {
  httpHandler = asksHttpHandler();
  http = await serveFetchHandler(httpHandler);
  httpTarget = { url: http.url, displayUrl: http.url.toString(), fetch };

  sse = await serveAsksSse();
  sseTarget = { url: new URL(sse.url), displayUrl: sse.url, fetch };

  const dir = mkdtempSync(path.join(tmpdir(), "toolscope-exchange-core-"));
  const configPath = path.join(dir, "servers.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      mcpServers: {
        asks: {
          command: process.execPath,
          args: ["--import", "tsx", path.resolve("lib/upstream/testing/asks-server.ts"), "stdio"],
          cwd: process.cwd(),
        },
      },
    }),
  );
  const cfg = { ...config(), mode: "local" as const, stdioConfigPath: configPath, requestTimeoutMs: 30_000 };
  const stdio = await connectStdio({ url: "stdio:asks", era: "legacy", interactive: true }, cfg, registry);
  assert.equal(stdio.connection.era, "legacy");
  stdioProc = registry.get(stdio.connection.stdioId, "stdio:asks");
});

/** A fresh 2025 session, the way POST /api/connect makes it for the playground (interactive: the capabilities declared). */
async function httpSession(): Promise<ConnectionDescriptor> {
  const { connection } = await connectServer({
    target: httpTarget,
    url: http.url.toString(),
    era: "legacy",
    userHeaders: {},
    timeoutMs: 10_000,
    maxBodyBytes: MAX_BODY,
    interactive: true,
    retryHolds: false,
  });
  assert.equal(connection.era, "legacy");
  assert.ok(connection.sessionId, "a 2025 session");
  return connection;
}

/** One exchange on a session's channel, with its GET stream open (a person can answer), as a streamed /api/rpc runs it. */
function onSession(descriptor: ConnectionDescriptor, opts: Run): Promise<ExchangeResult> {
  return runExchange({
    ...opts,
    open: httpChannel({ target: httpTarget, descriptor, userHeaders: {}, maxBodyBytes: MAX_BODY, sessionStream: true }),
  });
}

after(async () => {
  await registry.stopAll();
  await httpHandler?.close();
  await http?.close();
  await sse?.close();
});

const TRANSPORTS: TransportUnderTest[] = [
  {
    name: "Streamable HTTP (2025 session)",
    // A session per test: back-to-back exchanges on one session hit the 409 race tested at the end of this file.
    exchange: async (opts) => onSession(await httpSession(), opts),
  },
  {
    name: "HTTP+SSE",
    exchange: (opts) =>
      withSseSession({ target: sseTarget, userHeaders: {}, timeoutMs: 10_000, maxBodyBytes: MAX_BODY, interactive: true }, (session) =>
        runExchange({ ...opts, open: session.channel }),
      ),
  },
  {
    name: "stdio",
    exchange: (opts) => runExchange({ ...opts, open: stdioProc.channel() }),
  },
];

for (const transport of TRANSPORTS) {
  describe(transport.name, () => {
    for (const { tool, method } of TOOLS) {
      test(`${tool}: the server's ${method} gets the asker's answer, and the record keeps request, answer and who answered`, async () => {
        const asker = person();
        const result = await transport.exchange({ message: call(tool), era: "legacy", timeoutMs: 10_000, asker });
        assert.deepEqual(heard(result), { answer: ANSWERS[method]!.result }, "the server got exactly the answer");
        assert.equal(asker.asked.length, 1);
        assert.equal(asker.asked[0]!.method, method);
        assert.equal(result.serverRequests.length, 1);
        const [record] = result.serverRequests;
        assert.equal(record!.request.method, method);
        assert.deepEqual(record!.request, asker.asked[0]);
        assert.deepEqual(record!.answer, { jsonrpc: "2.0", id: record!.request.id, ...ANSWERS[method] });
        assert.equal(record!.answeredBy, "user");
        assert.ok(record!.atMs <= record!.answeredAtMs);
        assert.ok(!result.notifications.some((n) => n.method === method), "an answered request is not listed as a notification");
      });
    }

    test("unattendedAsker: each request gets a client's unattended answer at once, and the call completes long before the timeout", async () => {
      const expected: Record<string, { heard: { answer?: Record<string, unknown>; error?: RegExp }; refused: boolean }> = {
        "ask-elicit": { heard: { answer: { action: "cancel" } }, refused: true },
        "ask-sample": { heard: { error: /Toolscope had no one to ask: this test answers nothing/ }, refused: true },
        "ask-roots": {
          heard: { error: /cannot answer roots\/list here: this test answers nothing\. The roots set in the playground/ },
          refused: true,
        },
      };
      for (const [tool, want] of Object.entries(expected)) {
        const asker = unattendedAsker("this test answers nothing");
        const started = performance.now();
        const result = await transport.exchange({ message: call(tool), era: "legacy", timeoutMs: 15_000, asker });
        const took = performance.now() - started;
        assert.ok(took < 3_000, `${tool}: completed in ${Math.round(took)} ms`);
        const got = heard(result);
        if (want.heard.answer) assert.deepEqual(got, { answer: want.heard.answer }, tool);
        else assert.match(got.error ?? "", want.heard.error!, tool);
        assert.equal(asker.refused.length, want.refused ? 1 : 0, `${tool}: listed for the note`);
        const [record] = result.serverRequests;
        assert.equal(record!.answeredBy, "proxy");
        assert.equal(record!.answer.id, record!.request.id);
        if (tool === "ask-sample")
          assert.equal((record!.answer.error as { code: number }).code, -1, "the code of a request its user did not approve");
      }
    });

    test("unattendedAsker between calls: roots/list is not answered 'none' (a server keeps that answer), but told when it is", async () => {
      const { answer } = await unattendedAsker("no call is running", { betweenCalls: true }).ask(
        { jsonrpc: "2.0", id: 1, method: "roots/list" },
        new AbortController().signal,
      );
      const error = (answer as { error: { code: number; message: string } }).error;
      assert.equal(error.code, -32001);
      assert.match(error.message, /answered during a call.*notifications\/roots\/list_changed/);
    });

    test("unattendedAsker: a method no client capability covers is 'method not found'", async () => {
      const { answer } = await unattendedAsker("nobody").ask({ jsonrpc: "2.0", id: 1, method: "no/such" }, new AbortController().signal);
      assert.deepEqual(answer, { error: { code: -32601, message: "Toolscope cannot answer no/such: nobody" } });
    });

    test("a modern-era exchange does not answer a server request: it is listed with the notifications, and the server is left to its own timeout", async () => {
      const asker = person();
      const result = await transport.exchange({ message: call("ask-elicit", { waitMs: 400 }), era: "modern", timeoutMs: 10_000, asker });
      assert.equal(asker.asked.length, 0, "nobody was asked");
      assert.equal(result.serverRequests.length, 0);
      const listed = result.notifications.filter((n) => n.method === "elicitation/create");
      assert.equal(listed.length, 1);
      assert.ok(listed[0]!.id !== undefined, "it is the server's request, id and all");
      assert.match(heard(result).error ?? "", /time/i, "the server heard nothing and gave up on its own");
    });

    test("the watchdog waits while the asker does: an answer after twice the request timeout still completes the call", async () => {
      const timeoutMs = 400;
      const asker = person(2 * timeoutMs);
      const started = performance.now();
      const result = await transport.exchange({ message: call("ask-elicit"), era: "legacy", timeoutMs, asker });
      assert.ok(performance.now() - started >= 2 * timeoutMs, "the answer really came after the timeout");
      assert.deepEqual(heard(result), { answer: ANSWERS["elicitation/create"]!.result });
      assert.equal(result.serverRequests[0]?.answeredBy, "user");
    });
  });
}

/** The browser's side as a streamed /api/rpc has it: a PendingCalls registry, its events, and answers given by hand. */
function browser(timeoutMs = 60_000) {
  const calls = new PendingCalls({ timeoutMs, maxPending: 10, maxPerStream: 5 });
  const events: RpcStreamEvent[] = [];
  const call = calls.open(
    (e) => events.push(e),
    () => undefined,
  );
  const ended = () =>
    events.filter((e): e is Extract<RpcStreamEvent, { type: "server-request-ended" }> => e.type === "server-request-ended");
  return { calls, call, events, ended };
}

for (const transport of TRANSPORTS) {
  describe(`${transport.name}, asked through PendingCalls (the playground's path)`, () => {
    test("the answer given through PendingCalls.answer reaches the server", async () => {
      const { calls, call, events } = browser();
      const running = transport.exchange({ message: call_("ask-elicit"), era: "legacy", timeoutMs: 10_000, asker: call.asker });
      const asked = await until(() => events.find((e) => e.type === "server-request"));
      assert.equal(asked.type === "server-request" && asked.request.method, "elicitation/create");
      if (asked.type === "server-request") calls.answer(call.streamId, asked.pendingId, ANSWERS["elicitation/create"]!);
      const result = await running;
      assert.deepEqual(heard(result), { answer: ANSWERS["elicitation/create"]!.result });
      assert.equal(result.serverRequests[0]?.answeredBy, "user");
      assert.equal(calls.pendingCount, 0);
      call.close();
    });

    test("the call's answer ends the exchange at once even while a person is still asked: the question is dropped, nothing stays pending", async () => {
      const { calls, call, ended } = browser(60_000);
      const started = performance.now();
      const result = await transport.exchange({ message: call_("ask-and-go"), era: "legacy", timeoutMs: 10_000, asker: call.asker });
      const took = performance.now() - started;
      assert.deepEqual(heard(result), { went: true });
      assert.ok(took < 3_000, `ended ${Math.round(took)} ms after it started, not at a timeout`);
      assert.equal(calls.pendingCount, 0, "nothing waits for the person any more");
      assert.deepEqual(
        ended().map((e) => e.answeredBy),
        ["cancelled"],
        "the browser was told",
      );
      assert.deepEqual(
        result.serverRequests.map((r) => [r.request.method, r.answeredBy, (r.answer.error as { code?: number } | undefined)?.code]),
        [["elicitation/create", "cancelled", NO_ANSWER]],
        "the record says the server got an error for it",
      );
      call.close();
    });

    test("a request the server withdraws (notifications/cancelled at its own timeout) stops waiting, and no answer is sent for it", async () => {
      const { calls, call, ended, events } = browser(60_000);
      const result = await transport.exchange({
        message: call_("ask-elicit", { waitMs: 300 }),
        era: "legacy",
        timeoutMs: 10_000,
        asker: call.asker,
      });
      assert.match(heard(result).error ?? "", /time/i, "the server gave up on its own");
      assert.equal(calls.pendingCount, 0);
      const [end] = ended();
      assert.equal(end?.answeredBy, "cancelled");
      assert.match(end?.note ?? "", /withdrew/);
      assert.ok(
        events.some((e) => e.type === "server-request"),
        "the person had been asked",
      );
      const cancelled = [...result.notifications, ...result.sessionNotifications].filter((n) => n.method === "notifications/cancelled");
      assert.equal(cancelled.length, 1, "the withdrawal is listed");
      call.close();
    });
  });
}

describe("Streamable HTTP with stream limits", () => {
  test("the idle limit does not cut a call while the asker is still waiting past it", async () => {
    const stream: StreamLimits = {
      idleMs: 300,
      maxMs: 20_000,
      maxSetting: "TOOLSCOPE_STREAM_MAX_MS",
      subject: "The streamed response",
      maxHint: "",
    };
    const asker = person(900);
    const result = await TRANSPORTS[0]!.exchange({ message: call("ask-roots"), era: "legacy", timeoutMs: 300, stream, asker });
    assert.deepEqual(heard(result), { answer: ANSWERS["roots/list"]!.result });
  });
});

describe("Streamable HTTP: back-to-back exchanges on one 2025 session", () => {
  // Each interactive exchange opens the session's GET stream and closes it in release(); the server may still hold
  // the old one when the next exchange asks, and answers 409. openSessionStream asks again (a few short retries), so
  // a request the server sends on the GET stream is never written to a stream nobody reads.
  test("every exchange gets the server's requests, even when the previous one on the session has only just ended", async () => {
    const descriptor = await httpSession();
    const outcomes: string[] = [];
    for (const { tool, method } of [...TOOLS, ...TOOLS]) {
      const asker = person();
      const result = await onSession(descriptor, { message: call(tool), era: "legacy", timeoutMs: 2_000, asker }).catch(
        (err: unknown) => err as Error,
      );
      if (result instanceof Error) {
        const gets = ((result as { exchanges?: { request: { method: string }; response?: { status: number } }[] }).exchanges ?? []).filter(
          (x) => x.request.method === "GET",
        );
        outcomes.push(`${tool}: ${result.message} (session GET answered ${gets.map((x) => x.response?.status).join(", ")})`);
      } else {
        assert.deepEqual(heard(result), { answer: ANSWERS[method]!.result });
        outcomes.push(`${tool}: answered`);
      }
    }
    assert.deepEqual(
      outcomes,
      [...TOOLS, ...TOOLS].map(({ tool }) => `${tool}: answered`),
    );
  });
});
