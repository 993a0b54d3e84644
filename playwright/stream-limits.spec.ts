import { expect, test } from "./test";
import type { APIRequestContext } from "@playwright/test";

/**
 * Upstream event streams through the proxy, against a real MCP server that streams without keep-alive comments
 * (playwright/fixtures/misbehaving-server.ts, `/stalling`). The suite runs with TOOLSCOPE_REQUEST_TIMEOUT_MS=5000
 * and TOOLSCOPE_STREAM_IDLE_MS=20000 (playwright.config.ts).
 */
const REQUEST_TIMEOUT_MS = 5_000;
const STREAM_IDLE_MS = 20_000;

async function connectStalling(request: APIRequestContext) {
  const res = await request.post("/api/connect", { data: { url: `${process.env.MISBEHAVING_BASE}/stalling`, era: "modern" } });
  expect(res.status()).toBe(200);
  return (await res.json()).connection;
}

const call = (id: number, name: string, args: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: { progressToken: `p${id}` } },
});

/** The events of a streamed /api/rpc answer, in order. */
function streamEvents(text: string): { type: string; [k: string]: unknown }[] {
  return text
    .split("\n\n")
    .map((block) => block.split("\n").find((l) => l.startsWith("data: ")))
    .filter((l): l is string => l !== undefined)
    .map((l) => JSON.parse(l.slice(6)));
}

test.describe("upstream stream limits", () => {
  test.describe.configure({ timeout: 90_000 });

  test("a call that keeps sending progress runs past the request timeout and answers", async ({ request }) => {
    const connection = await connectStalling(request);
    const started = Date.now();
    const res = await request.post("/api/rpc", {
      data: { connection, message: call(1, "tick", { count: 7, interval_ms: 1_000 }) },
      headers: { accept: "text/event-stream" },
      timeout: 60_000,
    });
    const events = streamEvents(await res.text());
    expect(Date.now() - started).toBeGreaterThan(REQUEST_TIMEOUT_MS + 1_000);
    expect(events.filter((e) => e.type === "notification")).toHaveLength(7);
    const result = events.at(-1) as { type: string; body: { response: { result: { content: { text: string }[] } } } };
    expect(result.type).toBe("result");
    expect(result.body.response.result.content[0].text).toBe("ticked 7 times");
  });

  test("a call whose event stream goes silent is cut after TOOLSCOPE_STREAM_IDLE_MS with upstream-timeout", async ({ request }) => {
    const connection = await connectStalling(request);
    const started = Date.now();
    const res = await request.post("/api/rpc", {
      data: { connection, message: call(2, "stall", {}) },
      headers: { accept: "text/event-stream" },
      timeout: 60_000,
    });
    const events = streamEvents(await res.text());
    const took = Date.now() - started;
    test.info().annotations.push({ type: "silent stream cut after", description: `${took} ms` });
    expect(took).toBeGreaterThanOrEqual(STREAM_IDLE_MS);
    expect(took).toBeLessThan(STREAM_IDLE_MS + 10_000);
    // The one progress notification came through live, then the error.
    expect(events.filter((e) => e.type === "notification")).toHaveLength(1);
    const error = events.at(-1) as {
      type: string;
      status: number;
      body: { error: { kind: string; message: string; hint: string; exchanges: unknown[] } };
    };
    expect(error.type).toBe("error");
    expect(error.status).toBe(504);
    expect(error.body.error.kind).toBe("upstream-timeout");
    expect(error.body.error.message).toBe(
      `The streamed response went silent: nothing arrived (no event, no keep-alive comment) for ${STREAM_IDLE_MS} ms (TOOLSCOPE_STREAM_IDLE_MS), so Toolscope closed it.`,
    );
    expect(error.body.error.hint).toContain("TOOLSCOPE_STREAM_IDLE_MS");
    expect(error.body.error.exchanges.length).toBeGreaterThan(0);
  });
});
