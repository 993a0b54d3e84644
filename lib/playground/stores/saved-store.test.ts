import { test } from "node:test";
import assert from "node:assert/strict";
import {
  createMemorySavedStore,
  describeRequest,
  groupByServer,
  MAX_SAVED_NAME_CHARS,
  MAX_SAVED_REQUEST_BYTES,
  planRename,
  planSave,
  searchSaved,
  type SavedRequest,
} from "./saved-store.ts";

const call = (tool: string, args: Record<string, unknown> = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: tool, arguments: args } });

let seq = 0;
const opts = (now = 1000) => ({ now, newId: () => `id${++seq}` });

function saved(name: string, server = "builtin:demo", extra: Partial<SavedRequest> = {}): SavedRequest {
  return { id: `${server}/${name}`, name, server, request: call("search_issues", { query: name }), createdAt: 1, updatedAt: 1, ...extra };
}

test("save: the name is required, trimmed and bounded; the text must be there and not too large", () => {
  assert.deepEqual(planSave([], { name: "   ", server: "builtin:demo", request: "{}" }, opts()), {
    kind: "invalid",
    error: "Give the request a name.",
  });
  const long = planSave([], { name: "x".repeat(MAX_SAVED_NAME_CHARS + 1), server: "builtin:demo", request: "{}" }, opts());
  assert.equal(long.kind, "invalid");
  assert.match((long as { error: string }).error, new RegExp(`at most ${MAX_SAVED_NAME_CHARS}`));
  assert.equal(planSave([], { name: "a", server: "builtin:demo", request: "  \n" }, opts()).kind, "invalid");
  const huge = planSave([], { name: "a", server: "builtin:demo", request: "é".repeat(MAX_SAVED_REQUEST_BYTES / 2 + 1) }, opts());
  assert.match((huge as { error: string }).error, /KB/);
  const ok = planSave(
    [],
    { name: "  Login search ", server: "builtin:demo", era: "modern", request: call("search_issues"), note: " why " },
    opts(5000),
  );
  assert.equal(ok.kind, "saved");
  const entry = (ok as { entry: SavedRequest }).entry;
  assert.equal(entry.name, "Login search");
  assert.equal(entry.note, "why");
  assert.equal(entry.era, "modern");
  assert.equal(entry.createdAt, 5000);
  assert.equal(entry.updatedAt, 5000);
});

test("save: a duplicate name on the same server asks; overwrite keeps the id and creation time", () => {
  const existing = [saved("Login"), saved("Login", "https://mcp.example.com/mcp")];
  const draft = { name: " login ", server: "builtin:demo", request: call("create_issue") };
  const asked = planSave(existing, draft, opts());
  assert.equal(asked.kind, "exists");
  assert.equal((asked as { existing: SavedRequest }).existing.id, "builtin:demo/Login");
  const replaced = planSave(existing, draft, { ...opts(9000), overwrite: true });
  assert.equal(replaced.kind, "saved");
  const { entry, replaced: old } = replaced as { entry: SavedRequest; replaced: SavedRequest };
  assert.equal(entry.id, "builtin:demo/Login");
  assert.equal(entry.createdAt, 1);
  assert.equal(entry.updatedAt, 9000);
  assert.equal(entry.request, call("create_issue"));
  assert.equal(old.request, existing[0].request);
  // The same name on another server is no conflict.
  assert.equal(planSave(existing, { ...draft, server: "stdio:files" }, opts()).kind, "saved");
});

test("rename refuses a name another request of the same server has", () => {
  const all = [saved("A"), saved("B"), saved("C", "stdio:files")];
  assert.deepEqual(planRename(all, "builtin:demo/A", " b ", 2), {
    ok: false,
    error: '"b" is already saved for this server; pick another name.',
  });
  assert.deepEqual(planRename(all, "builtin:demo/A", "C", 2), { ok: true, entry: { ...all[0], name: "C", updatedAt: 2 } });
  assert.deepEqual(planRename(all, "builtin:demo/A", "a ", 2), { ok: true, entry: { ...all[0], name: "a", updatedAt: 2 } });
  assert.equal(planRename(all, "nope", "x", 2).ok, false);
  assert.equal(planRename(all, "builtin:demo/A", "", 2).ok, false);
});

test("groups: the current server first (even empty), the others sorted; names sorted without regard to case", () => {
  const all = [saved("zeta"), saved("Alpha"), saved("beta"), saved("x", "https://b.example/mcp"), saved("y", "https://a.example/mcp")];
  const groups = groupByServer(all, "stdio:files");
  assert.deepEqual(
    groups.map((g) => g.server),
    ["stdio:files", "builtin:demo", "https://a.example/mcp", "https://b.example/mcp"],
  );
  assert.deepEqual(groups[0].requests, []);
  assert.deepEqual(
    groups[1].requests.map((r) => r.name),
    ["Alpha", "beta", "zeta"],
  );
  assert.deepEqual(
    groupByServer(all, "https://b.example/mcp").map((g) => g.server),
    ["https://b.example/mcp", "builtin:demo", "https://a.example/mcp"],
  );
});

test("search by name, note, text, method, tool and server", () => {
  const all = [
    saved("Login search", "builtin:demo", { note: "for the bug report" }),
    saved("Make issue", "builtin:demo", { request: call("create_issue", { title: "webhook fails" }) }),
    saved("List", "https://mcp.example.com/mcp", { request: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) }),
    saved("Broken", "builtin:demo", { request: "{ not json" }),
  ];
  const names = (q: string) => searchSaved(all, q).map((r) => r.name);
  assert.deepEqual(names(""), ["Login search", "Make issue", "List", "Broken"]);
  assert.deepEqual(names("LOGIN"), ["Login search"]);
  assert.deepEqual(names("bug report"), ["Login search"]);
  assert.deepEqual(names("webhook"), ["Make issue"]);
  assert.deepEqual(names("tool:create"), ["Make issue"]);
  assert.deepEqual(names("method:tools/list"), ["List"]);
  assert.deepEqual(names("server:example.com"), ["List"]);
  assert.deepEqual(names("not json"), ["Broken"]);
  assert.deepEqual(describeRequest("{ not json"), {});
  assert.deepEqual(describeRequest(call("x")), { method: "tools/call", tool: "x" });
});

test("the memory store writes and removes in one step", async () => {
  const store = createMemorySavedStore([saved("A")]);
  await store.write([saved("B"), { ...saved("A"), note: "n" }], []);
  assert.deepEqual(
    (await store.list()).map((r) => [r.name, r.note]),
    [
      ["A", "n"],
      ["B", undefined],
    ],
  );
  await store.write([], ["builtin:demo/A"]);
  assert.deepEqual(
    (await store.list()).map((r) => r.name),
    ["B"],
  );
  await store.clear();
  assert.deepEqual(await store.list(), []);
});
