import { test } from "node:test";
import assert from "node:assert/strict";
import { diagnoseRequest, editDistance, nearestNames, type EditorDiagnostic } from "./request-diagnostics.ts";
import type { Tool } from "../mcp/contract.ts";

const issues: Tool = {
  name: "list_issues",
  inputSchema: {
    type: "object",
    properties: { status: { type: "string", enum: ["open", "in_progress", "closed"] }, limit: { type: "integer", minimum: 1 } },
    required: ["status"],
    additionalProperties: false,
  },
};
const tools: Tool[] = [issues, { name: "get_issue", inputSchema: { type: "object" } }, { name: "search", inputSchema: { type: "object" } }];

function call(name: string, args: string | null, extra = ""): string {
  return `{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/call",\n  "params": {\n    "name": ${JSON.stringify(name)}${args === null ? "" : `,\n    "arguments": ${args}`}${extra}\n  }\n}`;
}

/** [severity, source, the text under the diagnostic, message] */
function run(text: string, era: "modern" | "legacy" = "modern", t: Tool[] = tools): [string, string, string, string][] {
  return diagnoseRequest(text, { tools: t, era }).map((d: EditorDiagnostic) => [
    d.severity,
    d.source,
    text.slice(d.offset, d.offset + d.length),
    d.message,
  ]);
}

test("a valid call has no diagnostics in either era", () => {
  assert.deepEqual(run(call("list_issues", '{ "status": "open", "limit": 5 }')), []);
  assert.deepEqual(run(call("list_issues", '{ "status": "open" }'), "legacy"), []);
});

test("a bad enum value is an error on exactly that value, with a readable message", () => {
  assert.deepEqual(run(call("list_issues", '{ "status": "done" }')), [
    ["error", "arguments", '"done"', "status must be one of open, in_progress, closed"],
  ]);
});

test("an unexpected argument is flagged on its key; a missing required one on the arguments key", () => {
  assert.deepEqual(run(call("list_issues", '{ "status": "open", "colour": "red" }')), [
    ["error", "arguments", '"colour"', 'unexpected property "colour"; the schema allows no other properties'],
  ]);
  assert.deepEqual(run(call("list_issues", "{}")), [
    ["error", "arguments", '"arguments"', 'arguments is missing required property "status"'],
  ]);
  // No arguments at all: the nearest existing ancestor, the "params" key.
  assert.deepEqual(run(call("list_issues", null)), [["error", "arguments", '"params"', 'arguments is missing required property "status"']]);
});

test("an unknown tool name suggests the nearest names", () => {
  const [d] = run(call("list_isues", "{}"));
  assert.deepEqual(d, ["error", "mcp", '"list_isues"', 'unknown tool "list_isues"; did you mean "list_issues"?']);
  const [far] = run(call("zzz", "{}"));
  assert.match(far[3], /^unknown tool "zzz"; this server has 3 tools: list_issues, get_issue, search$/);
});

test("with no tools loaded the name is not checked", () => {
  assert.deepEqual(run(call("anything", "{}"), "modern", []), []);
});

test("strict JSON: comments and trailing commas are syntax errors, and nothing else is reported", () => {
  const comment = '{"jsonrpc": "2.0", // hi\n "id": 1, "method": "nope"}';
  assert.deepEqual(run(comment), [["error", "json", "// hi", "Comments are not allowed in JSON"]]);
  const block = '{"jsonrpc": "2.0", /* hi */ "id": 1, "method": "tools/list"}';
  assert.equal(run(block)[0][3], "Comments are not allowed in JSON");
  const trailing = '{"jsonrpc": "2.0", "id": 1, "method": "tools/list",\n}';
  assert.deepEqual(run(trailing), [["error", "json", ",", "Trailing commas are not allowed in JSON"]]);
  assert.equal(run('{"a": [1, 2,]}')[0][3], "Trailing commas are not allowed in JSON");
  assert.equal(run('{"a": 1')[0][0], "error");
  assert.equal(run("")[0][3], "The request is empty: write a JSON-RPC message, or pick a template");
});

test("envelope: batches, non-objects, jsonrpc version, id type, params type", () => {
  assert.match(run('[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]')[0][3], /batches .* not supported since MCP 2025-06-18/);
  assert.match(run("42")[0][3], /must be an object/);
  assert.deepEqual(run('{"jsonrpc":"1.0","id":1,"method":"tools/list"}'), [["error", "jsonrpc", '"1.0"', 'jsonrpc must be "2.0"']]);
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}'), [
    ["error", "jsonrpc", "1.5", "id must be a string or an integer"],
  ]);
  assert.deepEqual(run('{"jsonrpc":"2.0","id":null,"method":"tools/list"}')[0].slice(0, 3), ["error", "jsonrpc", "null"]);
  assert.deepEqual(run('{"jsonrpc":"2.0","id":"a","method":"tools/list","params":[1]}'), [
    ["error", "jsonrpc", "[1]", "params must be an object (MCP does not use positional params)"],
  ]);
  assert.deepEqual(
    run('{"jsonrpc":"2.0","id":1}').map((d) => d[0] + ":" + d[2]),
    ["error:{"],
  );
  assert.deepEqual(
    run('{"jsonrpc":"2.0","id":1,"method":"tools/list","result":{}}').map((d) => d[0] + ":" + d[2]),
    ['warning:"result"'],
  );
});

test("fields the proxy adds (jsonrpc, id, _meta) are info at most", () => {
  const d = diagnoseRequest('{"method":"tools/list"}', { tools, era: "modern" });
  assert.deepEqual(
    d.map((x) => [x.severity, x.code]),
    [
      ["info", "jsonrpc-missing"],
      ["info", "id-missing"],
    ],
  );
});

test("notifications must not carry an id", () => {
  assert.deepEqual(
    run('{"jsonrpc":"2.0","id":1,"method":"notifications/cancelled","params":{"requestId":1}}').map((d) => [d[0], d[2]]),
    [["warning", '"id"']],
  );
  assert.deepEqual(run('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}'), []);
});

test("unknown methods are info; methods of the other era are a warning", () => {
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"acme/reindex"}'), [
    ["info", "mcp", '"acme/reindex"', '"acme/reindex" is not a method of MCP 2026-07-28; it will be sent as a custom method'],
  ]);
  assert.match(run('{"jsonrpc":"2.0","id":1,"method":"tools/lst"}')[0][3], /did you mean "tools\/list"/);
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"ping"}')[0].slice(0, 2), ["warning", "mcp"]);
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"ping"}', "legacy"), []);
  assert.match(
    run('{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}', "legacy")[0][3],
    /method of MCP 2026-07-28, not of 2025-11-25/,
  );
});

test("params are checked against the era's MCP schema, on the offending value", () => {
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri": 5}}'), [
    ["error", "mcp", "5", "uri must be string"],
  ]);
  assert.deepEqual(
    run('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/logLevel":"loud"}}}')[0].slice(0, 3),
    ["error", "mcp", '"loud"'],
  );
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}'), [
    ["error", "mcp", '"params"', 'params is missing required property "name"'],
  ]);
  // a union told apart by a constant names the allowed tags instead of "matches none of the shapes"
  assert.deepEqual(
    run(
      '{"jsonrpc":"2.0","id":1,"method":"completion/complete","params":{"ref":{"type":"ref/x","name":"p"},"argument":{"name":"a","value":""}}}',
    ),
    [["error", "mcp", '"ref/x"', "type must be one of ref/prompt, ref/resource"]],
  );
  // legacy: _meta is optional, the params object itself is required for tools/call
  assert.deepEqual(run('{"jsonrpc":"2.0","id":1,"method":"tools/call"}', "legacy"), [
    ["error", "mcp", "{", 'the message is missing required property "params"'],
  ]);
});

test("$ref and oneOf in a tool schema go through ajv", () => {
  const tool: Tool = {
    name: "t",
    inputSchema: {
      type: "object",
      $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      properties: { at: { $ref: "#/$defs/Point" }, v: { oneOf: [{ type: "string" }, { type: "integer" }] } },
    },
  };
  assert.deepEqual(run(call("t", '{ "at": { "x": "1" } }'), "modern", [tool]), [["error", "arguments", '"1"', "x must be number"]]);
  assert.deepEqual(run(call("t", '{ "v": true }'), "modern", [tool]), [
    ["error", "arguments", "true", "v matches none of the allowed shapes (oneOf)"],
  ]);
});

test("a tool schema that does not compile is one warning on the arguments key", () => {
  const broken: Tool = { name: "b", inputSchema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } };
  const d = run(call("b", '{ "a": 1 }'), "modern", [broken]);
  assert.equal(d.length, 1);
  assert.deepEqual(d[0].slice(0, 3), ["warning", "arguments", '"arguments"']);
  assert.match(d[0][3], /inputSchema cannot be used/);
});

test("draft-07 tool schemas work", () => {
  const t7: Tool = {
    name: "d",
    inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "integer" } } },
  };
  assert.deepEqual(run(call("d", '{ "n": "x" }'), "modern", [t7]), [["error", "arguments", '"x"', "n must be integer"]]);
});

test("a 500-property schema: the error lands on the right property and a re-check is fast", () => {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < 500; i++)
    properties[`p${i}`] = i % 3 === 0 ? { type: "string", enum: ["a", "b"] } : i % 3 === 1 ? { type: "integer" } : { type: "boolean" };
  const big: Tool = { name: "big", inputSchema: { type: "object", properties, required: ["p0", "p499"], additionalProperties: false } };
  const args: Record<string, unknown> = {};
  for (let i = 0; i < 500; i++) args[`p${i}`] = i % 3 === 0 ? "a" : i % 3 === 1 ? i : true;
  args.p300 = "c";
  args.p301 = "x";
  const text = call("big", JSON.stringify(args, null, 2).replace(/\n/g, "\n    "));
  const first = run(text, "modern", [big]);
  assert.deepEqual(first, [
    ["error", "arguments", '"c"', "p300 must be one of a, b"],
    ["error", "arguments", '"x"', "p301 must be integer"],
  ]);
  const start = performance.now();
  for (let i = 0; i < 20; i++) diagnoseRequest(text.replace('"c"', i % 2 ? '"a"' : '"c"'), { tools: [big], era: "modern" });
  const perCheck = (performance.now() - start) / 20;
  assert.ok(perCheck < 50, `a warm re-check took ${perCheck.toFixed(1)} ms`);
});

test("diagnostics come back in document order", () => {
  const d = diagnoseRequest(call("list_issues", '{ "status": "done", "limit": 0 }'), { tools, era: "modern" });
  assert.deepEqual(
    [...d].sort((a, b) => a.offset - b.offset),
    d,
  );
  assert.equal(d.length, 2);
});

test("edit distance and nearest names", () => {
  assert.equal(editDistance("kitten", "sitting"), 3);
  assert.equal(editDistance("abc", "abc"), 0);
  assert.deepEqual(nearestNames("List-Issues", ["list_issues", "other"]), ["list_issues"]);
  assert.deepEqual(nearestNames("serch", ["search", "list_issues"]), ["search"]);
  assert.deepEqual(nearestNames("qqqqqq", ["search"]), []);
});

test("an integer beyond ±2^53 − 1 is an error on exactly its literal, with the precision message, wherever it is", () => {
  const text = call("list_issues", '{ "status": "open", "limit": 9007199254740993 }');
  assert.deepEqual(run(text), [
    [
      "error",
      "precision",
      "9007199254740993",
      '9007199254740993 at /params/arguments/limit is beyond ±9007199254740991 (2^53 − 1), the largest integer a JSON number holds exactly, so JSON.parse would silently turn it into 9007199254740992: send it as a string ("9007199254740993") or use a number within ±9007199254740991.',
    ],
  ]);
  const [d] = diagnoseRequest(text, { tools, era: "modern" });
  assert.equal(d.code, "unsafe-integer");
  // In the id as well (one marker each), alongside the envelope's own findings; safe neighbours and floats are quiet.
  const envelope =
    '{"jsonrpc": "2.0", "id": -9007199254740993, "method": "tools/list", "params": {"_meta": {"a": 9007199254740991, "b": 1e30, "c": [18446744073709551615]}}}';
  assert.deepEqual(
    run(envelope).map(([severity, source, under]) => [severity, source, under]),
    [
      ["error", "precision", "-9007199254740993"],
      ["error", "precision", "18446744073709551615"],
    ],
  );
  assert.match(run(envelope)[1][3], /^18446744073709551615 at \/params\/_meta\/c\/0 is beyond/);
});

test("a syntax error hides the precision check (the text is not JSON yet)", () => {
  assert.deepEqual(
    run('{"id": 9007199254740993,}').map(([, source]) => source),
    ["json"],
  );
});
