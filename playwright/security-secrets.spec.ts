import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApp } from "./fixtures/app-instance";
import { expect, test } from "./test";

/**
 * A whole session with a known token in a header and another in the server URL's query, on an instance of its own;
 * then the server log, the snapshot database (with its WAL) and every export are searched for either token.
 */
test("no token from a header or a URL query reaches the log, the snapshot store or an export", async ({ playwright }) => {
  const headerToken = `hdr${Date.now()}SECRETvalue`;
  const queryToken = `qry${Date.now()}SECRETvalue`;
  const dataDir = mkdtempSync(join(tmpdir(), "toolscope-secrets-"));
  const app = await startApp({ TOOLSCOPE_MODE: "local", TOOLSCOPE_DATA_DIR: dataDir });
  const api = await playwright.request.newContext({ baseURL: app.url, extraHTTPHeaders: { origin: app.url } });
  try {
    // The demo, reached over real HTTP at an address that carries a key in its query.
    const server = `${app.url}/api/demo/mcp?api_key=${queryToken}&page=1`;
    const headers = { Authorization: `Bearer ${headerToken}`, "X-Api-Key": headerToken };
    const connect = await api.post("/api/connect", { data: { url: server, era: "auto", headers } });
    expect(connect.status()).toBe(200);
    const { connection } = await connect.json();
    expect((await api.post("/api/tools", { data: { connection, headers } })).status()).toBe(200);
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_issues", arguments: { query: "login" } } };
    const rpc = await api.post("/api/rpc", { data: { connection, headers, message: call } });
    expect(rpc.status()).toBe(200);
    expect(await rpc.text()).not.toContain(headerToken);
    // A failure that is logged: a web page, not an MCP server, at a URL with a token.
    const notMcp = await api.post("/api/connect", { data: { url: `${app.url}/?token=${queryToken}`, era: "auto", headers } });
    expect(notMcp.status()).toBe(502);
    // The message is shown and logged: no token. (The recorded exchange shows the user their own request as sent.)
    expect((await notMcp.json()).error.message).not.toContain(queryToken);

    const shared = await api.post("/api/snapshots", { data: { server } });
    expect(shared.status()).toBe(200);
    const { id, url } = await shared.json();
    expect(url).not.toContain(queryToken);
    const pages = [`/s/${id}`, `/s/${id}/tools/search_issues`, `/s/${id}/export.md`, `/s/${id}/export.json`, `/s/${id}/export.html`];
    for (const path of pages) {
      const res = await api.get(path);
      expect(res.status(), path).toBe(200);
      const text = await res.text();
      expect(text, path).toContain("api/demo/mcp");
      expect(text, path).not.toContain(queryToken);
      expect(text, path).not.toContain(headerToken);
    }
  } finally {
    await api.dispose();
    await app.stop();
  }
  const log = app.log();
  expect(log).toContain("upstream failure");
  // One line per request, with its id, route and status (and never the query).
  expect(log).toMatch(
    /INFO +request requestId=[0-9a-f-]{36} method=POST route=\/api\/connect status=200 durationMs=\d+ upstreamHost=127\.0\.0\.1:\d+/,
  );
  expect(log).not.toContain(queryToken);
  expect(log).not.toContain(headerToken);
  const files = readdirSync(dataDir);
  expect(files).toContain("snapshots.sqlite");
  let all = "";
  for (const f of files) {
    const bytes = readFileSync(join(dataDir, f)).toString("latin1");
    expect(bytes, f).not.toContain(queryToken);
    expect(bytes, f).not.toContain(headerToken);
    all += bytes;
  }
  // The search looked at the stored snapshot itself (the database and its write-ahead log).
  expect(all).toContain("search_issues");
  rmSync(dataDir, { recursive: true, force: true });
});
