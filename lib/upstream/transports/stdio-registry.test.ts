import { test, describe, after } from "node:test";
import assert from "node:assert/strict";
import { ExchangeFailure, runExchange, type ExchangeResult } from "../exchange/exchange-core.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { unattendedAsker } from "../exchange/server-request-asker.ts";
import type { StdioServerSpec } from "./stdio-config.ts";
import { StderrRing, StdioRegistry, stdioRegistry, type StdioProcess } from "./stdio-registry.ts";

/** A tiny line-delimited JSON-RPC peer: echoes requests (with a log notification first), never answers "slow", exits on "exit". */
const ECHO = `
const rl = require("readline").createInterface({ input: process.stdin });
process.stderr.write("echo ready\\n");
const out = (m) => process.stdout.write(JSON.stringify(m) + "\\n");
rl.on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "exit") { process.stderr.write("fatal: asked to exit\\n"); process.exit(3); }
  if (m.method === "notifications/cancelled") { process.stderr.write("cancelled " + JSON.stringify(m.params.requestId) + "\\n"); return; }
  if (m.method === "slow") { out({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: m.params?._meta?.progressToken, progress: 1 } }); return; }
  if (m.method === "noisy") { for (let i = 0; i < 3000; i++) process.stderr.write("line " + i + " " + "x".repeat(40) + "\\n"); }
  if (m.id !== undefined) {
    out({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } });
    out({ jsonrpc: "2.0", id: m.id, result: { echo: m.params ?? null } });
  }
});
`;

function spec(name = "echo"): StdioServerSpec {
  return { name, command: process.execPath, args: ["-e", ECHO], env: {} };
}

const registries: StdioRegistry[] = [];
after(async () => {
  await Promise.all(registries.map((r) => r.stopAll()));
});

function registry(opts: Partial<{ maxProcesses: number; idleMs: number }> = {}): StdioRegistry {
  const r = new StdioRegistry({ maxProcesses: opts.maxProcesses ?? 4, idleMs: opts.idleMs ?? 60_000, maxMessageBytes: 1_000_000 });
  registries.push(r);
  return r;
}

/** Start a process the way connect does, minus the MCP handshake (the echo peer does not speak it). */
async function launch(r: StdioRegistry, name = "echo"): Promise<StdioProcess> {
  const p = r.create(spec(name));
  await p.transport.start();
  p.adopt("legacy");
  return p;
}

/** One exchange on the process's channel, the way the proxy runs it (legacy era: nothing is stamped). */
function send(
  p: StdioProcess,
  message: Record<string, unknown>,
  opts: { timeoutMs: number; signal?: AbortSignal; onNotification?: (m: Record<string, unknown>) => void },
): Promise<ExchangeResult> {
  return runExchange({
    open: p.channel(),
    message,
    era: "legacy",
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    asker: unattendedAsker("test"),
    onNotification: opts.onNotification,
  });
}

function alive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("StderrRing", () => {
  test("returns each complete line once, keeps the partial one for later", () => {
    const ring = new StderrRing(1024);
    ring.append("one\ntw");
    assert.deepEqual(ring.takeNew(), ["one"]);
    ring.append("o\r\nthree\n");
    assert.deepEqual(ring.takeNew(), ["two", "three"]);
    assert.deepEqual(ring.takeNew(), []);
    ring.append("tail without newline");
    ring.flush();
    assert.deepEqual(ring.takeNew(), ["tail without newline"]);
  });

  test("is bounded: the oldest lines go, and the reader is told how many it missed", () => {
    const ring = new StderrRing(100);
    for (let i = 0; i < 50; i++) ring.append(`line ${i}\n`);
    const lines = ring.takeNew();
    assert.match(lines[0], /^… \d+ earlier stderr lines dropped/);
    assert.equal(lines.at(-1), "line 49");
    assert.ok(lines.slice(1).join("\n").length <= 100);
    assert.deepEqual(ring.tail(2), ["line 48", "line 49"]);
  });

  test("cuts a single huge line", () => {
    const ring = new StderrRing(50);
    ring.append("y".repeat(500) + "\n");
    const [line] = ring.takeNew();
    assert.ok(line.length < 80 && line.endsWith("(line cut)"));
  });
});

describe("StdioRegistry", () => {
  test("sends a message as written and waits for the response with its id; notifications and stderr are collected", async () => {
    const r = registry();
    const p = await launch(r);
    const seen: unknown[] = [];
    const res = await send(
      p,
      { jsonrpc: "2.0", id: "a-1", method: "tools/call", params: { name: "echo" } },
      { timeoutMs: 5000, onNotification: (m) => seen.push(m) },
    );
    assert.deepEqual(res.response, { jsonrpc: "2.0", id: "a-1", result: { echo: { name: "echo" } } });
    // The log message names no request: on the process's shared pipe it is the session's, still relayed as it arrives.
    const collected = [...res.notifications, ...res.sessionNotifications];
    assert.equal(collected.length, 1);
    assert.equal(collected[0]?.method, "notifications/message");
    assert.deepEqual(seen, collected);
    assert.equal(res.exchanges.length, 1);
    const exchange = res.exchanges[0]!;
    assert.equal(exchange.transport, "stdio");
    assert.equal(exchange.request.method, "STDIO");
    assert.equal(exchange.request.url, "stdio:echo");
    assert.deepEqual(exchange.request.headers, []);
    assert.equal(exchange.request.body, JSON.stringify({ jsonrpc: "2.0", id: "a-1", method: "tools/call", params: { name: "echo" } }));
    assert.equal(exchange.response?.status, 0);
    assert.equal(exchange.response?.sseEvents[0]?.event, "stdout");
    assert.deepEqual(JSON.parse(exchange.response?.body ?? ""), res.response);
    assert.deepEqual(p.stderr.takeNew(), ["echo ready"]);
  });

  test("at the cap the longest unused idle process makes room, and its next request says why; busy ones are never stopped", async () => {
    const r = registry({ maxProcesses: 2 });
    const a = await launch(r, "a");
    const b = await launch(r, "b");
    a.touch();
    b.lastUsed = a.lastUsed - 1_000;
    const c = r.create(spec("c"));
    assert.equal(r.running, 2);
    await until(() => !alive(b.pid));
    assert.ok(alive(a.pid), "the more recently used one keeps running");
    assert.throws(
      () => r.get(b.id, "stdio:b"),
      (err: unknown) =>
        err instanceof ProxyError &&
        err.kind === "upstream-protocol" &&
        /make room for a newer one/.test(err.message) &&
        /TOOLSCOPE_STDIO_MAX_PROCESSES=2/.test(err.message),
    );
    await c.transport.start();
    c.adopt("legacy");

    // Both in the middle of a request: nothing may be stopped, so the new one is refused and says what to do.
    const calls = [a, c].map((p, i) => send(p, { jsonrpc: "2.0", id: `busy-${i}`, method: "slow" }, { timeoutMs: 3000 }));
    await until(() => a.busy && c.busy);
    assert.throws(
      () => r.create(spec("d")),
      (err: unknown) =>
        err instanceof ProxyError &&
        err.kind === "rate-limited" &&
        /each in the middle of a request/.test(err.message) &&
        /TOOLSCOPE_STDIO_MAX_PROCESSES=2/.test(err.message),
    );
    assert.ok(alive(a.pid) && alive(c.pid));
    await Promise.allSettled(calls);
    await r.stop(a.id);
    assert.equal(alive(a.pid), false, "disconnect kills the process");
    assert.ok(r.create(spec("d")));
  });

  test("a process that exits is marked dead: the next request gets its exit code and stderr tail", async () => {
    const r = registry();
    const p = await launch(r);
    await send(p, { jsonrpc: "2.0", method: "exit" }, { timeoutMs: 1000 });
    await until(() => p.state === "dead");
    assert.equal(r.running, 0, "a dead process does not count toward the cap");
    assert.throws(
      () => r.get(p.id, "stdio:echo"),
      (err: unknown) =>
        err instanceof ProxyError &&
        /exited with code 3/.test(err.message) &&
        /fatal: asked to exit/.test(err.message) &&
        /Connect again/.test(err.hint ?? ""),
    );
  });

  test("a request in flight when the process dies fails with the exit code", async () => {
    const r = registry();
    const p = await launch(r);
    const pending = send(p, { jsonrpc: "2.0", id: 7, method: "slow" }, { timeoutMs: 5000 });
    await new Promise((res) => setTimeout(res, 100));
    process.kill(p.pid as number, "SIGKILL");
    await assert.rejects(
      pending,
      (err: unknown) => err instanceof ExchangeFailure && /killed by SIGKILL/.test((err.cause as Error).message),
    );
  });

  test("cancelling sends notifications/cancelled for the request id; progress goes to its request", async () => {
    const r = registry();
    const p = await launch(r);
    const ctrl = new AbortController();
    const progress: unknown[] = [];
    const pending = send(
      p,
      { jsonrpc: "2.0", id: "slow-1", method: "slow", params: { _meta: { progressToken: "tok" } } },
      { timeoutMs: 5000, signal: ctrl.signal, onNotification: (m) => progress.push(m) },
    );
    await until(() => progress.length === 1);
    ctrl.abort();
    await assert.rejects(pending, (err: unknown) => err instanceof ExchangeFailure && /cancelled/.test((err.cause as Error).message));
    await until(() => p.stderr.tail(5).includes('cancelled "slow-1"'));
    // The process is still usable afterwards.
    const res = await send(p, { jsonrpc: "2.0", id: "after", method: "ping" }, { timeoutMs: 5000 });
    assert.equal((res.response as { id: string }).id, "after");
  });

  test("a timeout also cancels upstream and says so", async () => {
    const r = registry();
    const p = await launch(r);
    await assert.rejects(
      send(p, { jsonrpc: "2.0", id: 99, method: "slow" }, { timeoutMs: 200 }),
      (err: unknown) => err instanceof ExchangeFailure && (err.cause as ProxyError).kind === "upstream-timeout",
    );
    await until(() => p.stderr.tail(5).includes("cancelled 99"));
  });

  test("two requests with the same id at once are refused (the response could not be told apart)", async () => {
    const r = registry();
    const p = await launch(r);
    const first = send(p, { jsonrpc: "2.0", id: 1, method: "slow" }, { timeoutMs: 500 });
    await assert.rejects(
      send(p, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { timeoutMs: 500 }),
      (err: unknown) => err instanceof ExchangeFailure && /still waiting/.test((err.cause as Error).message),
    );
    await assert.rejects(first);
  });

  test("an idle process is stopped after idleMs", async () => {
    const r = registry({ idleMs: 300 });
    const p = await launch(r);
    const pid = p.pid;
    await until(() => !alive(pid), 8000);
    assert.throws(
      () => r.get(p.id, "stdio:echo"),
      (err: unknown) => err instanceof ProxyError && /No running process/.test(err.message),
    );
  });

  test("an id only reaches its own server, and unknown ids are a clear error", async () => {
    const r = registry();
    const p = await launch(r, "a");
    assert.throws(() => r.get(p.id, "stdio:b"), /No running process for stdio:b/);
    assert.throws(() => r.get("nope", "stdio:a"), /No running process/);
    assert.throws(() => r.get(undefined, "stdio:a"), /No running process/);
    assert.equal(await r.stop(p.id, "stdio:b"), undefined, "disconnect with another server's URL stops nothing");
    assert.equal(p.state, "live");
  });

  test("stderr floods stay bounded", async () => {
    const r = registry();
    const p = await launch(r);
    p.stderr.takeNew();
    await send(p, { jsonrpc: "2.0", id: 1, method: "noisy" }, { timeoutMs: 5000 });
    await new Promise((res) => setTimeout(res, 200));
    const lines = p.stderr.takeNew();
    assert.match(lines[0], /earlier stderr lines dropped/);
    assert.ok(lines.join("\n").length < 70 * 1024);
  });

  test("the process-wide registry refuses in hosted mode, and only ever spawns configured specs", () => {
    assert.throws(
      () => stdioRegistry({ mode: "hosted", stdioMaxProcesses: 8, stdioIdleMs: 60_000, maxResponseBytes: 1_000_000 }),
      (err: unknown) => err instanceof ProxyError && err.kind === "blocked-target",
    );
    // The registry's only way to make a process is create(spec): a StdioServerSpec comes from the config file parser.
    const methods = Object.getOwnPropertyNames(StdioRegistry.prototype);
    assert.deepEqual(
      methods.filter((m) => /^(spawn|exec|launch|run)$|command/i.test(m)),
      [],
    );
  });
});
