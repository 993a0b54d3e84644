import { test } from "node:test";
import assert from "node:assert/strict";
import { META_CLIENT_INFO, META_PROTOCOL_VERSION, stampMessage } from "./meta.ts";

test("modern requests get an id and the _meta envelope, and every addition is reported", () => {
  const { message, added } = stampMessage({ method: "tools/list" }, "modern", () => 7);
  assert.equal(message.id, 7);
  assert.equal(message.jsonrpc, "2.0");
  const meta = (message.params as { _meta: Record<string, unknown> })._meta;
  assert.equal(meta[META_PROTOCOL_VERSION], "2026-07-28");
  assert.deepEqual(
    added.map((a) => a.name),
    [
      "/jsonrpc",
      "/id",
      "/params",
      "/params/_meta/io.modelcontextprotocol~1protocolVersion",
      "/params/_meta/io.modelcontextprotocol~1clientInfo",
      "/params/_meta/io.modelcontextprotocol~1clientCapabilities",
    ],
  );
});

test("what the user wrote wins", () => {
  const input = {
    jsonrpc: "2.0",
    id: "a",
    method: "tools/call",
    params: { name: "x", _meta: { [META_CLIENT_INFO]: { name: "me", version: "1" } } },
  };
  const { message, added } = stampMessage(input, "modern", () => 1);
  assert.equal(message.id, "a");
  assert.deepEqual((message.params as { _meta: Record<string, unknown> })._meta[META_CLIENT_INFO], { name: "me", version: "1" });
  assert.equal(added.length, 2);
  assert.equal(input.params._meta[META_PROTOCOL_VERSION as never], undefined, "input is not mutated");
});

test("legacy requests get no envelope; notifications get no id", () => {
  assert.deepEqual(stampMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" }, "legacy", () => 2).added, []);
  assert.equal("id" in stampMessage({ jsonrpc: "2.0", method: "notifications/cancelled" }, "legacy", () => 2).message, false);
});

test("the tasks extension is declared only when asked, beside the apps extension or without it", async () => {
  const { clientCapabilities, TASKS_EXTENSION_ID, UI_EXTENSION } = await import("./meta.ts");
  const ext = (c: Record<string, unknown>) => Object.keys((c.extensions as Record<string, unknown> | undefined) ?? {});
  assert.deepEqual(ext(clientCapabilities(true)), [UI_EXTENSION]);
  assert.deepEqual(ext(clientCapabilities(true, true)), [UI_EXTENSION, TASKS_EXTENSION_ID]);
  assert.deepEqual(ext(clientCapabilities(false, true)), [TASKS_EXTENSION_ID]);
  assert.deepEqual(ext(clientCapabilities(false)), []);
});
