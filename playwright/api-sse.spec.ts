import { expect, test } from "./test";
import type { APIRequestContext } from "@playwright/test";
import type { ConnectionDescriptor, HttpExchange, RpcStreamEvent } from "@/lib/mcp/contract";
import { expectEditor, setRequest, send } from "./helpers";

/**
 * The deprecated HTTP+SSE transport (2024-11-05) through the proxy, against the published
 * @modelcontextprotocol/server-everything started in its `sse` mode (SSE_EVERYTHING_URL, .../sse).
 */

const sseUrl = () => process.env.SSE_EVERYTHING_URL!;

async function connect(request: APIRequestContext, era: string) {
  const res = await request.post("/api/connect", { data: { url: sseUrl(), era } });
  return { status: res.status(), body: await res.json() };
}

/** Our streamed /api/rpc read with Node's fetch: every event, in arrival order. */
async function streamRpc(baseURL: string, body: unknown): Promise<RpcStreamEvent[]> {
  const res = await fetch(`${baseURL}/api/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", origin: new URL(String(baseURL)).origin },
    body: JSON.stringify(body),
  });
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const text = await res.text();
  return text
    .split("\n\n")
    .map((block) => block.split("\n").find((l) => l.startsWith("data: ")))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as RpcStreamEvent);
}

test.describe("HTTP+SSE (2024-11-05) servers", () => {
  test("auto falls back after two refused POSTs: era legacy, transport sse; the GET and its endpoint event are shown", async ({
    request,
  }) => {
    const { status, body } = await connect(request, "auto");
    expect(status).toBe(200);
    expect(body.connection).toMatchObject({ era: "legacy", transport: "sse", url: sseUrl() });
    expect(body.server.serverInfo.name).toBe("mcp-servers/everything");
    const exchanges = body.exchanges as HttpExchange[];
    expect(exchanges.slice(0, 3).map((x) => `${x.request.method} ${x.response?.status}`)).toEqual(["POST 404", "POST 404", "GET 200"]);
    expect(exchanges[2].response!.sseEvents[0]).toMatchObject({ event: "endpoint", data: expect.stringMatching(/^\/message\?sessionId=/) });
    expect(exchanges.slice(3).map((x) => x.request.method)).toEqual(["POST", "POST"]); // initialize, notifications/initialized
  });

  test("tools, a call, and a long call whose progress streams through /api/rpc; disconnect has nothing to end", async ({
    request,
    baseURL,
  }) => {
    const { body } = await connect(request, "legacy-sse");
    const connection = body.connection as ConnectionDescriptor;
    expect(connection.transport).toBe("sse");

    const list = await (await request.post("/api/tools", { data: { connection, fresh: true } })).json();
    const names = (list.tools as { name: string }[]).map((t) => t.name);
    for (const name of ["echo", "get-sum", "trigger-long-running-operation"]) expect(names).toContain(name);

    const echo = await (
      await request.post("/api/rpc", {
        data: {
          connection,
          message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "through the proxy" } } },
        },
      })
    ).json();
    expect(echo.response.result.content[0].text).toBe("Echo: through the proxy");
    expect(echo.notes[0]).toMatch(/fresh session for this call/);
    expect((echo.exchanges as HttpExchange[])[0].request.method).toBe("GET");

    const message = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 }, _meta: { progressToken: "sse-p" } },
    };
    const events = await streamRpc(baseURL!, { connection, message });
    const progress = events.filter((e) => e.type === "notification" && e.message.method === "notifications/progress");
    expect(progress).toHaveLength(4);
    expect(events.some((e) => e.type === "upstream-event" && e.event.event === "endpoint")).toBe(true);
    const last = events.at(-1)!;
    expect(last.type).toBe("result");
    expect(last.type === "result" && last.body.response?.result).toBeTruthy();
    // Relayed as they came, not gathered at the end: the first progress precedes the result in the stream.
    expect(events.indexOf(progress[0])).toBeLessThan(events.length - 1);

    const bye = await (await request.post("/api/disconnect", { data: { connection } })).json();
    expect(bye).toMatchObject({ ok: true, ended: true, exchanges: [] });
  });

  test("a modern pin fails loudly (no fallback), and stdio cannot be pinned to HTTP+SSE", async ({ request }) => {
    const modern = await connect(request, "modern");
    expect(modern.status).toBe(502);
    expect(modern.body.error.kind).toBe("upstream-protocol");
    expect((modern.body.error.exchanges as HttpExchange[]).every((x) => x.request.method === "POST")).toBe(true);

    const stdio = await request.post("/api/connect", { data: { url: "stdio:everything", era: "legacy-sse" } });
    expect(stdio.status()).toBe(400);
    expect((await stdio.json()).error.message).toMatch(/legacy-sse is an HTTP transport/);
  });

  test("from the home page to a tool call in the playground", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("MCP server URL").fill(sseUrl());
    await page.getByLabel("Protocol era").selectOption("legacy-sse");
    await page.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByTestId("server-era")).toContainText("legacy");
    await expect(page.getByTestId("tool-index").getByTestId("tool-row-echo")).toBeVisible();
    // The docs page of the server (its own URL, era auto) says it is on the deprecated transport.
    await page.goto(`/docs?server=${encodeURIComponent(sseUrl())}`);
    const badge = page.getByTestId("server-transport");
    await expect(badge).toHaveText("legacy · HTTP+SSE (deprecated)");
    await expect(badge).toHaveAttribute("title", /HTTP\+SSE transport of 2024-11-05, deprecated/);
    // Its tool pages' "Copy as curl" is the stream script, and says so.
    await page.goto(`/docs/tools/echo?server=${encodeURIComponent(sseUrl())}`);
    await expect(page.getByTestId("copy-curl").locator("xpath=..")).toContainText("deprecated HTTP+SSE transport");

    await page.goto(`/playground?server=${encodeURIComponent(sseUrl())}&tool=echo`);
    await expectEditor(page);
    await expect(page.getByTestId("connection-era")).toContainText("HTTP+SSE");
    await setRequest(
      page,
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "hello over sse" } } }),
    );
    await send(page);
    await expect(page.getByTestId("rendered-result")).toContainText("Echo: hello over sse");
    // Copy as code: not one POST to the stream URL but a script that opens the stream; the SDK's SSE transport in TypeScript.
    await page.getByTestId("copy-code-button").click();
    const dialog = page.getByTestId("copy-as-code");
    await expect(dialog.getByTestId("code-snippet")).toContainText(`curl -sSN '${sseUrl()}' -H 'Accept: text/event-stream'`);
    await expect(dialog.getByTestId("sse-code-note")).toBeVisible();
    await dialog.getByText("TypeScript (SDK)").click();
    await expect(dialog.getByTestId("code-snippet")).toContainText("new SSEClientTransport(");
    await page.keyboard.press("Escape");
    await expect(page.getByRole("note").filter({ hasText: "fresh session for this call" })).toBeVisible();
    await page.getByRole("tab", { name: /HTTP/ }).click();
    await expect(page.getByTestId("http-exchange")).toContainText("GET");
  });
});
