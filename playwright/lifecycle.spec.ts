import { execSync } from "node:child_process";
import { startApp } from "./fixtures/app-instance";
import { expect, test } from "./test";

/**
 * The process lifecycle of `npm start` (scripts/start.mjs → scripts/server.mjs), on instances of their own: a crash
 * of the server is a non-zero exit (a supervisor restarts it), SIGTERM ends open streams with an event the browser
 * understands and lets in-flight calls finish, then everything exits 0 — stdio children included.
 */

/** Child processes of `pid`, as "pid args" lines. */
function children(pid: number): string[] {
  return execSync(`ps --ppid ${pid} -o pid=,args= || true`)
    .toString()
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Reads our SSE answer event by event. */
function events(res: Response) {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const seen: { type: string; [k: string]: unknown }[] = [];
  const done = (async () => {
    for (;;) {
      const { done: end, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (end) return seen;
      buffer += value;
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const data = buffer
          .slice(0, at)
          .split("\n")
          .find((l) => l.startsWith("data: "));
        buffer = buffer.slice(at + 2);
        if (data) seen.push(JSON.parse(data.slice(6)));
      }
    }
  })();
  return { seen, done };
}

test("a killed server makes npm start exit non-zero, so a supervisor restarts it", async () => {
  const app = await startApp({ TOOLSCOPE_MODE: "local" }, { script: "scripts/start.mjs" });
  const server = children(app.pid).find((l) => l.includes("scripts/server.mjs"));
  expect(server, children(app.pid).join("\n")).toBeTruthy();
  process.kill(Number(server!.split(" ")[0]), "SIGKILL");
  expect(await app.exited).toBe(137);
});

test("health: liveness and readiness answer without a browser's headers", async () => {
  const app = await startApp({ TOOLSCOPE_MODE: "local" });
  try {
    // As a load balancer asks: by address, no Origin, any Host.
    const live = await fetch(`${app.url}/api/health`, { headers: { host: "10.0.0.7:3000" } });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${app.url}/api/health?ready=1`);
    expect(ready.status).toBe(200);
    const body = await ready.json();
    expect(body.status).toBe("ready");
    expect(body.checks.snapshots.ok).toBe(true);
    expect(ready.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  } finally {
    await app.stop();
  }
});

test("SIGTERM: open streams end with an 'unavailable' event, an in-flight call finishes, stdio children end, exit 0", async () => {
  const app = await startApp(
    { TOOLSCOPE_MODE: "local", TOOLSCOPE_SHUTDOWN_GRACE_MS: "8000", TOOLSCOPE_STDIO_CONFIG: "playwright/fixtures/stdio-servers.json" },
    { script: "scripts/start.mjs" },
  );
  const headers = { "content-type": "application/json", origin: app.url };
  const post = (path: string, body: unknown, extra: Record<string, string> = {}) =>
    fetch(`${app.url}${path}`, { method: "POST", headers: { ...headers, ...extra }, body: JSON.stringify(body) });
  try {
    const server = children(app.pid).find((l) => l.includes("scripts/server.mjs"));
    const serverPid = Number(server!.split(" ")[0]);
    // A stdio server process, started by a connect.
    const stdio = await post("/api/connect", { url: "stdio:everything", era: "legacy", headers: {} });
    expect(stdio.status).toBe(200);
    const stdioPids = children(serverPid).map((l) => Number(l.split(" ")[0]));
    expect(stdioPids.length).toBeGreaterThan(0);

    const { connection } = await (await post("/api/connect", { url: "builtin:demo", era: "auto", headers: {} })).json();
    // A live-updates stream, and a long call (5 shards of the demo's reindex, with progress).
    const listen = events(
      await post(
        "/api/rpc",
        {
          connection,
          headers: {},
          message: { jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } },
        },
        { accept: "text/event-stream" },
      ),
    );
    await expect.poll(() => listen.seen.length).toBeGreaterThan(0);
    const call = post("/api/rpc", {
      connection,
      headers: {},
      message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "reindex", arguments: { steps: 3 } } },
    });

    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    app.kill("SIGTERM");

    const listenEvents = await listen.done;
    const last = listenEvents[listenEvents.length - 1] as { type: string; status?: number; body?: { error?: { kind?: string } } };
    expect(last.type).toBe("error");
    expect(last.status).toBe(503);
    expect(last.body?.error?.kind).toBe("unavailable");
    // The non-streamed call in flight was allowed to finish.
    const answered = await call;
    expect(answered.status).toBe(200);
    expect(JSON.stringify((await answered.json()).response.result)).toContain("indexed");

    expect(await app.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(alive(serverPid)).toBe(false);
    for (const pid of stdioPids) await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
    expect(app.log()).toContain("SIGTERM: shutting down");
  } finally {
    await app.stop();
  }
});
