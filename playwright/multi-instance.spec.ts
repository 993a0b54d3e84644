import type { APIRequestContext } from "@playwright/test";
import { servicesForTests } from "../scripts/test-services.mjs";
import { startApp, type AppInstance } from "./fixtures/app-instance";
import { startTestProxy } from "./fixtures/test-proxy";
import { expect, test } from "./test";

/**
 * Two hosted instances behind a reverse proxy, sharing one PostgreSQL (snapshots) and one Redis (rate limits,
 * tool-list cache, list_changed), started from Debian's packages by scripts/test-services.mjs. An upstream MCP
 * server whose tool list changes is a third, local instance serving the demo over HTTP.
 */
test.describe("several instances on PostgreSQL and Redis", () => {
  test.describe.configure({ timeout: 120_000 });
  let services: Awaited<ReturnType<typeof servicesForTests>>;
  let proxy: Awaited<ReturnType<typeof startTestProxy>>;
  let upstream: AppInstance;
  let instances: AppInstance[] = [];
  let api: APIRequestContext;
  let upstreamMcp: string;

  test.beforeAll(async ({ playwright }) => {
    services = await servicesForTests({ postgres: true, redis: true });
    test.skip(!services.databaseUrl || !services.redisUrl, `needs PostgreSQL and Redis: ${JSON.stringify(services.unavailable)}`);
    upstream = await startApp({ TOOLSCOPE_MODE: "local" });
    upstreamMcp = `${upstream.url}/api/demo/mcp`;
    proxy = await startTestProxy();
    const env = {
      TOOLSCOPE_MODE: "hosted",
      TOOLSCOPE_PUBLIC_URL: proxy.url,
      TOOLSCOPE_TRUST_PROXY: "1",
      DATABASE_URL: services.databaseUrl!,
      REDIS_URL: services.redisUrl!,
      TOOLSCOPE_RATE_CONNECT_PER_MIN: "6",
      // The upstream demo is on loopback: allowed by name, as an on-premise deployment would.
      TOOLSCOPE_EGRESS_ALLOW: new URL(upstream.url).host,
    };
    instances = await Promise.all([startApp(env), startApp(env)]);
    proxy.upstreams.push(...instances.map((i) => i.url));
    api = await playwright.request.newContext({ baseURL: proxy.url, extraHTTPHeaders: { origin: proxy.url } });
  });

  test.afterAll(async () => {
    await api?.dispose();
    await Promise.all(instances.map((i) => i.stop()));
    await upstream?.stop();
    await proxy?.stop();
    await services?.stop();
  });

  /** Addressed to instance `i`, as client `client` (each test is its own client: rate limits are per client). */
  const on = (i: number, client = "203.0.113.1") => ({ "x-test-instance": String(i), "x-test-client": client });

  test("a snapshot shared on one instance opens on the other", async () => {
    const shared = await api.post("/api/snapshots", { data: { server: "builtin:demo" }, headers: on(0) });
    expect(shared.status()).toBe(200);
    const { id, url } = await shared.json();
    expect(url).toBe(`${proxy.url}/s/${id}`);
    const page = await api.get(`/s/${id}`, { headers: on(1) });
    expect(page.status()).toBe(200);
    expect(await page.text()).toContain("Toolscope demo issue tracker");
  });

  test("a rate limit holds across both instances", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await api.post("/api/connect", {
        data: { url: "builtin:demo", era: "auto", headers: {} },
        headers: on(i % 2, "203.0.113.2"),
      });
      statuses.push(res.status());
    }
    // 6 a minute for this client, counted in Redis: instance 0 and 1 take turns, and the 7th is refused wherever it lands.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
  });

  test("a list_changed heard by one instance refreshes the docs the other serves", async () => {
    const docsOn1 = async () => (await api.get(`/docs?server=${encodeURIComponent(upstreamMcp)}`, { headers: on(1) })).text();
    const BETA_ROW = 'data-testid="tool-row-beta_summarize_issue"';
    expect(await docsOn1()).not.toContain(BETA_ROW);

    // On instance 0: a live-updates stream on the upstream, then the call that changes its tool list.
    const connect = await api.post("/api/connect", { data: { url: upstreamMcp, era: "auto", headers: {} }, headers: on(0, "203.0.113.3") });
    expect(connect.status()).toBe(200);
    const { connection } = await connect.json();
    const listen = await fetch(`${proxy.url}/api/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", origin: proxy.url, ...on(0, "203.0.113.3") },
      body: JSON.stringify({
        connection,
        headers: {},
        message: { jsonrpc: "2.0", id: 7, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } },
      }),
    });
    const reader = listen.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const until = async (text: string) => {
      while (!seen.includes(text)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`the listen stream ended before ${text}`);
        seen += value;
      }
    };
    await until("notifications/subscriptions/acknowledged");
    const toggle = await api.post("/api/rpc", {
      data: {
        connection,
        headers: {},
        message: { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "toggle_beta_tools", arguments: { enabled: true } } },
      },
      headers: on(0, "203.0.113.3"),
    });
    expect(toggle.status()).toBe(200);
    await until("notifications/tools/list_changed");
    await reader.cancel();

    // Instance 1 cached that page for up to 30 s; the event over Redis made it fetch again.
    await expect.poll(docsOn1, { timeout: 10_000 }).toContain(BETA_ROW);
  });

  test("a change nobody announced, found by Share on one instance, refreshes the docs the other serves", async () => {
    // Follows the test above: the upstream lists the beta tool, and both instances have listed it.
    const docsOn0 = async () =>
      (await api.get(`/docs?server=${encodeURIComponent(upstreamMcp)}`, { headers: on(0, "203.0.113.4") })).text();
    const BETA_ROW = 'data-testid="tool-row-beta_summarize_issue"';
    expect(await docsOn0()).toContain(BETA_ROW);
    const upstreamApi = await fetch(`${upstream.url}/api/connect`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: upstream.url },
      body: JSON.stringify({ url: "builtin:demo", era: "auto" }),
    });
    const { connection } = (await upstreamApi.json()) as { connection: unknown };
    // Removed on the upstream itself, with nobody listening: no instance hears a list_changed.
    const off = await fetch(`${upstream.url}/api/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: upstream.url },
      body: JSON.stringify({
        connection,
        message: { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "toggle_beta_tools", arguments: { enabled: false } } },
      }),
    });
    expect(off.status).toBe(200);

    // Share on instance 1 fetches past every cache and finds another list: instance 0's docs follow (told over Redis;
    // the listen stream of the test above may still be closing and tell it too).
    const shared = await api.post("/api/snapshots", { data: { server: upstreamMcp }, headers: on(1, "203.0.113.5") });
    expect(shared.status()).toBe(200);
    const { id, fetchedAt } = (await shared.json()) as { id: string; fetchedAt: string };
    expect(Date.now() - Date.parse(fetchedAt)).toBeLessThan(30_000);
    const stored = (await (await api.get(`/s/${id}/export.json`, { headers: on(1) })).json()) as { list: { tools: { name: string }[] } };
    expect(stored.list.tools.map((t) => t.name)).not.toContain("beta_summarize_issue");
    await expect.poll(docsOn0, { timeout: 10_000 }).not.toContain(BETA_ROW);
  });

  test("killing an instance loses no acknowledged snapshot", async () => {
    // Distinct definitions per share: the demo's page size changes the list's pages, so each is its own snapshot.
    const acknowledged: string[] = [];
    const shares = Array.from({ length: 12 }, async (_, i) => {
      await new Promise((r) => setTimeout(r, i * 60));
      const res = await api
        .post("/api/snapshots", { data: { server: `${upstreamMcp}?n=${i}` }, headers: on(0, `198.51.100.${i + 1}`) })
        .catch(() => undefined);
      if (res?.status() === 200) acknowledged.push((await res.json()).id);
    });
    // Killed while shares are still arriving, once the first has been acknowledged.
    await expect.poll(() => acknowledged.length, { timeout: 20_000 }).toBeGreaterThan(0);
    instances[0].kill("SIGKILL");
    await Promise.all(shares);
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) {
      const res = await api.get(`/s/${id}`, { headers: on(1), timeout: 20_000 }).catch((err: Error) => {
        throw new Error(`GET /s/${id} on instance 1: ${err.message}\n--- instance 1's log (end) ---\n${instances[1].log().slice(-4000)}`);
      });
      expect(res.status(), id).toBe(200);
    }
  });
});
