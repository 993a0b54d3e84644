import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { expect, test } from "./test";
import { shootSizes, watchConsole } from "./helpers";
import { serverToolNames } from "./fixtures/server-tool-names";
import { readFileSync } from "node:fs";

const servers = JSON.parse(readFileSync("playwright/fixtures/stdio-servers.json", "utf8")) as {
  mcpServers: Record<string, { args: string[]; env: Record<string, string> }>;
};

/**
 * Docs and playground name the same tools as the server's own tools/list, on published servers nobody here wrote
 * (issue 26: the docs of server-everything said 13 tools, the playground 17, and the playground's docs links for the
 * other four answered 404). The server is asked directly, through the official SDK, as a client declaring what the
 * playground declares.
 */

type Target = { name: string; server: () => string; direct: () => StreamableHTTPClientTransport | StdioClientTransport };

const TARGETS: Target[] = [
  {
    name: "server-everything over Streamable HTTP",
    server: () => process.env.EVERYTHING_URL!,
    direct: () => new StreamableHTTPClientTransport(new URL(process.env.EVERYTHING_URL!)),
  },
  {
    name: "server-everything over stdio",
    server: () => "stdio:everything",
    direct: () => new StdioClientTransport({ command: process.execPath, args: servers.mcpServers.everything.args }),
  },
  {
    name: "server-memory over stdio",
    server: () => "stdio:memory",
    direct: () =>
      new StdioClientTransport({
        command: process.execPath,
        args: servers.mcpServers.memory.args,
        env: { ...servers.mcpServers.memory.env },
      }),
  },
];

for (const target of TARGETS) {
  test(`${target.name}: the docs, the explorer and the server's own tools/list name the same tools; every docs link resolves`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const said = watchConsole(page);
    const expected = await serverToolNames(target.direct());
    expect(expected.length).toBeGreaterThan(0);
    const server = target.server();

    await page.goto(`/docs?server=${encodeURIComponent(server)}`);
    const rows = page.locator('[data-testid="tool-index"] [data-testid^="tool-row-"]');
    await expect(rows.first()).toBeVisible();
    const docs = (await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")!.slice("tool-row-".length)))).sort();
    expect(docs, "the docs list the server's tools").toEqual(expected);
    if (!server.startsWith("stdio:")) await shootSizes(page, "test-results/real-server", "docs-everything");

    await page.goto(`/playground?server=${encodeURIComponent(server)}`);
    const items = page.getByTestId("explorer-tool");
    await expect(items.first()).toBeVisible({ timeout: 30_000 });
    const explorer = (await items.evaluateAll((els) => els.map((e) => e.getAttribute("data-tool")!))).sort();
    expect(explorer, "the explorer lists the server's tools").toEqual(expected);

    // Every tool's docs page answers (the explorer links each one there). Over stdio each page starts the process
    // anew (about a second): the first, the last and the ones a client without capabilities would not see.
    const checked = server.startsWith("stdio:")
      ? expected.filter((n, i) => i === 0 || i === expected.length - 1 || /elicitation|sampling|roots/.test(n))
      : expected;
    for (const name of checked) {
      const res = await page.request.get(`/docs/tools/${encodeURIComponent(name)}?server=${encodeURIComponent(server)}`);
      expect(res.status(), `docs page of ${name}`).toBe(200);
    }
    expect(said, "console errors and warnings").toEqual([]);
  });
}
