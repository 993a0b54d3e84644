import { execSync } from "node:child_process";
import { expect, test } from "./test";
import { openPlayground, send, setRequest } from "./helpers";

// The app runs with TOOLSCOPE_STDIO_CONFIG=playwright/fixtures/stdio-servers.json (playwright.config.ts):
// "everything" is the published @modelcontextprotocol/server-everything, launched over stdio.
test.describe("local stdio servers", () => {
  test("GET /api/stdio lists the configured servers without command lines or env", async ({ request }) => {
    const res = await request.get("/api/stdio");
    expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
    const body = await res.json();
    expect(body.enabled).toBe(true);
    expect(body.servers).toContainEqual({ name: "everything", command: "node", argCount: 2 });
    expect(JSON.stringify(body)).not.toContain("server-everything/dist");
  });

  test("the API refuses anything but a configured name", async ({ request }) => {
    const asCommand = await request.post("/api/connect", { data: { url: "stdio:node -e 1" } });
    expect(asCommand.status()).toBe(400);
    const unknown = await request.post("/api/connect", { data: { url: "stdio:nope" } });
    expect(unknown.status()).toBe(400);
    expect((await unknown.json()).error.hint).toContain("stdio:everything");
  });

  test("connect, call echo and disconnect through the API", async ({ request }) => {
    const connected = await request.post("/api/connect", { data: { url: "stdio:everything", era: "auto" } });
    expect(connected.ok(), `${connected.status()} ${await connected.text()}`).toBe(true);
    const { connection, stderr } = await connected.json();
    expect(connection.stdioId).toBeTruthy();
    expect(stderr.join("\n")).toContain("Starting default (STDIO) server");
    const res = await request.post("/api/rpc", {
      data: {
        connection,
        message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { message: "via api" } } },
      },
    });
    expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
    const body = await res.json();
    expect(body.response.result.content[0].text).toBe("Echo: via api");
    expect(body.exchanges[0]).toMatchObject({ transport: "stdio", request: { method: "STDIO", url: "stdio:everything" } });
    const bye = await request.post("/api/disconnect", { data: { connection } });
    expect((await bye.json()).note).toContain('Stopped the stdio server "everything"');
    const after = await request.post("/api/rpc", { data: { connection, message: { jsonrpc: "2.0", id: 2, method: "ping" } } });
    expect(after.status()).toBe(502);
    expect((await after.json()).error.message).toContain("No running process");
  });

  test("from the home page to the playground: a tools/call echo over stdio", async ({ page }) => {
    await page.goto("/");
    const list = page.getByTestId("stdio-servers");
    await expect(list).toContainText("Local stdio servers");
    await expect(list.getByRole("link", { name: "stdio:everything" })).toHaveAttribute("href", "/playground?server=stdio%3Aeverything");

    await openPlayground(page, "stdio:everything", "echo");
    await expect(page.getByTestId("connection-era")).toContainText("legacy");
    await setRequest(
      page,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "echo", arguments: { message: "hello from the browser" } },
      }),
    );
    await send(page);
    await expect(page.getByTestId("rendered-result")).toContainText("Echo: hello from the browser");
    // The tab is named for what crossed the wire: no HTTP on stdio (issue 26).
    await expect(page.getByRole("tab", { name: /HTTP/ })).toHaveCount(0);
    await page.getByRole("tab", { name: /^stdio · \d+ ms/ }).click();
    await expect(page.getByTestId("http-exchange")).toContainText("STDIO");
    await expect(page.getByTestId("http-exchange")).toContainText("stdio:everything");
  });

  test("a second published server over stdio: server-memory's knowledge graph, through the API and its docs page", async ({
    request,
    page,
  }) => {
    const connected = await request.post("/api/connect", { data: { url: "stdio:memory", era: "auto" } });
    expect(connected.ok(), `${connected.status()} ${await connected.text()}`).toBe(true);
    const { connection } = await connected.json();
    const listed = await (await request.post("/api/tools", { data: { connection } })).json();
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(["create_entities", "search_nodes", "read_graph"]),
    );
    const name = `toolscope-e2e-${Date.now()}`;
    const call = (id: number, tool: string, args: unknown) =>
      request
        .post("/api/rpc", {
          data: { connection, message: { jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: args } } },
        })
        .then((r) => r.json());
    const created = await call(1, "create_entities", { entities: [{ name, entityType: "test", observations: ["made by the stdio e2e"] }] });
    expect(created.response.result.isError ?? false).toBe(false);
    const found = await call(2, "search_nodes", { query: name });
    expect(JSON.stringify(found.response.result)).toContain("made by the stdio e2e");
    await request.post("/api/disconnect", { data: { connection } });

    await page.goto(`/docs?server=${encodeURIComponent("stdio:memory")}`);
    await expect(page.getByTestId("tool-index").getByTestId("tool-row-create_entities")).toBeVisible();
  });

  test("each docs view of a stdio server stops the process it started: more views than TOOLSCOPE_STDIO_MAX_PROCESSES all render", async ({
    page,
  }) => {
    test.setTimeout(120_000);
    // The default cap is 8 processes; before, every view left one running and the 9th failed with rate-limited. Now
    // the cap also stops the longest unused process to make room, so the views alone would render either way: the
    // count of running server-memory processes is what shows each view stopped its own.
    const running = () => Number(execSync("pgrep -fc 'server-memory/dist/index[.]js' || true").toString().trim() || 0);
    const before = running();
    for (let view = 1; view <= 10; view++) {
      const res = await page.goto(`/docs?server=${encodeURIComponent("stdio:memory")}&view=${view}`);
      expect(res?.status(), `view ${view}`).toBe(200);
      await expect(page.getByTestId("tool-index").getByTestId("tool-row-create_entities")).toBeVisible();
    }
    await expect.poll(running, { message: "server-memory processes left running by the views" }).toBeLessThanOrEqual(before);
  });
});
