/**
 * Every cached view of a server's tool list follows a change: the proxy's list cache, the known definitions and the
 * docs snapshots, whether the change is heard (list_changed on a listen stream or a legacy session's stream), found
 * (a fetch past the caches that gets another list) or implied (an unknown-tool answer for a tool we list). Share and
 * "Compare with live" fetch past every cache. Against the real demo server over HTTP, through the proxy service.
 */
import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RpcStreamEvent, ToolsResponse } from "@/lib/mcp/contract";

const dataDir = mkdtempSync(join(tmpdir(), "toolscope-freshness-"));
process.env.TOOLSCOPE_DATA_DIR = dataDir;
process.env.TOOLSCOPE_MODE = "local";
delete process.env.REDIS_URL;
delete process.env.DATABASE_URL;

const { createDemoServerHandler } = await import("@/lib/demo/server");
const { setBetaToolsEnabled } = await import("@/lib/demo/tools-beta");
const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { config } = await import("../platform/config.ts");
const { connect, rpc, tools } = await import("../api/proxy-service.ts");
const { docsSnapshot, freshDocsSnapshot } = await import("../docs/docs-snapshot.ts");
const { loadDocs, loadLiveDocs } = await import("../docs/docs-load.ts");
const { knownTools } = await import("./known-tools.ts");
const { unattendedAsker } = await import("../../upstream/exchange/server-request-asker.ts");

const ORIGIN = "http://127.0.0.1:3000";
const BETA = "beta_summarize_issue";
const demo = createDemoServerHandler();
let served: Awaited<ReturnType<typeof serveFetchHandler>>;
let url: string;
/** tools/list requests the demo answered (each list is several pages). */
let listRequests = 0;

before(async () => {
  served = await serveFetchHandler({
    async fetch(req) {
      const body =
        req.method === "POST"
          ? ((await req
              .clone()
              .json()
              .catch(() => ({}))) as { method?: string })
          : {};
      if (body.method === "tools/list") listRequests++;
      return demo.fetch(req);
    },
  });
  url = served.url.toString();
});
after(async () => {
  setBetaToolsEnabled(false);
  await served.close();
  await demo.close();
  rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => void setBetaToolsEnabled(false));

const ctx = () => ({ config: config(), origin: ORIGIN, signal: new AbortController().signal });
const hasBeta = (list: Pick<ToolsResponse, "tools">) => list.tools.some((t) => t.name === BETA);
const call = (name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: `call-${name}`,
  method: "tools/call",
  params: { name, arguments: args },
});

/**
 * Connect and list past the cache, so the proxy cache, the known definitions and the docs snapshot all hold the list
 * as the switch has it now (a fetch that finds another list drops the other views).
 */
async function warm(era: "modern" | "legacy" = "modern", interactive = false) {
  const { connection } = await connect({ url, era, headers: {}, interactive }, ctx());
  const list = await tools({ connection, headers: {}, fresh: true }, ctx());
  const snap = await docsSnapshot(url, ORIGIN);
  return { connection, list, snap };
}

test("nobody listening: a changed list stays cached (the hole), until a fetch past the caches finds it; then every view follows", async () => {
  const { connection, snap } = await warm();
  assert.equal(hasBeta(snap.list), false);
  setBetaToolsEnabled(true); // as toggle_beta_tools does, with no listen stream open anywhere
  assert.equal(hasBeta(await tools({ connection, headers: {} }, ctx())), false, "a 2026-07-28 server tells only listeners");
  assert.equal(hasBeta((await docsSnapshot(url, ORIGIN)).list), false);

  // Share and Compare with live fetch past every cache...
  const before = listRequests;
  const fresh = await freshDocsSnapshot(url, ORIGIN);
  assert.ok(listRequests > before, "the server was asked");
  assert.equal(hasBeta(fresh.list), true);
  assert.ok(Date.now() - Date.parse(fresh.list.fetchedAt) < 5_000, "fetchedAt says it was fetched just now");
  // ...and what they found is news for every other view: the proxy cache, the docs snapshot, the known definitions.
  const listed = await tools({ connection, headers: {} }, ctx());
  assert.equal(hasBeta(listed), true);
  assert.equal(listed.cache?.hit, true, "the fresh list itself was kept");
  assert.equal(hasBeta((await docsSnapshot(url, ORIGIN)).list), true, "the docs snapshot was dropped and reloaded");
  assert.ok(knownTools().find({ url, era: "modern" }, {}, BETA));
});

test("a list_changed on a subscriptions/listen stream drops the cache and the docs snapshot before it is relayed", async () => {
  const { connection } = await warm();
  const listening = new AbortController();
  const heard: { snapHasBeta: boolean; listHasBeta: boolean }[] = [];
  let resolveHeard!: () => void;
  const gotIt = new Promise<void>((resolve) => (resolveHeard = resolve));
  const events: RpcStreamEvent[] = [];
  const listen = rpc(
    {
      connection,
      headers: {},
      message: { jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true } } },
    },
    {
      ...ctx(),
      signal: listening.signal,
      emit: (event) => {
        events.push(event);
        if (event.type === "notification" && event.message.method === "notifications/tools/list_changed") {
          // What a docs page's LiveUpdates does on this event: render again. It must get the new list already.
          void Promise.all([docsSnapshot(url, ORIGIN), tools({ connection, headers: {} }, ctx())]).then(([snap, list]) => {
            heard.push({ snapHasBeta: hasBeta(snap.list), listHasBeta: hasBeta(list) });
            resolveHeard();
          });
        }
      },
    },
  ).catch(() => undefined);
  // The acknowledgment comes first: the subscription is open.
  await waitFor(() => events.some((e) => e.type === "notification" && e.message.method === "notifications/subscriptions/acknowledged"));
  const toggled = await rpc({ connection, headers: {}, message: call("toggle_beta_tools", { enabled: true }) }, ctx());
  assert.deepEqual((toggled.response?.result as { structuredContent?: unknown }).structuredContent, {
    enabled: true,
    changed: true,
    beta_tools: [BETA],
  });
  await gotIt;
  listening.abort();
  await listen;
  assert.deepEqual(heard, [{ snapHasBeta: true, listHasBeta: true }]);
});

for (const where of ["over HTTP", "in process (builtin:demo)"] as const)
  test(`a legacy session's stream ${where}: list_changed among a call's session notifications drops every cached view`, async () => {
    const server = where === "over HTTP" ? url : "builtin:demo";
    const { connection: modern } = await connect({ url: server, era: "modern", headers: {} }, ctx());
    // Every view starts from the switch's state (a fetch past the caches that finds another list drops the others).
    assert.equal(hasBeta(await tools({ connection: modern, headers: {}, fresh: true }, ctx())), false);
    assert.equal(hasBeta((await docsSnapshot(server, ORIGIN)).list), false);
    // The playground's connection: interactive, so the session's GET stream is open during each call.
    const { connection } = await connect({ url: server, era: "legacy", headers: {}, interactive: true }, ctx());
    // Twice: the stream the first call held must have been let go (in process, nothing but our abort says so).
    for (const enabled of [true, false]) {
      // Streamed, with someone to answer the server's requests: as the playground sends (the GET stream is read meanwhile).
      const answer = await rpc(
        { connection, headers: {}, message: call("toggle_beta_tools", { enabled }) },
        { ...ctx(), emit: () => {}, asker: unattendedAsker("nobody answers in this test") },
      );
      const heard = [...answer.notifications, ...(answer.sessionNotifications ?? [])].map((m) => m.method);
      assert.ok(heard.includes("notifications/tools/list_changed"), `heard: ${heard.join(", ")}`);
      assert.equal(hasBeta((await docsSnapshot(server, ORIGIN)).list), enabled, "the docs snapshot follows");
      assert.equal(hasBeta(await tools({ connection: modern, headers: {} }, ctx())), enabled, "the modern list cache too");
    }
  });

test("an unknown-tool answer for a tool we list drops every cached view; one for a name we never listed does not", async () => {
  setBetaToolsEnabled(true);
  const { connection, snap } = await warm();
  assert.equal(hasBeta(snap.list), true);
  setBetaToolsEnabled(false);
  const typo = await rpc({ connection, headers: {}, message: call("no_such_tool") }, ctx());
  assert.ok(typo.response?.error);
  assert.equal(hasBeta(await tools({ connection, headers: {} }, ctx())), true, "a name no list holds says nothing about the list");

  const answer = await rpc({ connection, headers: {}, message: call(BETA, { issue_id: 1 }) }, ctx());
  assert.match(String((answer.response?.error as { message?: unknown }).message), /beta_summarize_issue/);
  const listed = await tools({ connection, headers: {} }, ctx());
  assert.equal(hasBeta(listed), false);
  assert.equal(listed.cache?.hit, false, "fetched again");
  assert.equal(hasBeta((await docsSnapshot(url, ORIGIN)).list), false, "the docs snapshot follows");
  assert.equal(knownTools().find({ url, era: "modern" }, {}, BETA), undefined);
});

test("docs pages reuse their snapshot; Compare with live (loadLiveDocs) always asks the server", async () => {
  await warm();
  const headers = new Headers({ host: "127.0.0.1:3000" });
  const before = listRequests;
  const page = await loadDocs(url, headers);
  assert.ok(page.ok);
  assert.equal(listRequests, before, "a docs page within 30 s is served from the snapshot");
  setBetaToolsEnabled(true);
  const live = await loadLiveDocs(url, headers);
  assert.ok(live.ok && hasBeta(live.snap.list));
  assert.ok(listRequests > before);
});

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
