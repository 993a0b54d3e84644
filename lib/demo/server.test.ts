/* eslint-disable @typescript-eslint/no-explicit-any -- assertions read raw wire JSON */
import { Client, StreamableHTTPClientTransport, type ElicitResult } from "@modelcontextprotocol/client";
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { BASKET_TTL_MS, countClosedIssues, resetDemoStore } from "./issue-store.ts";
import { serveFetchHandler, type ServedHandler } from "./testing/node-http-adapter.ts";
import { createDemoServerHandler, type DemoServerHandler } from "./server.ts";
import { betaToolsEnabled, setBetaToolsEnabled } from "./tools-beta.ts";

const EXPECTED_TOOLS = [
  "search_issues",
  "get_issue",
  "create_issue",
  "close_issue",
  "delete_issue",
  "assign_issue",
  "get_stats",
  "execute_sql",
  "render_chart",
  "speak_summary",
  "export_issues",
  "get_issue_report",
  "purge_closed_issues",
  "reindex",
  "open_basket",
  "add_to_basket",
  "checkout_basket",
  "toggle_beta_tools",
];

const PROTOCOL = "2026-07-28";
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL,
  "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "0.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let clock = Date.UTC(2026, 7, 1, 12, 0, 0);
let handler: DemoServerHandler;
let served: ServedHandler;

/** Every request a client sent, and the response headers it got back. */
interface Exchange {
  method: string;
  requestHeaders: Headers;
  body: string;
  responseHeaders: Headers;
  status: number;
}

function recordingFetch(log: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === "POST" ? await request.clone().text() : "";
    const response = await fetch(request);
    log.push({ method: request.method, requestHeaders: request.headers, body, responseHeaders: response.headers, status: response.status });
    return response;
  };
}

type ElicitAnswer = ElicitResult;

async function connect(opts: { modern: boolean; elicit?: ElicitAnswer; log?: Exchange[]; elicitations?: unknown[] }): Promise<Client> {
  const client = new Client(
    { name: "toolscope-test", version: "0.0.0" },
    {
      ...(opts.modern ? { versionNegotiation: { mode: "auto" as const } } : {}),
      capabilities: opts.elicit ? { elicitation: { form: {} } } : {},
    },
  );
  if (opts.elicit) {
    const answer = opts.elicit;
    client.setRequestHandler("elicitation/create", async (request) => {
      opts.elicitations?.push(request.params);
      return answer;
    });
  }
  await client.connect(new StreamableHTTPClientTransport(served.url, { fetch: recordingFetch(opts.log ?? []) }));
  return client;
}

async function rawPost(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const response = await fetch(served.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": String(body.method),
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const textBody = await response.text();
  const dataLine = textBody.split("\n").find((l) => l.startsWith("data: "));
  return { status: response.status, json: JSON.parse(dataLine ? dataLine.slice(6) : textBody) };
}

function firstText(result: { content?: unknown }): string {
  const block = (result.content as Array<{ type: string; text?: string }>).find((c) => c.type === "text");
  assert.ok(block?.text !== undefined, "expected a text block");
  return block.text;
}

before(async () => {
  handler = createDemoServerHandler({ pageSize: 5, now: () => clock });
  served = await serveFetchHandler(handler);
});

after(async () => {
  await handler.close();
  await served.close();
});

beforeEach(() => {
  resetDemoStore();
  setBetaToolsEnabled(false);
});

describe("modern era (2026-07-28)", () => {
  let client: Client;
  const log: Exchange[] = [];
  before(async () => {
    client = await connect({ modern: true, log, elicit: { action: "accept", content: { confirm: true, reason: "spring cleaning" } } });
  });
  after(async () => client.close());

  test("negotiates the modern era and identifies the server", () => {
    assert.equal(client.getProtocolEra(), "modern");
    assert.equal(client.getServerVersion()?.name, "toolscope-demo");
    // The connection itself is one server/discover probe (no initialize); every() alone would pass on an empty log.
    assert.deepEqual(
      log.map((e) => [e.method, e.status, JSON.parse(e.body).method]),
      [["POST", 200, "server/discover"]],
    );
    assert.ok(
      log.every((e) => e.responseHeaders.get("mcp-session-id") === null),
      "modern responses carry no session id",
    );
  });

  test("listTools follows every page and returns the same order twice", async () => {
    const first = await client.listTools();
    assert.deepEqual(
      first.tools.map((t) => t.name),
      EXPECTED_TOOLS,
    );
    const second = await client.listTools(undefined, { cacheMode: "bypass" });
    assert.deepEqual(
      second.tools.map((t) => t.name),
      EXPECTED_TOOLS,
    );
    const listCalls = log.filter((e) => e.body.includes('"tools/list"'));
    assert.ok(listCalls.length >= 8, `expected at least 2 x 4 page requests, got ${listCalls.length}`);
  });

  test("a raw tools/list page carries nextCursor, ttlMs and cacheScope; bad cursors are rejected", async () => {
    const pages: any[] = [];
    let cursor: string | undefined;
    do {
      const { json } = await rawPost({
        jsonrpc: "2.0",
        id: pages.length + 1,
        method: "tools/list",
        params: { ...(cursor ? { cursor } : {}), _meta: ENVELOPE },
      });
      pages.push(json.result);
      cursor = json.result.nextCursor;
    } while (cursor);
    assert.deepEqual(
      pages.map((p) => p.tools.length),
      [5, 5, 5, 3],
    );
    for (const page of pages) {
      assert.equal(page.ttlMs, 300_000);
      assert.equal(page.cacheScope, "public");
    }
    const bad = await rawPost({ jsonrpc: "2.0", id: 99, method: "tools/list", params: { cursor: "bm9wZQ", _meta: ENVELOPE } });
    assert.equal(bad.json.error?.code, -32602);
  });

  test("tool definitions: schemas, annotations, icons", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual(byName.get("get_stats")?.inputSchema, { type: "object", additionalProperties: false });
    const sql = byName.get("execute_sql")!.inputSchema as any;
    assert.equal(sql.properties.region["x-mcp-header"], "Region");
    const assign = byName.get("assign_issue")!.inputSchema as any;
    assert.ok(assign.$defs.UserAssignee && assign.$defs.TeamAssignee);
    assert.deepEqual(assign.properties.assignee.oneOf, [{ $ref: "#/$defs/UserAssignee" }, { $ref: "#/$defs/TeamAssignee" }]);
    const search = byName.get("search_issues")!;
    assert.equal(search.title, "Search issues");
    assert.deepEqual(search.annotations, { readOnlyHint: true, openWorldHint: false });
    assert.ok(search.outputSchema, "search_issues has an outputSchema");
    assert.deepEqual(
      search.icons?.map((i) => i.theme),
      ["light", "dark"],
    );
    assert.ok(
      search.icons?.every(
        (i) => i.src.startsWith("data:image/svg+xml;base64,") && i.mimeType === "image/svg+xml" && i.sizes?.[0] === "any",
      ),
    );
    assert.equal(byName.get("delete_issue")?.annotations?.destructiveHint, true);
    assert.equal(byName.get("close_issue")?.annotations?.idempotentHint, true);
    for (const tool of tools) {
      const sentences = (tool.description ?? "").split(/(?<=\.)\s+/).filter(Boolean).length;
      assert.ok(sentences >= 2 && sentences <= 4, `${tool.name}: ${sentences} sentences`);
    }
  });

  test("search_issues returns structuredContent matching its text JSON", async () => {
    const result = await client.callTool({ name: "search_issues", arguments: { query: "", status: "open", limit: 3 } });
    assert.notEqual(result.isError, true);
    const structured = result.structuredContent as { issues: Array<{ status: string }>; total: number };
    assert.deepEqual(structured, JSON.parse(firstText(result)));
    assert.equal(structured.issues.length, 3);
    assert.equal(structured.total, 6);
    assert.ok(structured.issues.every((i) => i.status === "open"));
  });

  test("search_issues rejects a bad status as a tool error naming the allowed values", async () => {
    const result = await client.callTool({ name: "search_issues", arguments: { query: "x", status: "done" } });
    assert.equal(result.isError, true);
    assert.match(firstText(result), /Invalid status "done"\. Allowed values: open, in_progress, closed\./);
  });

  test("execute_sql mirrors region into Mcp-Param-Region and answers from the issues", async () => {
    const result = await client.callTool({
      name: "execute_sql",
      arguments: { query: "SELECT id, status FROM issues WHERE status = 'closed' ORDER BY id", region: "eu-west1" },
    });
    assert.notEqual(result.isError, true);
    assert.match(firstText(result), /^Ran in region eu-west1: 3 rows\./);
    assert.deepEqual((result.structuredContent as any).rows, [
      [5, "closed"],
      [6, "closed"],
      [11, "closed"],
    ]);
    const call = log.findLast((e) => e.body.includes('"execute_sql"'));
    assert.equal(call?.requestHeaders.get("mcp-param-region"), "eu-west1");
    assert.equal(call?.requestHeaders.get("mcp-name"), "execute_sql");

    const mismatch = await rawPost(
      {
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "execute_sql", arguments: { query: "SELECT id FROM issues", region: "eu-west1" }, _meta: ENVELOPE },
      },
      { "mcp-name": "execute_sql", "mcp-param-region": "us-east1" },
    );
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.json.error.code, -32020);

    const write = await client.callTool({ name: "execute_sql", arguments: { query: "DELETE FROM issues", region: "us-east1" } });
    assert.equal(write.isError, true);
    assert.match(firstText(write), /read-only/);
  });

  test("assign_issue accepts exactly one of user or team", async () => {
    const ok = await client.callTool({ name: "assign_issue", arguments: { issue_id: 3, assignee: { team: "support" } } });
    assert.notEqual(ok.isError, true);
    assert.deepEqual(JSON.parse(firstText(ok)).assignee, { team: "support" });
    const both = await client.callTool({
      name: "assign_issue",
      arguments: { issue_id: 3, assignee: { team: "support", user_id: "u_ada" } },
    });
    assert.equal(both.isError, true);
  });

  test("image, audio, resource_link and embedded resource content", async () => {
    const chart = await client.callTool({ name: "render_chart", arguments: {} });
    const image = (chart.content as any[]).find((c) => c.type === "image");
    assert.equal(image.mimeType, "image/png");
    assert.deepEqual([...Buffer.from(image.data, "base64").subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const speech = await client.callTool({ name: "speak_summary", arguments: {} });
    const audio = (speech.content as any[]).find((c) => c.type === "audio");
    assert.equal(audio.mimeType, "audio/wav");
    const wav = Buffer.from(audio.data, "base64");
    assert.equal(wav.toString("ascii", 0, 4), "RIFF");
    assert.equal(wav.toString("ascii", 8, 12), "WAVE");

    const exported = await client.callTool({ name: "export_issues", arguments: {} });
    const link = (exported.content as any[]).find((c) => c.type === "resource_link");
    assert.equal(link.uri, "demo://exports/issues.csv");
    const csv = await client.readResource({ uri: link.uri });
    const csvText = (csv.contents[0] as { text: string }).text;
    assert.equal(csvText.split("\r\n").filter(Boolean).length, 13);

    const report = await client.callTool({ name: "get_issue_report", arguments: { issue_id: 2 } });
    const resources = (report.content as any[]).filter((c) => c.type === "resource").map((c) => c.resource);
    assert.equal(resources[0].mimeType, "text/markdown");
    assert.match(resources[0].text, /^# #2 Add dark mode/);
    assert.equal(resources[1].mimeType, "image/png");
  });

  test("purge_closed_issues confirms through MRTR (auto-fulfilled elicitation)", async () => {
    const elicitations: any[] = [];
    const confirming = await connect({
      modern: true,
      elicit: { action: "accept", content: { confirm: true, reason: "spring cleaning" } },
      elicitations,
    });
    try {
      assert.equal(countClosedIssues(), 3);
      const result = await confirming.callTool({ name: "purge_closed_issues", arguments: {} });
      assert.notEqual(result.isError, true);
      assert.equal(firstText(result), "Deleted 3 closed issues. Reason: spring cleaning");
      assert.equal(countClosedIssues(), 0);
      assert.equal(elicitations.length, 1);
      assert.equal(elicitations[0].requestedSchema.properties.confirm.type, "boolean");
    } finally {
      await confirming.close();
    }
  });

  test("purge_closed_issues: raw first round is input_required; decline and missing capability delete nothing", async () => {
    const raw = await rawPost(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "purge_closed_issues",
          arguments: {},
          _meta: { ...ENVELOPE, "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } } },
        },
      },
      { "mcp-name": "purge_closed_issues" },
    );
    assert.equal(raw.json.result.resultType, "input_required");
    assert.equal(raw.json.result.inputRequests.confirm.method, "elicitation/create");
    assert.equal(typeof raw.json.result.requestState, "string");

    const declining = await connect({ modern: true, elicit: { action: "decline" } });
    try {
      const declined = await declining.callTool({ name: "purge_closed_issues", arguments: {} });
      assert.match(firstText(declined), /Nothing was deleted: the user declined/);
    } finally {
      await declining.close();
    }
    const incapable = await connect({ modern: true });
    try {
      const refused = await incapable.callTool({ name: "purge_closed_issues", arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(firstText(refused), /elicitation capability/);
    } finally {
      await incapable.close();
    }
    assert.equal(countClosedIssues(), 3);
  });

  test("reindex sends progress notifications, and log messages at the requested level", async () => {
    const progress: Array<{ progress: number; total?: number }> = [];
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.data));
    const result = await client.callTool(
      { name: "reindex", arguments: { steps: 3 }, _meta: { "io.modelcontextprotocol/logLevel": "info" } },
      { onprogress: (p) => progress.push(p) },
    );
    assert.match(firstText(result), /^Reindex complete: 3 shards rebuilt/);
    assert.deepEqual(
      progress.map((p) => [p.progress, p.total]),
      [
        [1, 3],
        [2, 3],
        [3, 3],
      ],
    );
    assert.deepEqual(logs, ["Reindex started: 3 shards.", "Shard 1/3 rebuilt.", "Shard 2/3 rebuilt.", "Shard 3/3 rebuilt."]);
  });

  test("baskets: server-minted handle that expires after 10 minutes", async () => {
    const opened = JSON.parse(firstText(await client.callTool({ name: "open_basket", arguments: {} })));
    assert.match(opened.basket_id, /^b_[A-Za-z0-9_-]{16}$/);
    const added = await client.callTool({ name: "add_to_basket", arguments: { basket_id: opened.basket_id, issue_id: 4 } });
    assert.deepEqual(JSON.parse(firstText(added)).issue_ids, [4]);

    clock += BASKET_TTL_MS + 1;
    const expired = await client.callTool({ name: "add_to_basket", arguments: { basket_id: opened.basket_id, issue_id: 5 } });
    assert.equal(expired.isError, true);
    assert.equal(firstText(expired), `Basket ${opened.basket_id} has expired (baskets live 10 minutes); call open_basket again.`);

    const unknown = await client.callTool({ name: "checkout_basket", arguments: { basket_id: "b_doesnotexist" } });
    assert.equal(unknown.isError, true);
    assert.match(firstText(unknown), /call open_basket/);

    const fresh = JSON.parse(firstText(await client.callTool({ name: "open_basket", arguments: {} })));
    await client.callTool({ name: "add_to_basket", arguments: { basket_id: fresh.basket_id, issue_id: 1 } });
    const checkedOut = JSON.parse(firstText(await client.callTool({ name: "checkout_basket", arguments: { basket_id: fresh.basket_id } })));
    assert.deepEqual(
      checkedOut.issues.map((i: { id: number }) => i.id),
      [1],
    );
  });
});

describe("subscriptions/listen and the beta tools", () => {
  /** Resolves with the next notification of `method` the client receives. */
  function nextNotification(client: Client, method: "notifications/tools/list_changed"): Promise<unknown> {
    return new Promise((resolve) => client.setNotificationHandler(method, (n) => resolve(n)));
  }

  test("listen is acknowledged with the honoured filter; toggle_beta_tools announces list_changed and changes the list", async () => {
    const client = await connect({ modern: true });
    try {
      const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
      assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true }, "prompts are not offered, so not honoured");

      const changed = nextNotification(client, "notifications/tools/list_changed");
      const on = await client.callTool({ name: "toggle_beta_tools", arguments: {} });
      assert.deepEqual(on.structuredContent, { enabled: true, changed: true, beta_tools: ["beta_summarize_issue"] });
      await changed;
      assert.equal(betaToolsEnabled(), true);
      const listed = (await client.listTools(undefined, { cacheMode: "bypass" })).tools.map((t) => t.name);
      assert.deepEqual(listed, [...EXPECTED_TOOLS, "beta_summarize_issue"]);
      const summary = await client.callTool({ name: "beta_summarize_issue", arguments: { issue_id: 2 } });
      assert.match(firstText(summary), /^#2 Add dark mode to the dashboard \(in_progress, assigned to team frontend\): Respect/);

      // Asking for the state it is already in changes nothing and announces nothing.
      const same = await client.callTool({ name: "toggle_beta_tools", arguments: { enabled: true } });
      assert.equal((same.structuredContent as { changed: boolean }).changed, false);

      const changedBack = nextNotification(client, "notifications/tools/list_changed");
      await client.callTool({ name: "toggle_beta_tools", arguments: { enabled: false } });
      await changedBack;
      assert.deepEqual(
        (await client.listTools(undefined, { cacheMode: "bypass" })).tools.map((t) => t.name),
        EXPECTED_TOOLS,
      );
      const gone = await client.callTool({ name: "beta_summarize_issue", arguments: { issue_id: 2 } }).catch((e: Error) => e);
      assert.ok(
        gone instanceof Error ? /beta_summarize_issue/.test(gone.message) : gone.isError === true,
        "a hidden beta tool cannot be called",
      );

      await subscription.close();
      assert.equal(await subscription.closed, "local");
    } finally {
      await client.close();
    }
  });

  test("raw listen stream: the acknowledgment with the subscription id comes first, then list_changed stamped with it", async () => {
    const controller = new AbortController();
    const response = await fetch(served.url, {
      method: "POST",
      signal: controller.signal,
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL,
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 41,
        method: "subscriptions/listen",
        params: { _meta: ENVELOPE, notifications: { toolsListChanged: true } },
      }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const messages: any[] = [];
    let buffer = "";
    const readUntil = async (count: number) => {
      while (messages.length < count) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended early");
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trimStart())
            .join("\n");
          buffer = buffer.slice(end + 2);
          if (data) messages.push(JSON.parse(data));
        }
      }
    };
    try {
      await readUntil(1);
      assert.equal(messages[0].method, "notifications/subscriptions/acknowledged");
      assert.equal(messages[0].params._meta["io.modelcontextprotocol/subscriptionId"], 41);
      assert.deepEqual(messages[0].params.notifications, { toolsListChanged: true });
      setBetaToolsEnabled(true);
      await readUntil(2);
      assert.equal(messages[1].method, "notifications/tools/list_changed");
      assert.equal(messages[1].params._meta["io.modelcontextprotocol/subscriptionId"], 41);
    } finally {
      controller.abort();
      await reader.cancel().catch(() => undefined);
    }
  });
});

describe("legacy era (2025-11-25)", () => {
  test("initialize mints a session; listTools and calls work", async () => {
    const log: Exchange[] = [];
    const client = await connect({ modern: false, log });
    try {
      assert.equal(client.getProtocolEra(), "legacy");
      assert.equal(client.getServerVersion()?.name, "toolscope-demo");
      assert.match(client.getInstructions() ?? "", /issue tracker/);
      const init = log.find((e) => e.body.includes('"initialize"'));
      assert.match(init?.responseHeaders.get("mcp-session-id") ?? "", /^[0-9a-f-]{36}$/);
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        EXPECTED_TOOLS,
      );
      const bad = await client.callTool({ name: "search_issues", arguments: { query: "", status: "done" } });
      assert.equal(bad.isError, true);
      assert.match(firstText(bad), /Allowed values: open, in_progress, closed\./);

      const logs: unknown[] = [];
      const progress: number[] = [];
      client.setNotificationHandler("notifications/message", (n) => void logs.push(n.params.data));
      await client.setLoggingLevel("info");
      await client.callTool({ name: "reindex", arguments: { steps: 2 } }, { onprogress: (p) => progress.push(p.progress) });
      assert.deepEqual(progress, [1, 2]);
      assert.equal(logs.length, 3);
    } finally {
      await client.close();
    }
  });

  test("purge confirms through a server→client elicitation request; no capability means a tool error", async () => {
    const elicitations: unknown[] = [];
    const capable = await connect({ modern: false, elicit: { action: "accept", content: { confirm: true } }, elicitations });
    try {
      const result = await capable.callTool({ name: "purge_closed_issues", arguments: {} });
      assert.equal(firstText(result), "Deleted 3 closed issues.");
      assert.equal(elicitations.length, 1);
    } finally {
      await capable.close();
    }
    resetDemoStore();
    const incapable = await connect({ modern: false });
    try {
      const refused = await incapable.callTool({ name: "purge_closed_issues", arguments: {} });
      assert.equal(refused.isError, true);
      assert.match(firstText(refused), /elicitation capability/);
      assert.equal(countClosedIssues(), 3);
    } finally {
      await incapable.close();
    }
  });

  test("DELETE ends a session; session-less calls fall back to stateless serving", async () => {
    const log: Exchange[] = [];
    const client = await connect({ modern: false, log });
    const sessionId = log.find((e) => e.body.includes('"initialize"'))?.responseHeaders.get("mcp-session-id");
    assert.ok(sessionId);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    };
    const ended = await fetch(served.url, { method: "DELETE", headers: { ...headers, "mcp-session-id": sessionId } });
    assert.equal(ended.status, 200);
    const afterDelete = await fetch(served.url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": sessionId },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
    });
    assert.equal(afterDelete.status, 404);
    const stateless = await fetch(served.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }),
    });
    assert.equal(stateless.status, 200);
    assert.equal(stateless.headers.get("mcp-session-id"), null);
    assert.match(await stateless.text(), /"search_issues"/);
    await client.close();
  });

  test("a session with its GET stream open hears tools/list_changed when the beta tools are toggled", async () => {
    const client = await connect({ modern: false });
    try {
      const changed = new Promise((resolve) => client.setNotificationHandler("notifications/tools/list_changed", resolve));
      // The SDK opens the session's standalone GET stream asynchronously after initialize: flip the switch
      // every 20 ms until a change is heard on it (changes made before the stream is up are not queued).
      let heard = false;
      void changed.then(() => (heard = true));
      for (let i = 0; i < 100 && !heard; i++) {
        setBetaToolsEnabled(!betaToolsEnabled());
        await new Promise((r) => setTimeout(r, 20));
      }
      await changed;
      setBetaToolsEnabled(true);
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "beta_summarize_issue"));
    } finally {
      await client.close();
    }
  });

  test("requests for an unknown session get 404", async () => {
    const response = await fetch(served.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": "no-such-session",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(response.status, 404);
  });
});

describe("raw HTTP", () => {
  test("server/discover with the protocol-version _meta lists 2026-07-28", async () => {
    const { status, json } = await rawPost({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: ENVELOPE } });
    assert.equal(status, 200);
    assert.ok(json.result.supportedVersions.includes(PROTOCOL), JSON.stringify(json));
    assert.equal(json.result.capabilities.tools.listChanged, true);
  });
});
