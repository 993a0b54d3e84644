import { expect, test } from "./test";
import type { APIRequestContext } from "@playwright/test";

/**
 * subscriptions/listen end to end: through streamed /api/rpc, and the live docs page that re-renders when the
 * demo server's tool list changes. The demo's beta switch is process-wide: every test leaves it off.
 */

const DEMO = "builtin:demo";
const BETA_TOOL = "beta_summarize_issue";

interface StreamEvent {
  type: string;
  message?: { method?: string; params?: Record<string, unknown> };
  body?: unknown;
}

async function demoConnection(request: APIRequestContext) {
  const res = await request.post("/api/connect", { data: { url: DEMO, era: "modern" } });
  expect(res.status()).toBe(200);
  return (await res.json()).connection as Record<string, unknown>;
}

async function toggleBeta(request: APIRequestContext, connection: Record<string, unknown>, enabled: boolean) {
  const res = await request.post("/api/rpc", {
    data: {
      connection,
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "toggle_beta_tools", arguments: { enabled } } },
    },
  });
  expect(res.status()).toBe(200);
  const rpc = await res.json();
  expect(rpc.response.result.structuredContent.enabled).toBe(enabled);
  return rpc.response.result.structuredContent as { enabled: boolean; changed: boolean };
}

/** An open listen stream through our API; `next()` waits for the next event, `close()` ends the subscription. */
async function openListen(baseURL: string, connection: Record<string, unknown>, id: number) {
  const ctrl = new AbortController();
  const res = await fetch(`${baseURL}/api/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", origin: new URL(String(baseURL)).origin },
    body: JSON.stringify({
      connection,
      message: { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } },
    }),
    signal: ctrl.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const queue: StreamEvent[] = [];
  let buffer = "";
  return {
    async next(): Promise<StreamEvent> {
      while (queue.length === 0) {
        const { done, value } = await reader.read();
        if (done) throw new Error("the listen stream ended");
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .find((l) => l.startsWith("data: "));
          buffer = buffer.slice(end + 2);
          // The stream's id (for /api/rpc/answer and /api/rpc/cancel) opens every streamed call: framing, not content.
          if (data && JSON.parse(data.slice(6)).type !== "stream") queue.push(JSON.parse(data.slice(6)));
        }
      }
      return queue.shift()!;
    },
    /** The next relayed JSON-RPC notification (skipping the raw upstream-event copies). */
    async nextNotification() {
      for (;;) {
        const e = await this.next();
        if (e.type === "notification") return e.message!;
        if (e.type !== "upstream-event") throw new Error(`unexpected ${e.type} event: ${JSON.stringify(e)}`);
      }
    },
    close() {
      ctrl.abort();
      reader.cancel().catch(() => undefined);
    },
  };
}

/** Turns the beta tools off with a listen stream open, so the proxy's caches hear about it too. */
async function betaOff(request: APIRequestContext, baseURL: string) {
  const connection = await demoConnection(request);
  const listen = await openListen(baseURL, connection, 999);
  try {
    await listen.nextNotification(); // the acknowledgment
    const { changed } = await toggleBeta(request, connection, false);
    if (changed) expect((await listen.nextNotification()).method).toBe("notifications/tools/list_changed");
  } finally {
    listen.close();
  }
}

test.describe("subscriptions/listen", () => {
  test.afterAll(async ({ request, baseURL }) => {
    await betaOff(request, baseURL!);
  });

  test("streamed: the acknowledgment with the subscriptionId comes first, then list_changed; the cached list is invalidated", async ({
    request,
    baseURL,
  }) => {
    const connection = await demoConnection(request);
    const before = await (await request.post("/api/tools", { data: { connection } })).json();
    expect(before.tools.map((t: { name: string }) => t.name)).not.toContain(BETA_TOOL);

    const listen = await openListen(baseURL!, connection, 7);
    try {
      const first = await listen.next();
      // Nothing before the acknowledgment but its own raw upstream copy.
      const ack = first.type === "upstream-event" ? await listen.nextNotification() : first.message!;
      expect(ack.method).toBe("notifications/subscriptions/acknowledged");
      const params = ack.params as { _meta: Record<string, unknown>; notifications: unknown };
      expect(params._meta["io.modelcontextprotocol/subscriptionId"]).toBe(7);
      expect(params.notifications).toEqual({ toolsListChanged: true });

      await toggleBeta(request, connection, true);
      const changed = await listen.nextNotification();
      expect(changed.method).toBe("notifications/tools/list_changed");
      expect((changed.params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/subscriptionId"]).toBe(7);

      // Not `fresh`: the proxy dropped its cached list when the notification passed, so this is the new one.
      const after = await (await request.post("/api/tools", { data: { connection } })).json();
      expect(after.cache.hit).toBe(false);
      expect(after.tools.map((t: { name: string }) => t.name)).toContain(BETA_TOOL);

      await toggleBeta(request, connection, false);
      expect((await listen.nextNotification()).method).toBe("notifications/tools/list_changed");
    } finally {
      listen.close();
    }
  });

  test("a JSON (non-streamed) subscriptions/listen is refused with what to do instead", async ({ request }) => {
    const connection = await demoConnection(request);
    const res = await request.post("/api/rpc", {
      data: {
        connection,
        message: { jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } },
      },
    });
    expect(res.status()).toBe(400);
    const body = await res.json();
    expect(body.error.kind).toBe("bad-request");
    expect(body.error.message).toContain("open subscriptions/listen with Accept: text/event-stream");
  });

  test("the live docs page re-renders when the tool list changes", async ({ page, request }) => {
    await page.goto(`/docs?server=${encodeURIComponent(DEMO)}`);
    const chip = page.getByTestId("live-updates");
    // The island connects after hydration, which a busy machine can delay.
    await expect(chip).toHaveText(/Live: listening for tool changes \(subscription \d+\)/, { timeout: 30_000 });
    await expect(chip).toHaveAttribute("data-state", "subscribed");
    await expect(page.getByTestId("tool-row-toggle_beta_tools")).toBeVisible();
    await expect(page.getByTestId(`tool-row-${BETA_TOOL}`)).toHaveCount(0);

    const connection = await demoConnection(request);
    await toggleBeta(request, connection, true);
    await expect(page.getByTestId(`tool-row-${BETA_TOOL}`)).toBeVisible();
    await expect(page.getByTestId("live-notice")).toContainText("Tool list changed");
    await expect(chip).toHaveAttribute("data-state", "subscribed");

    // The tool's own page listens too, and follows the tool away.
    await page.getByTestId(`tool-row-${BETA_TOOL}`).getByRole("link").first().click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/Summarize issue/);
    await expect(page.getByTestId("live-updates")).toHaveAttribute("data-state", "subscribed", { timeout: 30_000 });
    await toggleBeta(request, connection, false);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`No tool named "${BETA_TOOL}"`);

    await page.goto(`/docs?server=${encodeURIComponent(DEMO)}`);
    await expect(page.getByTestId("live-updates")).toHaveAttribute("data-state", "subscribed", { timeout: 30_000 });
    await expect(page.getByTestId(`tool-row-${BETA_TOOL}`)).toHaveCount(0);
  });
});
