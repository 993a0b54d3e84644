// Memory soak: does the app keep memory per call? Starts its own production instance (scripts/server.mjs, the
// production build in NEXT_DIST_DIR or .next) on a free loopback port with a small heap and the inspector on, sends
// SOAK_CALLS mixed API calls and docs page loads after a warm-up, and compares the heap after a full GC (taken over the
// Chrome DevTools Protocol) before and after. Exits 1 when the heap grew more than MAX_GROWTH_MB or any call failed,
// 2 when the instance could not be started or measured. Sends traffic only to 127.0.0.1 and stops the instance it
// started.
//
//   node scripts/soak.mjs                      (needs a production build: npx next build)
//   SOAK_CALLS=2000 node scripts/soak.mjs      (fewer calls)
//
// Settings (environment): SOAK_CALLS (10000), SOAK_WARMUP (500), SOAK_CONCURRENCY (6), SOAK_MAX_SECONDS (100: the
// measured phase stops early when it runs out, and says so), SOAK_VERBOSE=1 (the instance's log lines on stderr).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { WebSocket } from "undici";

/**
 * The most the heap after GC may grow over the measured calls. Before the fix each /api/rpc call kept ~42 KB for good
 * (10,000 calls: +390 MB, and with this instance's 160 MB heap it dies after ~2,500); a healthy instance stays within
 * a few MB (caches filling, compiled code). 15 MB is 1.5 KB per call over 10,000 calls: clear of that noise, far
 * below any per-call leak worth the name.
 */
const MAX_GROWTH_MB = 15;
/** Small on purpose: a leak ends the instance with an out-of-memory crash instead of slowly eating the machine. */
const HEAP_LIMIT_MB = 160;
/** Any one call (API or page) and any one inspector command: past this the instance counts as hung. */
const CALL_TIMEOUT_MS = 30_000;
const CDP_TIMEOUT_MS = 30_000;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const intSetting = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`soak: ${name}=${raw} is not a whole number`);
    process.exit(2);
  }
  return n;
};
const calls = intSetting("SOAK_CALLS", 10_000);
const warmup = intSetting("SOAK_WARMUP", 500);
const concurrency = Math.max(1, intSetting("SOAK_CONCURRENCY", 6));
const maxSeconds = intSetting("SOAK_MAX_SECONDS", 100);
const verbose = process.env.SOAK_VERBOSE === "1";

let child;
let childExit;
/** The instance is on its way out (it waits for our inspector session to go before it can exit). */
let childLeaving = false;
let cdp;
const stderrTail = [];
/** V8 said the instance's heap ran out. */
let outOfMemory = false;

function fail(code, message) {
  console.error(`soak: ${message}`);
  if (stderrTail.length) console.error(`soak: the instance's last stderr lines:\n${stderrTail.join("\n")}`);
  stop().finally(() => process.exit(code));
  // stop() may wait for the instance; nothing else runs meanwhile.
  return new Promise(() => {});
}

/** Stops the instance: our inspector session first (a process being debugged waits for it before exiting), then SIGTERM, then SIGKILL. */
async function stop() {
  cdp?.close();
  if (!child || childExit) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => fail(130, `${signal}: stopping`));

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The instance: our own, on loopback, with the inspector on a port of its choosing (read back from stderr). */
async function startInstance(port) {
  if (!existsSync(path.join(root, distDir, "BUILD_ID")))
    await fail(2, `no production build in ${distDir}: run \`npx next build\` (or set NEXT_DIST_DIR) first`);
  child = spawn(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, "--inspect=127.0.0.1:0", "scripts/server.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      TOOLSCOPE_MODE: "local",
      TOOLSCOPE_LIMITS: "off",
      NODE_ENV: "production",
      NODE_OPTIONS: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.once("exit", (code, signal) => (childExit = { code, signal }));
  child.stdout.on("data", (d) => verbose && process.stderr.write(d));
  let inspectorUrl;
  const found = new Promise((resolve) => {
    let buffered = "";
    child.stderr.on("data", (d) => {
      buffered += d;
      if (verbose) process.stderr.write(d);
      const lines = buffered.split("\n");
      buffered = lines.pop();
      for (const line of lines) {
        stderrTail.push(line);
        if (stderrTail.length > 20) stderrTail.shift();
        if (/heap out of memory|Reached heap limit/.test(line)) outOfMemory = true;
        const m = /Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(line);
        if (m && !inspectorUrl) resolve((inspectorUrl = m[1]));
        // It is exiting (a signal, a crash) and would wait for our session forever: let it go.
        if (/Waiting for the debugger to disconnect/.test(line)) {
          childLeaving = true;
          cdp?.close();
        }
      }
    });
  });
  const deadline = Date.now() + 60_000;
  await Promise.race([found, new Promise((r) => setTimeout(r, 60_000))]);
  if (!inspectorUrl) await fail(2, "the instance did not print its inspector address");
  // Ready when it answers HTTP at all.
  for (;;) {
    if (childExit) await fail(2, `the instance exited while starting (code ${childExit.code}, signal ${childExit.signal})`);
    try {
      await (await fetch(`http://127.0.0.1:${port}/`, { headers: { "sec-fetch-site": "none" } })).arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) await fail(2, "the instance did not answer HTTP within 60 s");
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return inspectorUrl;
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function devtools(url) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`could not open ${url}`));
  });
  let next = 0;
  const pending = new Map();
  ws.onmessage = (ev) => {
    const msg = JSON.parse(String(ev.data));
    const waiter = msg.id !== undefined && pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    if (msg.error) waiter.reject(new Error(`${waiter.method}: ${msg.error.message}`));
    else waiter.resolve(msg.result);
  };
  ws.onclose = () => {
    for (const w of pending.values()) w.reject(new Error("the inspector connection closed"));
    pending.clear();
  };
  let closed = false;
  return {
    /** One command; an instance that stopped answering fails it after CDP_TIMEOUT_MS instead of hanging the soak. */
    send: (method, params = {}) =>
      new Promise((resolve, reject) => {
        if (closed) return reject(new Error(`${method}: the inspector connection is closed`));
        const id = ++next;
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new Error(`${method}: no answer within ${CDP_TIMEOUT_MS / 1000} s`));
        }, CDP_TIMEOUT_MS);
        const settle = (fn) => (value) => {
          clearTimeout(timer);
          fn(value);
        };
        pending.set(id, { method, resolve: settle(resolve), reject: settle(reject) });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => {
      if (closed) return;
      closed = true;
      ws.close();
      for (const w of pending.values()) w.reject(new Error("the inspector connection closed"));
      pending.clear();
    },
  };
}

/**
 * Heap in use after full collections. Several rounds with pauses: FinalizationRegistry callbacks (undici's request
 * finalizer, for one) run after a collection and free more for the next.
 */
async function heapAfterGc(cdp) {
  for (let i = 0; i < 3; i++) {
    await cdp.send("HeapProfiler.collectGarbage");
    await new Promise((r) => setTimeout(r, 150));
  }
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  const { result } = await cdp.send("Runtime.evaluate", { expression: "process.memoryUsage().rss", returnByValue: true });
  return { heap: usedSize, rss: Number(result.value) };
}

// ---- traffic ----

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const httpUpstream = `${base}/api/demo/mcp`;
const jsonHeaders = { origin: base, "content-type": "application/json" };
const pageHeaders = { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate", "sec-fetch-dest": "document" };
const search = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_issues", arguments: { query: "login" } } });

async function postJson(route, body, accept) {
  const res = await fetch(base + route, {
    method: "POST",
    headers: accept ? { ...jsonHeaders, accept } : jsonHeaders,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

const connections = {};
async function connect(url) {
  const { connection } = JSON.parse(await postJson("/api/connect", { url, era: "auto", headers: {} }));
  if (!connection) throw new Error(`/api/connect ${url}: no connection in the answer`);
  return connection;
}

async function rpc(upstream, streamed, id) {
  const body = { connection: connections[upstream], headers: {}, message: search(id) };
  if (!streamed) {
    const answer = JSON.parse(await postJson("/api/rpc", body));
    if (!answer.response?.result) throw new Error(`/api/rpc (${upstream}): no result: ${JSON.stringify(answer).slice(0, 200)}`);
    return;
  }
  const text = await postJson("/api/rpc", body, "text/event-stream");
  const last = text.trimEnd().split("\n\n").at(-1) ?? "";
  if (!last.startsWith("event: result")) throw new Error(`/api/rpc streamed (${upstream}) ended with: ${last.slice(0, 200)}`);
}

async function tools(upstream, fresh) {
  const answer = JSON.parse(
    await postJson("/api/tools", { connection: connections[upstream], headers: {}, ...(fresh ? { fresh: true } : {}) }),
  );
  if (!Array.isArray(answer.tools) || answer.tools.length === 0) throw new Error(`/api/tools (${upstream}): no tools`);
}

async function docs(upstream) {
  const server = upstream === "builtin" ? "builtin:demo" : httpUpstream;
  const res = await fetch(`${base}/docs?server=${encodeURIComponent(server)}`, {
    headers: pageHeaders,
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  const html = await res.text();
  if (!res.ok || !html.includes("search_issues"))
    throw new Error(`/docs (${upstream}) answered ${res.status}${res.ok ? " without the demo's tools" : ""}`);
}

/**
 * The mix, per 100 calls: mostly /api/rpc (where the leak was), over both upstreams, streamed and not; tool lists
 * (every fourth one `fresh`, which walks all the demo's pages upstream), docs pages and connects.
 */
/** Counts its own calls (a slot's call number modulo a divisor of 100 would always be the same). */
const everyNth = (n) => {
  let k = 0;
  return () => k++ % n === 0;
};
const freshBuiltin = everyNth(4);
const freshHttp = everyNth(4);
const connectBuiltin = everyNth(2);
const MIX = [
  ["rpc builtin", 22, (i) => rpc("builtin", false, i)],
  ["rpc builtin streamed", 16, (i) => rpc("builtin", true, i)],
  ["rpc http", 20, (i) => rpc("http", false, i)],
  ["rpc http streamed", 14, (i) => rpc("http", true, i)],
  ["tools builtin", 7, () => tools("builtin", freshBuiltin())],
  ["tools http", 7, () => tools("http", freshHttp())],
  ["docs builtin", 3, () => docs("builtin")],
  ["docs http", 3, () => docs("http")],
  ["connect", 8, () => connect(connectBuiltin() ? "builtin:demo" : httpUpstream)],
];
/** One fixed, interleaved order of the 100 slots (a seeded shuffle), so every run sends the same sequence. */
const schedule = MIX.flatMap(([name, weight, run]) => Array.from({ length: weight }, () => ({ name, run })));
let seed = 42;
for (let i = schedule.length - 1; i > 0; i--) {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  const j = seed % (i + 1);
  [schedule[i], schedule[j]] = [schedule[j], schedule[i]];
}

/** Sends `count` calls from the schedule with `concurrency` workers; stops early at `deadline` (ms since epoch). */
async function traffic(count, deadline, counts) {
  let issued = 0;
  let done = 0;
  const failures = [];
  const worker = async () => {
    while (issued < count && Date.now() < deadline && !childExit && failures.length < 10) {
      const n = issued++;
      const { name, run } = schedule[n % schedule.length];
      try {
        await run(n + 1);
        done++;
        if (counts) counts.set(name, (counts.get(name) ?? 0) + 1);
      } catch (err) {
        failures.push(`${name}: ${err.cause?.code ?? err.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { done, failures };
}

const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;

// However the instance behaves, the soak ends: startup, warm-up, the measured phase and the measurements, with room.
const budgetSeconds = 60 + 90 + maxSeconds + 60;
const overall = setTimeout(() => fail(2, `the soak did not finish within ${budgetSeconds} s`), budgetSeconds * 1000);

const inspectorUrl = await startInstance(port);
try {
  cdp = await devtools(inspectorUrl);
} catch (err) {
  await fail(2, err.message);
}
try {
  connections.builtin = await connect("builtin:demo");
  connections.http = await connect(httpUpstream);
} catch (err) {
  await fail(2, `could not connect to the demo: ${err.message}`);
}

/** The instance died or is leaving: say how, and stop. */
const gone = async (when, failures = []) => {
  // A crashed instance drops its connections a moment before its exit is reported.
  if (failures.length && !childExit)
    await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 2_000))]);
  if (childExit || childLeaving) {
    const how = childExit ? `code ${childExit.code}, signal ${childExit.signal}` : "it is exiting";
    await fail(
      1,
      `the instance went away ${when} (${how})${outOfMemory ? `: its ${HEAP_LIMIT_MB} MB heap ran out, so memory is kept per call` : ""}`,
    );
  }
};
const measure = async () => {
  try {
    return await heapAfterGc(cdp);
  } catch (err) {
    await gone("while the heap was measured", [err]);
    return fail(2, `could not measure the heap: ${err.message}`);
  }
};

const warm = await traffic(warmup, Date.now() + 90_000);
await gone(`during the warm-up, after ${warm.done} calls`, warm.failures);
if (warm.failures.length) await fail(1, `calls failed during the warm-up:\n  ${warm.failures.join("\n  ")}`);
const before = await measure();

const counts = new Map();
const started = performance.now();
const run = await traffic(calls, Date.now() + maxSeconds * 1000, counts);
const seconds = (performance.now() - started) / 1000;
await gone(`after ${run.done} of ${calls} calls`, run.failures);
if (run.failures.length)
  await fail(1, `FAIL: ${run.failures.length} call(s) failed after ${run.done} good ones:\n  ${run.failures.join("\n  ")}`);
const after = await measure();
await stop();
clearTimeout(overall);

const growth = after.heap - before.heap;
const perThousand = run.done ? (growth / run.done) * 1000 : 0;
console.log(
  `soak: ${run.done} calls after ${warm.done} warm-up calls, concurrency ${concurrency}, ${seconds.toFixed(1)} s, ${(run.done / seconds).toFixed(1)} calls/s`,
);
console.log(`soak: mix ${[...counts].map(([name, n]) => `${name} ${n}`).join(", ")}`);
console.log(
  `soak: heap after GC ${mb(before.heap)} -> ${mb(after.heap)}: ${growth >= 0 ? "+" : ""}${mb(growth)} (${(perThousand / 1e6).toFixed(2)} MB per 1,000 calls; bound ${MAX_GROWTH_MB} MB)`,
);
console.log(`soak: RSS ${mb(before.rss)} -> ${mb(after.rss)}`);
if (run.done < calls) console.log(`soak: stopped after ${run.done} of ${calls} calls: SOAK_MAX_SECONDS=${maxSeconds} ran out`);
if (growth > MAX_GROWTH_MB * 1e6) {
  console.error(`soak: FAIL: the heap after GC grew ${mb(growth)} (more than ${MAX_GROWTH_MB} MB): memory is kept per call`);
  process.exit(1);
}
console.log("soak: PASS");
process.exit(0);
