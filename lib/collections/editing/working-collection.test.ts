import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import {
  addCall,
  callLabel,
  destructiveTools,
  emptyCollection,
  moveCall,
  namesPattern,
  notPassed,
  removeCall,
  renameCall,
  storedRequest,
  uniqueName,
  updateCall,
} from "./working-collection.ts";
import type { Collection, CollectionCall, RunReport } from "../index.ts";
import type { Tool } from "../../mcp/contract.ts";
import { createDemoServerHandler, type DemoServerHandler } from "../../demo/server.ts";
import { demoCall } from "../../demo/testing/demo-call.ts";

let demo: DemoServerHandler;
let demoTools: Tool[] = [];

/** tools/list of the built-in demo, in process (the same answer the playground gets). */
async function listDemoTools(): Promise<Tool[]> {
  const { response } = await demoCall(demo, "tools/list", {}, "working-collection-test");
  return (response.result as { tools: Tool[] }).tools;
}

before(async () => {
  demo = createDemoServerHandler({ pageSize: 100 });
  demoTools = await listDemoTools();
});
after(async () => demo?.close());

/** A tools/call request as the editor sends it (with jsonrpc and id). */
const toolsCall = (name: string, args: Record<string, unknown> = {}, id: number | string = 7) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const call = (name: string, request: Record<string, unknown> = { method: "tools/list" }): CollectionCall => ({
  name,
  request,
  expect: [{ kind: "no-error" }],
});

function withCalls(...names: string[]): Collection {
  return { ...emptyCollection("builtin:demo"), calls: names.map((n) => call(n)) };
}

const names = (c: Collection) => c.calls.map((x) => x.name);

test("emptyCollection: an http(s) server is the environment's server; a built-in or stdio server is not", () => {
  assert.deepEqual(emptyCollection("https://mcp.example.com/mcp"), {
    format: "toolscope.collection/1",
    name: "Untitled collection",
    environment: { server: "https://mcp.example.com/mcp" },
    calls: [],
  });
  // Named as exported files name servers: normalised by the URL parser.
  assert.deepEqual(emptyCollection("HTTP://localhost:3000/mcp").environment, { server: "http://localhost:3000/mcp" });
  const builtin = emptyCollection("builtin:demo");
  assert.deepEqual(builtin, { format: "toolscope.collection/1", name: "Untitled collection", calls: [] });
  assert.equal("environment" in builtin, false);
  assert.equal("environment" in emptyCollection("stdio:npx my-server"), false);
  assert.equal("environment" in emptyCollection("ftp://example.com/mcp"), false);
});

test("emptyCollection: a URL with credentials is named without them; one the rule cannot read is not named", () => {
  const cases: [string, string][] = [
    ["https://ada:hunter2@mcp.example.com/mcp", "https://mcp.example.com/mcp"],
    ["https://mcp.example.com/mcp?api_key=abc123&region=eu", "https://mcp.example.com/mcp?region=eu"],
    ["https://mcp.example.com/mcp?region=eu#access_token=abc", "https://mcp.example.com/mcp?region=eu"],
    [`https://mcp.example.com/${"ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}/mcp`, "https://mcp.example.com/REDACTED/mcp"],
  ];
  for (const [raw, named] of cases) assert.deepEqual(emptyCollection(raw).environment, { server: named }, raw);
  assert.equal("environment" in emptyCollection("https://"), false, "not a URL: nothing to name");
});

test("emptyCollection: each collection has its own calls array", () => {
  const a = emptyCollection("builtin:demo");
  const b = emptyCollection("builtin:demo");
  assert.notEqual(a.calls, b.calls);
});

test("callLabel: the tool a tools/call names, else the method, else 'call'", () => {
  assert.equal(callLabel(toolsCall("search_issues", { query: "CSV" })), "search_issues");
  assert.equal(callLabel({ method: "tools/list", params: {} }), "tools/list");
  assert.equal(callLabel({ method: "resources/read", params: { uri: "demo://issues/1", name: "ignored" } }), "resources/read");
  assert.equal(callLabel({ method: "tools/call", params: { name: "" } }), "tools/call");
  assert.equal(callLabel({ method: "tools/call", params: { name: 42 } }), "tools/call");
  assert.equal(callLabel({ method: "tools/call" }), "tools/call");
  assert.equal(callLabel({ method: "tools/call", params: "search_issues" }), "tools/call");
  assert.equal(callLabel({ method: "" }), "call");
  assert.equal(callLabel({}), "call");
});

test("uniqueName: the base when free, else the first free numbered name", () => {
  assert.equal(uniqueName([], "search_issues"), "search_issues");
  assert.equal(uniqueName([call("get_issue")], "search_issues"), "search_issues");
  assert.equal(uniqueName([call("search_issues")], "search_issues"), "search_issues 2");
  assert.equal(uniqueName([call("search_issues"), call("search_issues 2")], "search_issues"), "search_issues 3");
  // A gap is filled.
  assert.equal(uniqueName([call("search_issues"), call("search_issues 3")], "search_issues"), "search_issues 2");
  // Only the base taken matters: a numbered name alone leaves the base free.
  assert.equal(uniqueName([call("search_issues 2")], "search_issues"), "search_issues");
});

test("storedRequest: jsonrpc and id dropped, everything else kept; the message is not changed", () => {
  const message = { ...toolsCall("create_issue", { title: "Export fails", labels: ["bug"] }, "req-9"), extra: { a: 1 } };
  const stored = storedRequest(message);
  assert.deepEqual(stored, {
    method: "tools/call",
    params: { name: "create_issue", arguments: { title: "Export fails", labels: ["bug"] } },
    extra: { a: 1 },
  });
  assert.equal(message.jsonrpc, "2.0");
  assert.equal(message.id, "req-9");
  assert.deepEqual(storedRequest({ method: "ping" }), { method: "ping" });
});

test("addCall: at the end, named after the tool (unique), request stored without jsonrpc/id, no-error by default", () => {
  const start = emptyCollection("https://mcp.example.com/mcp");
  const one = addCall(start, toolsCall("search_issues", { query: "CSV" }, 1));
  const two = addCall(one, toolsCall("search_issues", { query: "export" }, 2));
  const three = addCall(two, { jsonrpc: "2.0", id: 3, method: "tools/list", params: {} }, [{ kind: "latency", maxMs: 500 }]);

  assert.deepEqual(start.calls, [], "the collection given is not changed");
  assert.deepEqual(one.calls, [
    {
      name: "search_issues",
      request: { method: "tools/call", params: { name: "search_issues", arguments: { query: "CSV" } } },
      expect: [{ kind: "no-error" }],
    },
  ]);
  assert.deepEqual(names(three), ["search_issues", "search_issues 2", "tools/list"]);
  assert.deepEqual(three.calls[1].request, { method: "tools/call", params: { name: "search_issues", arguments: { query: "export" } } });
  assert.deepEqual(three.calls[2].expect, [{ kind: "latency", maxMs: 500 }]);
  assert.deepEqual(three.environment, { server: "https://mcp.example.com/mcp" });
  assert.equal(three.name, "Untitled collection");
});

test("updateCall: only the call at index changes; a new collection and calls array", () => {
  const c = withCalls("a", "b", "c");
  const next = updateCall(c, 1, (x) => ({ ...x, timeoutMs: 2000 }));
  assert.deepEqual(next.calls[1], { ...call("b"), timeoutMs: 2000 });
  assert.equal(next.calls[0], c.calls[0]);
  assert.equal(next.calls[2], c.calls[2]);
  assert.notEqual(next, c);
  assert.equal("timeoutMs" in c.calls[1], false, "the original call is not changed");
  // Out of range: nothing changes.
  assert.deepEqual(updateCall(c, 5, (x) => ({ ...x, name: "z" })).calls, c.calls);
});

test("removeCall: the call at index goes; out of range keeps every call", () => {
  const c = withCalls("a", "b", "c");
  assert.deepEqual(names(removeCall(c, 0)), ["b", "c"]);
  assert.deepEqual(names(removeCall(c, 1)), ["a", "c"]);
  assert.deepEqual(names(removeCall(c, 2)), ["a", "b"]);
  assert.deepEqual(names(removeCall(c, 3)), ["a", "b", "c"]);
  assert.deepEqual(names(removeCall(c, -1)), ["a", "b", "c"]);
  assert.deepEqual(names(c), ["a", "b", "c"]);
});

test("moveCall: one place up or down; unchanged (the same object) at either end or out of range", () => {
  const c = withCalls("a", "b", "c");
  assert.deepEqual(names(moveCall(c, 1, -1)), ["b", "a", "c"]);
  assert.deepEqual(names(moveCall(c, 1, 1)), ["a", "c", "b"]);
  assert.deepEqual(names(moveCall(c, 0, 1)), ["b", "a", "c"]);
  assert.deepEqual(names(moveCall(c, 2, -1)), ["a", "c", "b"]);
  assert.equal(moveCall(c, 0, -1), c);
  assert.equal(moveCall(c, 2, 1), c);
  assert.equal(moveCall(c, 3, -1), c);
  assert.equal(moveCall(c, -1, 1), c);
  assert.deepEqual(names(c), ["a", "b", "c"], "the original order is kept");
});

test("renameCall: trimmed; its own name is allowed", () => {
  const c = withCalls("create an issue", "read it back");
  const renamed = renameCall(c, 1, "  read the issue  ");
  assert.equal(renamed.ok, true);
  assert.deepEqual(renamed.ok && names(renamed.collection), ["create an issue", "read the issue"]);
  const same = renameCall(c, 0, "create an issue");
  assert.deepEqual(same.ok && names(same.collection), ["create an issue", "read it back"]);
});

test("renameCall: an empty name is refused, with why", () => {
  const c = withCalls("create an issue");
  assert.deepEqual(renameCall(c, 0, ""), { ok: false, error: "A call needs a name: reports and --grep name calls by it." });
  assert.deepEqual(renameCall(c, 0, "   \t"), { ok: false, error: "A call needs a name: reports and --grep name calls by it." });
});

test("renameCall: another call's name is refused (after trimming), with why", () => {
  const c = withCalls("create an issue", "read it back");
  assert.deepEqual(renameCall(c, 1, " create an issue "), {
    ok: false,
    error: "Another call is named “create an issue”: names are unique in a collection.",
  });
  assert.deepEqual(names(c), ["create an issue", "read it back"]);
});

function report(statuses: Array<[string, "passed" | "failed" | "error" | "skipped"]>): RunReport {
  return {
    collection: "Issue lifecycle",
    calls: statuses.map(([name, status]) => ({ name, status, durationMs: 3, expectations: [] })),
    summary: { total: statuses.length, passed: 0, failed: 0, errors: 0, skipped: 0, durationMs: 12 },
  };
}

test("notPassed: failed, error and skipped calls, in run order; none without a report", () => {
  assert.deepEqual(notPassed(undefined), []);
  assert.deepEqual(notPassed(report([])), []);
  assert.deepEqual(notPassed(report([["create an issue", "passed"]])), []);
  assert.deepEqual(
    notPassed(
      report([
        ["create an issue", "passed"],
        ["read it back", "failed"],
        ["assign it to a team", "error"],
        ["check the update", "skipped"],
        ["close it", "passed"],
      ]),
    ),
    ["read it back", "assign it to a team", "check the update"],
  );
});

test("destructiveTools: by the demo's real annotations — delete_issue is, create_issue and search_issues are not", () => {
  const deleteIssue = demoTools.find((t) => t.name === "delete_issue");
  assert.ok(deleteIssue, "the demo lists delete_issue");
  assert.equal(deleteIssue.annotations?.destructiveHint, true);
  assert.equal(demoTools.find((t) => t.name === "create_issue")?.annotations?.destructiveHint, false);

  const calls = [
    call("create", storedRequest(toolsCall("create_issue", { title: "x" }))),
    call("search", storedRequest(toolsCall("search_issues", { query: "x" }))),
    call("delete", storedRequest(toolsCall("delete_issue", { issue_id: 1 }))),
    call("delete again", storedRequest(toolsCall("delete_issue", { issue_id: 2 }))),
    call("list", { method: "tools/list" }),
  ];
  const found = destructiveTools(calls, demoTools);
  assert.deepEqual(
    found.map((t) => t.name),
    ["delete_issue"],
  );
  assert.equal(found[0], deleteIssue, "the tool as listed");
  assert.deepEqual(destructiveTools(calls.slice(0, 2), demoTools), []);
});

test("destructiveTools: each destructive tool once, in call order; unknown tools and other methods ignored", () => {
  const calls = [
    call("purge", storedRequest(toolsCall("purge_closed_issues"))),
    call("delete", storedRequest(toolsCall("delete_issue", { issue_id: 1 }))),
    call("purge again", storedRequest(toolsCall("purge_closed_issues"))),
    call("unknown", storedRequest(toolsCall("drop_database"))),
    // Not a tools/call, though its params name a destructive tool.
    call("prompt", { method: "prompts/get", params: { name: "delete_issue" } }),
    call("no name", { method: "tools/call", params: { arguments: {} } }),
    call("no params", { method: "tools/call" }),
  ];
  assert.deepEqual(
    destructiveTools(calls, demoTools).map((t) => t.name),
    ["purge_closed_issues", "delete_issue"],
  );
  assert.deepEqual(destructiveTools(calls, []), []);
});

test("destructiveTools: a tool without annotations counts as destructive (the spec's defaults); read-only does not", () => {
  const tools: Tool[] = [
    { name: "wipe", inputSchema: { type: "object" } },
    { name: "peek", inputSchema: { type: "object" }, annotations: { readOnlyHint: true, destructiveHint: true } },
  ] as Tool[];
  const calls = [call("wipe", storedRequest(toolsCall("wipe"))), call("peek", storedRequest(toolsCall("peek")))];
  assert.deepEqual(
    destructiveTools(calls, tools).map((t) => t.name),
    ["wipe"],
  );
});

test("namesPattern: exactly the names given, regex characters taken literally", () => {
  const p = namesPattern(["a.b (c)", "search_issues 2"]);
  assert.equal(p.test("a.b (c)"), true);
  assert.equal(p.test("search_issues 2"), true);
  assert.equal(p.test("axb (c)"), false);
  assert.equal(p.test("a.b c"), false);
  assert.equal(p.test("a.b (c) 2"), false);
  assert.equal(p.test("xa.b (c)"), false);
  assert.equal(p.test("search_issues"), false);
  assert.equal(p.test("search_issues 22"), false);

  const special = ["[x]", "a|b", "^$", "c+?", "d*", "{1}", "e\\f"];
  const q = namesPattern(special);
  for (const name of special) assert.equal(q.test(name), true, name);
  for (const other of ["x", "a", "b", "", "cc", "dd", "ef", "e\\\\f"]) assert.equal(q.test(other), false, other);
});

test("namesPattern: with the example's call names, picks only those from a list", () => {
  const all = ["create an issue", "read it back", "read it back 2", "check the update"];
  const p = namesPattern(["read it back", "check the update"]);
  assert.deepEqual(
    all.filter((n) => p.test(n)),
    ["read it back", "check the update"],
  );
});
