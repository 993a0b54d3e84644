import { test } from "node:test";
import assert from "node:assert/strict";
import { nextRequestId, requestTemplate, TEMPLATES, templatesFor, withRequestId } from "./templates.ts";
import { validateAgainst } from "../schema/validate.ts";
import { diagnoseRequest } from "./request-diagnostics.ts";
import type { Tool } from "../mcp/contract.ts";

const tool: Tool = {
  name: "list_issues",
  inputSchema: {
    type: "object",
    $defs: { Repo: { type: "object", properties: { owner: { type: "string" }, name: { type: "string" } }, required: ["owner", "name"] } },
    properties: {
      status: { type: "string", enum: ["open", "in_progress", "closed"] },
      limit: { type: "integer", default: 10 },
      repo: { $ref: "#/$defs/Repo" },
      labels: { type: "array", items: { type: "string" } },
      draft: { type: "boolean" },
      optional: { type: "string" },
    },
    required: ["status", "limit", "repo", "labels", "draft"],
  },
};

test("a tools/call template carries example arguments that validate against the tool's schema", () => {
  const args = JSON.parse(requestTemplate("tools/call", { tool })).params.arguments;
  assert.equal(validateAgainst(tool.inputSchema, args).ok, true);
  assert.deepEqual(Object.keys(args).sort(), ["draft", "labels", "limit", "repo", "status"]);
});

test("templates are 2-space pretty JSON with id 1", () => {
  const text = requestTemplate("tools/call", { tool });
  assert.equal(text, JSON.stringify(JSON.parse(text), null, 2));
  const msg = JSON.parse(text);
  assert.equal(msg.id, 1);
  assert.equal(msg.jsonrpc, "2.0");
  assert.equal(msg.params.name, "list_issues");
  assert.equal(msg.params.arguments.status, "open");
});

test("a custom exampleArgs generator is used", () => {
  const msg = JSON.parse(requestTemplate("tools/call", { tool, exampleArgs: () => ({ status: "closed" }) }));
  assert.deepEqual(msg.params.arguments, { status: "closed" });
});

for (const era of ["modern", "legacy"] as const) {
  test(`every ${era} template is free of diagnostics in its own era`, () => {
    for (const t of templatesFor(era)) {
      const text = requestTemplate(t.kind, { tool, method: "vendor/method" });
      const diags = diagnoseRequest(text, { tools: [tool], era }).filter((d) => !(t.kind === "custom" && d.code === "unknown-method"));
      assert.deepEqual(diags, [], `${era} ${t.kind}`);
    }
  });
}

test("templates list covers the methods the brief names", () => {
  const kinds = TEMPLATES.map((t) => t.kind);
  for (const k of [
    "server/discover",
    "tools/list",
    "tools/call",
    "subscriptions/listen",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "ping",
    "logging/setLevel",
    "custom",
  ]) {
    assert.ok(kinds.includes(k as never), k);
  }
  assert.ok(!templatesFor("modern").some((t) => t.kind === "ping"));
  assert.ok(!templatesFor("modern").some((t) => t.kind === "logging/setLevel"), "2026-07-28 removed logging/setLevel");
  assert.ok(templatesFor("legacy").some((t) => t.kind === "logging/setLevel"));
  assert.ok(!templatesFor("legacy").some((t) => t.kind === "server/discover"));
});

test("nextRequestId: one more than the largest numeric id of the editor text and the last sent request", () => {
  const editor = '{"jsonrpc":"2.0","id":7,"method":"tools/list"}';
  const sent = '{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"x","arguments":{"id":99}}}';
  assert.equal(nextRequestId(editor, sent), 13, "the top-level id only, not an argument named id");
  assert.equal(nextRequestId(editor), 8);
  assert.equal(nextRequestId(editor, undefined), 8);
  assert.equal(nextRequestId('{\n  "jsonrpc": "2.0",\n  "id": 3,\n  "method": '), 4, "a half-typed text still counts");
  assert.equal(nextRequestId('{"id":"abc"}', '{"id":1.5}', "not json", null), 1, "no numeric integer id: 1");
  assert.equal(nextRequestId(), 1);
  assert.equal(nextRequestId('{"id":-4}'), 1, "never below 1");
});

test("templates take the id to continue from; withRequestId re-ids a template's text and leaves other text alone", () => {
  assert.equal(JSON.parse(requestTemplate("tools/list", { id: 5 })).id, 5);
  assert.equal(JSON.parse(requestTemplate("tools/call", { tool, id: 9 })).id, 9);
  assert.equal(JSON.parse(requestTemplate("ping")).id, 1);
  const page = withRequestId(requestTemplate("tools/list"), 4);
  assert.deepEqual(JSON.parse(page), { jsonrpc: "2.0", id: 4, method: "tools/list", params: {} });
  assert.equal(page, requestTemplate("tools/list", { id: 4 }), "same text as the template written with that id");
  assert.equal(withRequestId("{ broken", 4), "{ broken");
  assert.equal(withRequestId('{"method":"notifications/initialized"}', 4), '{"method":"notifications/initialized"}');
});

test("a 2025-11-25 tool that requires a task gets the request for one; optional and forbidden tools do not", () => {
  const tool = (taskSupport?: string) => ({
    name: "research",
    inputSchema: { type: "object" },
    ...(taskSupport ? { execution: { taskSupport } } : {}),
  });
  const params = (t: ReturnType<typeof tool>) => JSON.parse(requestTemplate("tools/call", { tool: t })).params;
  assert.deepEqual(params(tool("required")).task, { ttl: 300000 });
  assert.equal(params(tool("optional")).task, undefined);
  assert.equal(params(tool("forbidden")).task, undefined);
  assert.equal(params(tool()).task, undefined);
});
