import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import {
  declares,
  fillUriTemplate,
  groupTools,
  MAX_LIST_PAGES,
  promptGetText,
  resourceReadText,
  scanUriTemplate,
  searchTools,
  toolCallText,
  toPrompt,
  walkList,
  listMessage,
  type PageFetch,
} from "./explorer.ts";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: "object" }, ...extra });

test("search narrows by every word over name, title and description", () => {
  const tools = [
    tool("search_issues", { description: "Find issues by words" }),
    tool("create_issue", { title: "New issue" }),
    tool("reindex", { description: "Rebuilds the search index" }),
  ];
  assert.deepEqual(
    searchTools(tools, "issue").map((t) => t.name),
    ["search_issues", "create_issue"],
  );
  assert.deepEqual(
    searchTools(tools, "SEARCH index").map((t) => t.name),
    ["reindex"],
  );
  assert.deepEqual(
    searchTools(tools, "  ").map((t) => t.name),
    ["search_issues", "create_issue", "reindex"],
  );
});

test("tools group by a shared namespace of two or more, as on the docs pages; leading verbs are no namespace", () => {
  const flat = groupTools([tool("toggle-logging"), tool("toggle-updates"), tool("trigger-a"), tool("trigger-b"), tool("reindex")]);
  assert.deepEqual(flat, [{ label: null, tools: flat[0].tools }]);
  assert.equal(flat[0].tools.length, 5);
  const grouped = groupTools([tool("gh_a"), tool("jira.x"), tool("gh_b"), tool("gh_c"), tool("ping")]);
  assert.deepEqual(
    grouped.map((g) => [g.label, g.tools.map((t) => t.name)]),
    [
      ["gh", ["gh_a", "gh_b", "gh_c"]],
      ["Other", ["jira.x", "ping"]],
    ],
  );
});

test("request texts: tools/call with example arguments, resources/read, prompts/get with required arguments first", () => {
  const call = JSON.parse(
    toolCallText(tool("get_issue", { inputSchema: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] } }), 3),
  );
  assert.equal(call.id, 3);
  assert.equal(call.method, "tools/call");
  assert.equal(call.params.name, "get_issue");
  assert.equal(typeof call.params.arguments.id, "number");

  const read = resourceReadText("demo://x/1", 1);
  assert.deepEqual(JSON.parse(read), { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "demo://x/1" } });
  assert.match(read, /^\{\n {2}"jsonrpc"/, "pretty-printed like the templates");

  const prompt = toPrompt({
    name: "args",
    arguments: [{ name: "state" }, { name: "city", required: true }, { nope: 1 }],
  })!;
  const get = promptGetText(prompt, 5);
  const parsed = JSON.parse(get);
  assert.equal(parsed.id, 5);
  assert.deepEqual(parsed.params, { name: "args", arguments: { city: "", state: "" } });
  assert.deepEqual(Object.keys(parsed.params.arguments), ["city", "state"]);
});

test("capabilities: resources lists need `resources`, prompts need `prompts`", () => {
  assert.equal(declares({ resources: {} }, "templates"), true);
  assert.equal(declares({ resources: {} }, "prompts"), false);
  assert.equal(declares({ prompts: { listChanged: true } }, "prompts"), true);
  assert.equal(declares(undefined, "resources"), false);
  assert.equal(declares({ resources: true }, "resources"), false, "a capability is an object");
});

test("uri templates: level-1 variables filled (percent-encoded), others kept as written", () => {
  assert.deepEqual(scanUriTemplate("demo://r/{id}/{kind}{?q}{+path}{id}"), { variables: ["id", "kind"], unsupported: ["{?q}", "{+path}"] });
  assert.equal(fillUriTemplate("demo://r/{id}/{kind}", { id: "a b/c", kind: "" }), "demo://r/a%20b%2Fc/{kind}");
  assert.equal(fillUriTemplate("x/{id}{?q}", { id: "it's", q: "zz" }), "x/it%27s{?q}");
  assert.deepEqual(scanUriTemplate("plain://no-vars"), { variables: [], unsupported: [] });
});

/** A paged list server: pages of `perPage` names, cursors "p2", "p3", … */
function pages(total: number, perPage: number): { fetch: PageFetch; asked: (string | undefined)[] } {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetch: async (message) => {
      const cursor = (message.params as { cursor?: string }).cursor;
      asked.push(cursor);
      const page = cursor ? Number(cursor.slice(1)) : 1;
      const start = (page - 1) * perPage;
      const prompts = Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => ({ name: `p${start + i}` }));
      const more = start + perPage < total;
      return { response: { jsonrpc: "2.0", id: message.id, result: { prompts, ...(more ? { nextCursor: `p${page + 1}` } : {}) } } };
    },
  };
}

test("walkList follows nextCursor to the last page", async () => {
  const server = pages(5, 2);
  const walk = await walkList("prompts", server.fetch);
  assert.deepEqual(
    walk.items.map((p) => p.name),
    ["p0", "p1", "p2", "p3", "p4"],
  );
  assert.deepEqual(server.asked, [undefined, "p2", "p3"]);
  assert.equal(walk.pages, 3);
  assert.equal(walk.more, false);
  assert.equal(walk.error, undefined);
});

test("walkList stops at the page limit and says more exist", async () => {
  const walk = await walkList("prompts", pages(100, 1).fetch, 4);
  assert.equal(walk.items.length, 4);
  assert.equal(walk.more, true);
  assert.ok(MAX_LIST_PAGES >= 4);
});

test("walkList: errors in words, odd entries counted, looping cursors stopped", async () => {
  const rpcError = await walkList("resources", async () => ({ response: { error: { code: -32601, message: "Method not found" } } }));
  assert.equal(rpcError.error, "The server answered resources/list with an error (-32601): Method not found.");
  const proxy = await walkList("resources", async () => ({ error: "upstream-unreachable: connection refused" }));
  assert.equal(proxy.error, "upstream-unreachable: connection refused");
  const shape = await walkList("templates", async () => ({ response: { result: { templates: [] } } }));
  assert.equal(shape.error, 'The resources/templates/list result has no "resourceTemplates" array.');
  const odd = await walkList("resources", async () => ({
    response: { result: { resources: [{ uri: "a://1", name: "one" }, { name: "no uri" }, "x"] } },
  }));
  assert.deepEqual(odd.items, [{ uri: "a://1", name: "one" }]);
  assert.equal(odd.skipped, 2);
  const loop = await walkList("resources", async () => ({ response: { result: { resources: [], nextCursor: "same" } } }));
  assert.match(loop.error ?? "", /repeated the cursor "same"; stopped after 2 pages/);
});

test("list requests walked side by side never share an id (a stdio process refuses a second request with the same id)", () => {
  const ids = (["resources", "templates", "prompts"] as const).flatMap((l) => [listMessage(l, 1).id, listMessage(l, 2, "c").id]);
  assert.equal(new Set(ids).size, ids.length);
});
