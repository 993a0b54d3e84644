import { test } from "node:test";
import assert from "node:assert/strict";
import { readRequestArguments, writeRequestArguments } from "./request-arguments.ts";

const CALL = `{
  "jsonrpc": "2.0",
  "id": 7,
  "method": "tools/call",
  "params": {
    "name": "assign_issue",
    "arguments": {
      "issue_id": 3
    },
    "_meta": { "progressToken": "p1", "big": 9007199254740993 }
  }
}`;

test("reads the arguments and the name of a tools/call or prompts/get", () => {
  assert.deepEqual(readRequestArguments(CALL), { ok: true, method: "tools/call", name: "assign_issue", arguments: { issue_id: 3 } });
  const prompt = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "prompts/get", params: { name: "review" } });
  assert.deepEqual(readRequestArguments(prompt), { ok: true, method: "prompts/get", name: "review", arguments: undefined });
});

test("says why there are no arguments to show, never throws", () => {
  const reason = (text: string) => {
    const r = readRequestArguments(text);
    assert.equal(r.ok, false);
    return r.ok ? "" : `${r.reason}: ${r.message}`;
  };
  assert.match(reason("{ nope"), /^invalid-json: The request is not valid JSON/);
  assert.match(reason("[1]"), /^not-an-object/);
  assert.match(reason('{"method":"tools/list"}'), /^other-method: .*this request is tools\/list/);
  assert.match(reason('{"method":"tools/call","params":3}'), /^bad-params/);
  assert.match(reason('{"method":"tools/call","params":{"arguments":"x"}}'), /^bad-arguments/);
  assert.match(reason('{"method":"tools/call","params":{"arguments":{"n":9007199254740993}}}'), /^unsafe-integers: .*\(\/n\)/);
});

test("writes only params.arguments: id, _meta (an unsafe integer included), key order and layout elsewhere stay", () => {
  const w = writeRequestArguments(CALL, { issue_id: 4, assignee: { team: "support" } });
  assert.ok(w.ok);
  assert.equal(
    w.text,
    `{
  "jsonrpc": "2.0",
  "id": 7,
  "method": "tools/call",
  "params": {
    "name": "assign_issue",
    "arguments": {
      "issue_id": 4,
      "assignee": {
        "team": "support"
      }
    },
    "_meta": { "progressToken": "p1", "big": 9007199254740993 }
  }
}`,
  );
  // No arguments yet: added to params with 2-space indentation.
  const bare = `{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "prompts/get",\n  "params": {\n    "name": "review"\n  }\n}`;
  const added = writeRequestArguments(bare, { code: "x" });
  assert.ok(added.ok);
  assert.deepEqual(JSON.parse(added.text), {
    jsonrpc: "2.0",
    id: 1,
    method: "prompts/get",
    params: { name: "review", arguments: { code: "x" } },
  });
  assert.match(added.text, /\n {4}"arguments": \{\n {6}"code": "x"\n {4}\}/);
});

test("refuses to write where it cannot, keeping the text; replaces arguments that are not an object", () => {
  assert.deepEqual(writeRequestArguments("{ nope", {}), {
    ok: false,
    message: "The request is not valid JSON; fix it in the editor and the form follows.",
  });
  assert.equal(writeRequestArguments('{"method":"ping"}', {}).ok, false);
  const unsafe = writeRequestArguments('{"method":"tools/call","params":{"arguments":{"n":9007199254740993}}}', { n: 1 });
  assert.equal(unsafe.ok, false, "the exact literal would be lost");
  const fixed = writeRequestArguments('{"method":"tools/call","params":{"name":"t","arguments":"x"}}', { a: 1 });
  assert.ok(fixed.ok);
  assert.deepEqual(JSON.parse(fixed.text).params, { name: "t", arguments: { a: 1 } });
});
