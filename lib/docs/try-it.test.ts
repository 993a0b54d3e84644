import { test } from "node:test";
import assert from "node:assert/strict";
import { checkArgs, pendingProblems, toolCallMessage } from "./try-it.ts";

const schema = {
  type: "object",
  properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["query"],
};

test("fields whose text is not a value yet are named, so Send can say what to finish", () => {
  assert.deepEqual(pendingProblems(new Map()), []);
  assert.deepEqual(
    pendingProblems(
      new Map([
        ["/limit", "Not a number yet"],
        ["", "Broken JSON"],
      ]),
    ),
    ["limit: Not a number yet", "Broken JSON"],
  );
});

test("schema problems name the argument; valid arguments pass; an uncompilable schema blocks nothing", () => {
  assert.deepEqual(checkArgs(schema, { query: "a", limit: 2 }), { ok: true, args: { query: "a", limit: 2 } });
  const missing = checkArgs(schema, { limit: 0 });
  assert.equal(missing.ok, false);
  const problems = !missing.ok ? missing.problems.join("\n") : "";
  assert.match(problems, /query/);
  assert.match(problems, /limit/);
  assert.equal(checkArgs({ type: "bogus-type" }, { a: 1 }).ok, true);
});

test("the message is a tools/call of the tool with the arguments", () => {
  assert.deepEqual(toolCallMessage("t", { a: 1 }, 7), {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "t", arguments: { a: 1 } },
  });
});
