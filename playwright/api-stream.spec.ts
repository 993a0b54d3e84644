import { expect, test } from "./test";

interface Arrival {
  at: number;
  type: string;
  data: Record<string, unknown>;
}

/** Read our streamed /api/rpc with Node's fetch, noting when each event arrived. */
async function streamRpc(baseURL: string, body: unknown, signal?: AbortSignal): Promise<Arrival[]> {
  const started = Date.now();
  const res = await fetch(`${baseURL}/api/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", origin: new URL(String(baseURL)).origin },
    body: JSON.stringify(body),
    signal,
  });
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const out: Arrival[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n").find((l) => l.startsWith("data: "));
      if (data) {
        const parsed = JSON.parse(data.slice(6));
        out.push({ at: Date.now() - started, type: parsed.type, data: parsed });
      }
    }
  }
  return out;
}

test("a long call streams its progress to the browser as it happens, then the result", async ({ request, baseURL }) => {
  const { connection } = await (await request.post("/api/connect", { data: { url: "builtin:demo" } })).json();
  const message = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "reindex", arguments: { steps: 5 }, _meta: { progressToken: "p1" } },
  };
  const events = await streamRpc(baseURL!, { connection, message });
  const progress = events.filter(
    (e) => e.type === "notification" && (e.data.message as { method?: string }).method === "notifications/progress",
  );
  const result = events.find((e) => e.type === "result");
  expect(progress.length).toBeGreaterThanOrEqual(5);
  expect(result).toBeTruthy();
  expect(events.at(-1)?.type).toBe("result");
  // Relayed, not buffered: the first progress arrives well before the result (5 steps of ~200 ms).
  expect(result!.at - progress[0].at).toBeGreaterThan(400);
  expect(events.some((e) => e.type === "upstream-event")).toBe(true);
});

test("a streamed call opens with its stream id; a tools/call without a progress token gets one (listed as added), a plain call does not", async ({
  request,
  baseURL,
}) => {
  const { connection } = await (await request.post("/api/connect", { data: { url: "builtin:demo" } })).json();
  const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "reindex", arguments: { steps: 2 } } };
  const events = await streamRpc(baseURL!, { connection, message });
  expect(events[0].type).toBe("stream");
  expect(events[0].data.streamId).toMatch(/^[0-9a-f-]{36}$/);
  const body = events.at(-1)!.data.body as {
    sent: { params: { _meta: { progressToken?: unknown } } };
    added: { name: string }[];
    notifications: { method: string }[];
  };
  expect(body.sent.params._meta.progressToken).toBeTruthy();
  expect(body.added.map((a) => a.name)).toContain("/params/_meta/progressToken");
  expect(body.notifications.some((n) => n.method === "notifications/progress")).toBe(true);
  const plain = await (await request.post("/api/rpc", { data: { connection, message } })).json();
  expect(plain.sent.params._meta.progressToken).toBeUndefined();
});

test("a streamed failure ends with a typed error event; cancelling a stream leaves the proxy healthy", async ({ request, baseURL }) => {
  const connection = { v: 1, url: `http://127.0.0.1:${process.env.CLOSED_PORT}/mcp`, era: "modern", protocolVersion: "2026-07-28" };
  const events = await streamRpc(baseURL!, { connection, message: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
  expect(events.at(-1)?.type).toBe("error");
  expect((events.at(-1)!.data.body as { error: { kind: string } }).error.kind).toBe("upstream-unreachable");

  const demo = (await (await request.post("/api/connect", { data: { url: "builtin:demo" } })).json()).connection;
  const ctrl = new AbortController();
  const long = streamRpc(
    baseURL!,
    { connection: demo, message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "reindex", arguments: { steps: 20 } } } },
    ctrl.signal,
  );
  setTimeout(() => ctrl.abort(), 300);
  await expect(long).rejects.toThrow();
  const after = await request.post("/api/rpc", { data: { connection: demo, message: { jsonrpc: "2.0", id: 3, method: "tools/list" } } });
  expect(after.status()).toBe(200);
});
