/**
 * The welcome of a legacy Streamable HTTP session (./session-welcome.ts) against a real SDK server that asks
 * `roots/list` right after `notifications/initialized`, between calls, on the session's GET stream — as
 * server-everything does. The server's own tool says what it heard, so each test sees the server's side.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ConnectionDescriptor } from "@/lib/mcp/contract";
import { serveFetchHandler, type ServedHandler } from "@/lib/demo/testing/node-http-adapter";
import { config } from "../../server/platform/config.ts";
import type { Target } from "../egress/targets.ts";
import { asksHttpHandler } from "../testing/asks-server.ts";
import { runExchange } from "../exchange/exchange-core.ts";
import { exchangeMessage, httpChannel, streamableUpstream } from "./upstream-http.ts";
import { welcomesHeld } from "./session-welcome.ts";
import type { UpstreamConfig } from "../upstream.ts";

const MAX_BODY = 1_000_000;
const ROOTS = [{ uri: "file:///example/project", name: "project" }, { uri: "file:///example/other" }];

let http: ServedHandler;
let handler: ReturnType<typeof asksHttpHandler>;
let target: Target;

before(async () => {
  handler = asksHttpHandler({ rootsAtStart: true });
  http = await serveFetchHandler(handler);
  target = { url: http.url, displayUrl: http.url.toString(), fetch };
});

after(async () => {
  await handler?.close();
  await http?.close();
});

function cfg(patch: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return { ...config(), mode: "local", requestTimeoutMs: 10_000, maxResponseBytes: MAX_BODY, eraCacheTtlMs: 0, ...patch };
}

/** What the server heard when it asked roots/list after initialized, read by calling its tool (no GET stream held). */
async function heardAtStart(connection: ConnectionDescriptor): Promise<{ pending?: true; answer?: { roots: unknown[] }; error?: string }> {
  const { response } = await exchangeMessage({
    target,
    descriptor: connection,
    userHeaders: {},
    maxBodyBytes: MAX_BODY,
    timeoutMs: 10_000,
    message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "roots-at-start", arguments: {} } },
  });
  const text = (response?.result as { content: { text: string }[] }).content[0].text;
  return JSON.parse(text) as { pending?: true; answer?: { roots: unknown[] }; error?: string };
}

/** Poll the server's account until it no longer waits (its own timeout is 1.5 s). */
async function settled(connection: ConnectionDescriptor) {
  for (let i = 0; i < 60; i++) {
    const heard = await heardAtStart(connection);
    if (!heard.pending) return heard;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the server still waits for roots/list after 3 s");
}

async function connect(c: UpstreamConfig, input: { interactive: boolean; roots?: typeof ROOTS }) {
  const { connection } = await streamableUpstream(target, c).connect({
    url: http.url.toString(),
    era: "legacy",
    userHeaders: {},
    ...input,
  });
  assert.equal(connection.era, "legacy");
  assert.ok(connection.sessionId);
  return connection;
}

describe("session welcome (legacy Streamable HTTP, roots/list asked right after initialized)", () => {
  test("an interactive connect answers it with the roots the browser sent, and lets the stream go after the window", async () => {
    const connection = await connect(cfg({ sessionWelcomeMs: 1_000 }), { interactive: true, roots: ROOTS });
    assert.equal(welcomesHeld(), 1, "the session's GET stream is held after the connect answered");
    assert.deepEqual((await settled(connection)).answer, { roots: ROOTS });
    await new Promise((r) => setTimeout(r, 1_100));
    assert.equal(welcomesHeld(), 0, "released at the end of the window");
  });

  test("no roots set in the browser: at once an error saying roots are answered during a call, not the server's timeout", async () => {
    const connection = await connect(cfg({ sessionWelcomeMs: 1_000 }), { interactive: true });
    const started = Date.now();
    const heard = await settled(connection);
    assert.equal(heard.answer, undefined);
    assert.match(String(heard.error), /cannot answer roots\/list now: .*It is answered during a call/);
    assert.ok(Date.now() - started < 1_000, "answered, not waited out (the server's own timeout is 1.5 s)");
  });

  test("off (TOOLSCOPE_SESSION_WELCOME_MS=0), or a connect nobody answers for: the server waits out its own timeout", async () => {
    for (const connection of [
      await connect(cfg({ sessionWelcomeMs: 0 }), { interactive: true, roots: ROOTS }),
      await connect(cfg({ sessionWelcomeMs: 1_000 }), { interactive: false, roots: ROOTS }),
    ]) {
      const heard = await settled(connection);
      assert.equal(heard.answer, undefined);
      assert.match(String(heard.error), /timed out/i);
    }
    assert.equal(welcomesHeld(), 0);
  });

  test("the process-wide cap: a connect beyond TOOLSCOPE_MAX_SESSION_WELCOMES holds nothing", async () => {
    const c = cfg({ sessionWelcomeMs: 1_000, maxSessionWelcomes: 1 });
    const first = await connect(c, { interactive: true, roots: ROOTS });
    const second = await connect(c, { interactive: true, roots: ROOTS });
    assert.equal(welcomesHeld(), 1);
    assert.deepEqual((await settled(first)).answer, { roots: ROOTS });
    assert.match(String((await settled(second)).error), /timed out/i);
    await new Promise((r) => setTimeout(r, 1_100));
  });

  test("a person's call right after connecting takes the GET stream over: its own roots/list reaches the person", async () => {
    const connection = await connect(cfg({ sessionWelcomeMs: 5_000 }), { interactive: true, roots: ROOTS });
    assert.equal(welcomesHeld(), 1);
    const asked: string[] = [];
    const result = await runExchange({
      open: httpChannel({ target, descriptor: connection, userHeaders: {}, maxBodyBytes: MAX_BODY, sessionStream: true }),
      message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask-roots", arguments: { waitMs: 3_000 } } },
      era: "legacy",
      timeoutMs: 10_000,
      asker: {
        async ask(request) {
          asked.push(String(request.method));
          return { answer: { result: { roots: [{ uri: "file:///from/the/person" }] } }, answeredBy: "user" };
        },
      },
    });
    assert.equal(welcomesHeld(), 0, "the welcome ended when the call opened the stream");
    // The server's own after-initialized ask may land on the call's stream too (a slow machine): the person answers both.
    assert.ok(asked.length >= 1 && asked.every((m) => m === "roots/list"), asked.join());
    const text = (result.response?.result as { content: { text: string }[] }).content[0].text;
    assert.deepEqual(JSON.parse(text), { answer: { roots: [{ uri: "file:///from/the/person" }] } });
  });
});
