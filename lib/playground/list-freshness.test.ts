import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { followToolList, isToolListChanged, listStaleReason, refreshNotice, type HeardAnswer } from "./list-freshness.ts";

const changed = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };
const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "t", progress: 1 } };
const ok = { jsonrpc: "2.0", id: 1, result: { content: [] } };
// As the SDK answers a call to a tool it does not have (or no longer has).
const unknownTool = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "MCP error -32602: Tool beta_summarize_issue not found" } };

const answer = (rpc: Partial<HeardAnswer["rpc"]>, method = "tools/call"): HeardAnswer => ({
  method,
  rpc: { response: ok, notifications: [], ...rpc },
});

test("list_changed is recognised by its method only", () => {
  assert.equal(isToolListChanged(changed), true);
  assert.equal(isToolListChanged({ method: "notifications/resources/list_changed" }), false);
  assert.equal(isToolListChanged(progress), false);
});

test("a list_changed among a call's notifications or the session's makes the list stale", () => {
  assert.equal(listStaleReason([answer({ notifications: [progress, changed] })]), "list-changed");
  assert.equal(listStaleReason([answer({ sessionNotifications: [changed] })]), "list-changed");
  // Any round of an MRTR exchange counts.
  assert.equal(listStaleReason([answer({ notifications: [progress] }), answer({ sessionNotifications: [changed] })]), "list-changed");
});

test("an unknown-tool answer to tools/call makes the list stale; other errors and other methods do not", () => {
  assert.equal(listStaleReason([answer({ response: unknownTool })]), "unknown-tool");
  assert.equal(listStaleReason([answer({ response: unknownTool }, "prompts/get")]), undefined);
  const badArgs = { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid arguments: issue_id must be a number" } };
  assert.equal(listStaleReason([answer({ response: badArgs })]), undefined);
  assert.equal(listStaleReason([answer({ response: null })]), undefined);
  assert.equal(listStaleReason([]), undefined);
  // Both in one exchange: the announcement is the more specific news.
  assert.equal(listStaleReason([answer({ response: unknownTool }), answer({ notifications: [changed] })]), "list-changed");
});

test("the notice says why and how many tools the new list has, or that fetching failed", () => {
  const two = [{ name: "a" }, { name: "b" }] as Tool[];
  assert.equal(
    refreshNotice("list-changed", two),
    "The server announced that its tool list changed, so the tool list was fetched again: 2 tools.",
  );
  assert.equal(refreshNotice("unknown-tool", two), "The server did not know that tool, so the tool list was fetched again: 2 tools.");
  assert.equal(
    refreshNotice("list-changed", null),
    "The server announced that its tool list changed, and fetching the tool list again failed.",
  );
});

test("followToolList fetches again and reports; a refresh that throws counts as failed", async () => {
  const notices: string[] = [];
  const list = [{ name: "a" }] as Tool[];
  let calls = 0;
  const got = await followToolList(
    "list-changed",
    async () => {
      calls++;
      return list;
    },
    (n) => notices.push(n),
  );
  assert.equal(got, list);
  assert.equal(calls, 1);
  const failed = await followToolList(
    "unknown-tool",
    () => Promise.reject(new Error("offline")),
    (n) => notices.push(n),
  );
  assert.equal(failed, null);
  assert.deepEqual(notices, [refreshNotice("list-changed", list), refreshNotice("unknown-tool", null)]);
});

test("a second change heard while the list is being fetched joins that fetch: one request, one notice", async () => {
  const notices: string[] = [];
  let calls = 0;
  let finish!: (list: Tool[]) => void;
  const refresh = () => {
    calls++;
    return new Promise<Tool[] | null>((resolve) => (finish = resolve));
  };
  const first = followToolList("list-changed", refresh, (n) => notices.push(n));
  const second = followToolList("list-changed", refresh, (n) => notices.push(n));
  assert.equal(calls, 1);
  finish([{ name: "a" }] as Tool[]);
  assert.deepEqual(await first, await second);
  assert.equal(notices.length, 1);
  // Once done, the next change fetches again.
  const third = followToolList("unknown-tool", refresh, (n) => notices.push(n));
  assert.equal(calls, 2);
  finish([] as Tool[]);
  await third;
  assert.deepEqual(notices.at(-1), refreshNotice("unknown-tool", []));
});
