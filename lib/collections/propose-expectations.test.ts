import { after, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { proposeExpectations, proposeUnchanged, volatilePointers } from "./propose-expectations.ts";
import { evaluateExpectation, type CallOutcome } from "./expectations.ts";
import type { Collection, Expectation } from "./format.ts";
import { parseCollection } from "./parse-collection.ts";
import { writeCollection } from "./write-collection.ts";
import { decodeCollectionShare, encodeCollectionShare } from "./share-collection.ts";
import type { Tool } from "../mcp/contract.ts";
import { createDemoServerHandler, type DemoServerHandler } from "../demo/server.ts";
import { resetDemoStore } from "../demo/issue-store.ts";
import { demoCall as demoExchange } from "../demo/testing/demo-call.ts";

let demo: DemoServerHandler;
let demoTools: Tool[] = [];

/** One JSON-RPC exchange with the built-in demo, in process (the same answers the playground gets). */
const demoCall = (method: string, params: Record<string, unknown> = {}) => demoExchange(demo, method, params, "propose-test");

const callTool = (name: string, args: Record<string, unknown>) => demoCall("tools/call", { name, arguments: args });
const toolNamed = (name: string) => demoTools.find((t) => t.name === name);

before(async () => {
  demo = createDemoServerHandler({ pageSize: 100 });
  demoTools = ((await demoCall("tools/list")).response.result as { tools: Tool[] }).tools;
});
after(async () => demo?.close());
beforeEach(() => resetDemoStore());

/** Every expectation, evaluated against the outcome it was proposed from, passes (with the failures shown when not). */
function assertAllPass(expect: readonly Expectation[], request: Record<string, unknown>, response: Record<string, unknown> | null) {
  const outcome: CallOutcome = { request, response, durationMs: 1, tools: demoTools };
  const failed = expect.map((e) => evaluateExpectation(e, outcome)).filter((r) => !r.pass);
  assert.deepEqual(failed, [], JSON.stringify(response).slice(0, 400));
}

/** A collection holding these expectations is a valid file (error codes integers, volatile pointers unique, …). */
function assertWritable(expect: Expectation[]) {
  const c: Collection = { format: "toolscope.collection/1", name: "p", calls: [{ name: "c", request: { method: "tools/call" }, expect }] };
  const parsed = parseCollection(writeCollection(c));
  assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.problems));
}

test("search_issues (structuredContent, outputSchema): output-schema, then 8 values, top level first, ids and times as present", async () => {
  const { request, response } = await callTool("search_issues", { query: "CSV", limit: 1 });
  const expect = proposeExpectations(request, response, toolNamed("search_issues"));
  const SC = "/result/structuredContent";
  assert.deepEqual(expect, [
    { kind: "no-error" },
    { kind: "is-error", value: false },
    { kind: "output-schema" },
    { kind: "equals", pointer: `${SC}/total`, value: 1 },
    { kind: "present", pointer: `${SC}/issues/0/id` },
    { kind: "equals", pointer: `${SC}/issues/0/title`, value: "CSV export drops rows with commas in the title" },
    { kind: "equals", pointer: `${SC}/issues/0/body`, value: "Titles containing commas are not quoted, so the row splits." },
    { kind: "equals", pointer: `${SC}/issues/0/status`, value: "open" },
    { kind: "equals", pointer: `${SC}/issues/0/assignee`, value: null },
    { kind: "present", pointer: `${SC}/issues/0/created_at` },
    { kind: "present", pointer: `${SC}/issues/0/updated_at` },
  ]);
  assertAllPass(expect, request, response);
  assertWritable(expect);
  // Without the tool's definition there is no output-schema to propose.
  assert.ok(!proposeExpectations(request, response).some((e) => e.kind === "output-schema"));
});

test("get_issue (JSON in a text block): values addressed through /result/content/0/text", async () => {
  const { request, response } = await callTool("get_issue", { issue_id: 1 });
  const expect = proposeExpectations(request, response, toolNamed("get_issue"));
  const T = "/result/content/0/text";
  assert.deepEqual(expect, [
    { kind: "no-error" },
    { kind: "is-error", value: false },
    { kind: "present", pointer: `${T}/id` },
    { kind: "equals", pointer: `${T}/title`, value: "Login page times out behind corporate proxy" },
    { kind: "equals", pointer: `${T}/body`, value: "Users behind an HTTP proxy see a spinner for 60 s, then a blank page." },
    { kind: "equals", pointer: `${T}/status`, value: "open" },
    { kind: "present", pointer: `${T}/created_at` },
    { kind: "present", pointer: `${T}/updated_at` },
    { kind: "equals", pointer: `${T}/labels/0`, value: "bug" },
    { kind: "equals", pointer: `${T}/labels/1`, value: "auth" },
  ]);
  assertAllPass(expect, request, response);
});

test("a tool error in plain text: is-error true and the first line as text-contains", async () => {
  const { request, response } = await callTool("get_issue", { issue_id: 9999 });
  const expect = proposeExpectations(request, response, toolNamed("get_issue"));
  assert.deepEqual(expect, [
    { kind: "no-error" },
    { kind: "is-error", value: true },
    { kind: "text-contains", text: "Issue #9999 does not exist. Use search_issues to find valid ids." },
  ]);
  assertAllPass(expect, request, response);
});

test("a JSON-RPC error: only error with its code", async () => {
  const { request, response } = await callTool("no_such_tool", {});
  const expect = proposeExpectations(request, response);
  assert.deepEqual(expect, [{ kind: "error", code: -32602 }]);
  assertAllPass(expect, request, response);
  assert.deepEqual(proposeExpectations(request, { jsonrpc: "2.0", id: 1, error: { code: "E1", message: "odd" } }), [{ kind: "error" }]);
  assert.deepEqual(proposeExpectations(request, null), [], "no answer, nothing to expect");
});

test("more demo answers: every proposal passes on the answer it came from, and makes a valid file", async () => {
  const calls = [
    await callTool("get_stats", {}),
    await callTool("create_issue", { title: "Proposed", labels: ["docs"] }),
    await callTool("search_issues", { query: "zzz-no-match" }),
    await callTool("search_issues", {}),
    await callTool("close_issue", { issue_id: 2 }),
    await callTool("toggle_beta_tools", { enabled: false }),
    await demoCall("tools/list"),
    await demoCall("ping"),
  ];
  for (const { request, response } of calls) {
    const name = (request.params as { name?: string }).name;
    const expect = proposeExpectations(request, response, name ? toolNamed(name) : undefined);
    assert.ok(expect.length >= 1);
    assert.ok(expect.filter((e) => e.kind === "equals" || e.kind === "present").length <= 8, "at most 8 values");
    assertAllPass(expect, request, response);
    assertWritable(expect);
    const unchanged = proposeUnchanged(response);
    assert.ok(unchanged);
    assertAllPass([unchanged], request, response);
    assertWritable([unchanged]);
  }
  assert.deepEqual(proposeExpectations(calls[6].request, calls[6].response), [{ kind: "no-error" }], "tools/list: no isError to expect");
  const stats = proposeExpectations(calls[0].request, calls[0].response);
  assert.deepEqual(stats.slice(2, 5), [
    { kind: "equals", pointer: "/result/content/0/text/total", value: 12 },
    { kind: "equals", pointer: "/result/content/0/text/unassigned", value: 3 },
    { kind: "equals", pointer: "/result/content/0/text/byStatus/open", value: 6 },
  ]);
});

test("unchanged: the volatile guesses let a second create_issue pass; without them it fails at the id", async () => {
  const first = await callTool("create_issue", { title: "Same", labels: ["bug"] });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = await callTool("create_issue", { title: "Same", labels: ["bug"] });
  const unchanged = proposeUnchanged(first.response);
  assert.deepEqual(unchanged?.volatile, ["/content/0/text/id", "/content/0/text/created_at", "/content/0/text/updated_at"]);
  assert.deepEqual(unchanged?.recorded, first.response.result);
  assertAllPass([unchanged!], second.request, second.response);
  const strict = proposeUnchanged(first.response, []);
  assert.equal(strict?.volatile, undefined, "no volatile pointers: the member is left out");
  const verdict = evaluateExpectation(strict!, { request: second.request, response: second.response, durationMs: 1 });
  assert.equal(verdict.pass, false);
  // The text differs as a whole: its id (13, then 14) is the first difference inside it.
  assert.match(verdict.message, /^changed at \/content\/0\/text: recorded "\{\\n {2}\\"id\\": 13,.*now "\{\\n {2}\\"id\\": 14,/);
});

test("unchanged on structuredContent and its text copy; on an error; chosen volatile pointers are deduplicated", async () => {
  const { response } = await callTool("search_issues", { query: "CSV", limit: 1 });
  assert.deepEqual(proposeUnchanged(response)?.volatile, [
    "/content/0/text/issues/0/id",
    "/content/0/text/issues/0/created_at",
    "/content/0/text/issues/0/updated_at",
    "/structuredContent/issues/0/id",
    "/structuredContent/issues/0/created_at",
    "/structuredContent/issues/0/updated_at",
  ]);
  const error = { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Tool nope not found", data: { request_id: "r-1" } } };
  assert.deepEqual(proposeUnchanged(error), {
    kind: "unchanged",
    pointer: "/error",
    recorded: error.error,
    volatile: ["/data/request_id"],
  });
  assert.deepEqual(proposeUnchanged({ jsonrpc: "2.0", id: 1, result: { a: 1 } }, ["/a", "/a"]), {
    kind: "unchanged",
    recorded: { a: 1 },
    volatile: ["/a"],
  });
  assert.equal(proposeUnchanged({ jsonrpc: "2.0", id: 1 }), undefined);
});

test("volatilePointers: by name, by value, escaped, inside JSON text", () => {
  const uuid = "3f2504e0-4f89-11d3-9a0c-0305e82c3301";
  const value = {
    id: 1,
    issue_id: 2,
    userId: "u_ada",
    created_at: 0,
    updatedAt: "yesterday",
    nextCursor: "dG9vbHM6NQ",
    when: "2026-07-01T09:00:00.000Z",
    day: "2026-07-01",
    ref: uuid,
    digest: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    session: "k7Hq2mX9pL4vR8sT3wY6zB1n",
    "a/b~c_id": 5,
    keep: { status: "open", count: 3, paid: true, valid: "yes", hidden: "Id" },
    items: [{ id: 10 }, uuid],
    text: JSON.stringify({ id: 9, name: "x" }),
  };
  assert.deepEqual(volatilePointers(value, "/result"), [
    "/result/id",
    "/result/issue_id",
    "/result/userId",
    "/result/created_at",
    "/result/updatedAt",
    "/result/nextCursor",
    "/result/when",
    "/result/day",
    "/result/ref",
    "/result/digest",
    "/result/session",
    "/result/a~1b~0c_id",
    "/result/items/1",
    "/result/items/0/id",
    "/result/text/id",
  ]);
  assert.deepEqual(volatilePointers({ a: [1, "two", null, false] }), []);
  assert.deepEqual(volatilePointers("2026-07-01"), [], "the root itself is not a member: nothing to point at below it");
});

test("long strings and {{placeholder}}-like values become present; the value list stops at 8", () => {
  const request = { method: "tools/call", params: { name: "x" } };
  const long = "w".repeat(201);
  const response = {
    jsonrpc: "2.0",
    id: 1,
    result: {
      structuredContent: {
        long,
        exact: "w".repeat(200),
        template: "Hello {{name}}",
        "{{key}}": 1,
        list: Array.from({ length: 20 }, (_, i) => i),
      },
    },
  };
  const expect = proposeExpectations(request, response);
  const SC = "/result/structuredContent";
  assert.deepEqual(expect, [
    { kind: "no-error" },
    { kind: "is-error", value: false },
    { kind: "present", pointer: `${SC}/long` },
    { kind: "equals", pointer: `${SC}/exact`, value: "w".repeat(200) },
    { kind: "present", pointer: `${SC}/template` },
    { kind: "equals", pointer: `${SC}/list/0`, value: 0 },
    { kind: "equals", pointer: `${SC}/list/1`, value: 1 },
    { kind: "equals", pointer: `${SC}/list/2`, value: 2 },
    { kind: "equals", pointer: `${SC}/list/3`, value: 3 },
  ]);
  assertAllPass(expect, request, response);
});

test("plain text: the first non-blank line, cut at 80 characters (whole code points), before any {{", () => {
  const request = { method: "tools/call", params: { name: "x" } };
  const answer = (text: string, extra: unknown[] = []) => ({
    jsonrpc: "2.0",
    id: 1,
    result: { content: [...extra, { type: "text", text }] },
  });
  const line = `${"é".repeat(79)}😀 and more after the cut`;
  const cases: [Record<string, unknown>, Expectation[]][] = [
    [answer(`\n\n  ${line}\nsecond line`), [{ kind: "text-contains", text: `${"é".repeat(79)}😀` }]],
    [answer("Dear {{name}}, hello"), [{ kind: "text-contains", text: "Dear" }]],
    [answer("{{name}}"), []],
    [answer("   \n  "), []],
    [answer("[1, 2]"), [{ kind: "text-contains", text: "[1, 2]" }]],
    [
      answer('{"ok":true}', [{ type: "image", data: "AAAA", mimeType: "image/png" }]),
      [{ kind: "equals", pointer: "/result/content/1/text/ok", value: true }],
    ],
  ];
  for (const [response, tail] of cases) {
    const expect = proposeExpectations(request, response);
    assert.deepEqual(expect, [{ kind: "no-error" }, { kind: "is-error", value: false }, ...tail]);
    assertAllPass(expect, request, response);
  }
});

test("output-schema only for the tool called, and only when the answer is valid against its schema", async () => {
  const search = toolNamed("search_issues");
  const { request, response } = await callTool("search_issues", { limit: 1 });
  const other = { ...request, params: { name: "get_issue", arguments: {} } };
  assert.ok(!proposeExpectations(other, response, search).some((e) => e.kind === "output-schema"));
  const invalid = { ...response, result: { ...(response.result as object), structuredContent: { total: "1" } } };
  const expect = proposeExpectations(request, invalid, search);
  assert.ok(!expect.some((e) => e.kind === "output-schema"));
  assertAllPass(expect, request, invalid);
});

test("nothing that looks like a credential is copied: a phrase holding one is present, such a line no text-contains", () => {
  const key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0";
  const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const request = { method: "tools/call", params: { name: "sign_in" } };
  const text = (t: string) => ({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: t }] } });
  for (const line of [`Signed in with key ${key} as ada`, `Use "Bearer ${token}" from now on`]) {
    const response = text(`${line}\nsecond line`);
    const expect = proposeExpectations(request, response);
    assert.deepEqual(expect, [{ kind: "no-error" }, { kind: "is-error", value: false }], line);
    assertAllPass(expect, request, response);
  }
  const SC = "/result/structuredContent";
  const response = {
    jsonrpc: "2.0",
    id: 1,
    result: { structuredContent: { note: `Signed in with key ${key}`, user: "ada", keys: { [token]: true }, count: 2 } },
  };
  const expect = proposeExpectations(request, response);
  assert.deepEqual(expect, [
    { kind: "no-error" },
    { kind: "is-error", value: false },
    { kind: "present", pointer: `${SC}/note` },
    { kind: "equals", pointer: `${SC}/user`, value: "ada" },
    { kind: "equals", pointer: `${SC}/count`, value: 2 },
  ]);
  assertAllPass(expect, request, response);
});

test("unchanged: what looks like a credential is not recorded, and its pointer is volatile; the proposal can be shared", () => {
  const key = "sk-proj-" + "a1B2c3D4e5F6g7H8i9J0";
  const token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
  const request = { method: "tools/call", params: { name: "sign_in", arguments: {} } };
  const json = JSON.stringify({ user: "ada", session: token }, null, 2);
  const response = {
    jsonrpc: "2.0",
    id: 1,
    result: {
      content: [
        { type: "text", text: `Signed in with key ${key}` },
        { type: "text", text: json },
      ],
      structuredContent: { user: "ada", keys: { [token]: true }, list: ["ok", `Bearer ${token}`] },
    },
  };
  const unchanged = proposeUnchanged(response);
  const hidden = "(not recorded: it looks like a credential)";
  assert.deepEqual(unchanged, {
    kind: "unchanged",
    recorded: {
      content: [
        { type: "text", text: hidden },
        { type: "text", text: JSON.stringify({ user: "ada", session: hidden }, null, 2) },
      ],
      structuredContent: { user: "ada", keys: hidden, list: ["ok", hidden] },
    },
    // The guesses first (a token by value, a Bearer phrase), then every place left out of the record.
    volatile: ["/content/1/text/session", "/structuredContent/list/1", "/content/0/text", "/structuredContent/keys"],
  });
  assertAllPass([unchanged!], request, response);
  // Volatile pointers the person chose are kept, and the hidden ones added to them.
  assert.deepEqual(proposeUnchanged(response, ["/structuredContent/user"])?.volatile, [
    "/structuredContent/user",
    "/content/0/text",
    "/content/1/text/session",
    "/structuredContent/keys",
    "/structuredContent/list/1",
  ]);
  // Nothing proposed here is what a link refuses.
  const c: Collection = {
    format: "toolscope.collection/1",
    name: "p",
    calls: [{ name: "c", request, expect: [...proposeExpectations(request, response), unchanged!] }],
  };
  const shared = decodeCollectionShare(encodeCollectionShare(c));
  assert.deepEqual(JSON.parse(JSON.stringify(shared)), c);
});
