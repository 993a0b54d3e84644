import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../../mcp/contract.ts";
import { appCallVerdict, appVisibleTools } from "./app-calls.ts";

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({ name, inputSchema: { type: "object" }, ...extra });
const TOOLS = [
  tool("get-time", { _meta: { ui: { resourceUri: "ui://t/app.html" } }, annotations: { readOnlyHint: true } }),
  tool("poll-stats", { _meta: { ui: { visibility: ["app"] } }, annotations: { readOnlyHint: true } }),
  tool("delete-all", { _meta: { ui: { visibility: ["model"] } } }),
  tool("save-file", { _meta: { ui: { visibility: ["model", "app"] } } }),
  tool("plain"),
];

test("tools/list from an app names only the tools it may call (visibility with the default)", () => {
  assert.deepEqual(
    appVisibleTools(TOOLS).map((t) => t.name),
    ["get-time", "poll-stats", "save-file", "plain"],
  );
});

test("an app may call app-visible tools; one that is not read-only needs the person's confirmation", () => {
  assert.deepEqual(appCallVerdict("tools/call", { name: "poll-stats" }, TOOLS), {
    ok: true,
    method: "tools/call",
    tool: TOOLS[1],
    confirm: false,
  });
  const save = appCallVerdict("tools/call", { name: "save-file", arguments: {} }, TOOLS);
  assert.ok(save.ok && save.confirm);
  const plain = appCallVerdict("tools/call", { name: "plain" }, TOOLS);
  assert.ok(plain.ok && plain.confirm, "no annotations: not read-only");
});

test("refused: a model-only tool, a tool the server does not list, a call without a name, any other method", () => {
  const modelOnly = appCallVerdict("tools/call", { name: "delete-all" }, TOOLS);
  assert.deepEqual(modelOnly.ok ? undefined : [modelOnly.code, /only the agent may call it/.test(modelOnly.message)], [-32602, true]);
  const unknown = appCallVerdict("tools/call", { name: "elsewhere" }, TOOLS);
  assert.ok(!unknown.ok && /does not list/.test(unknown.message));
  assert.ok(!appCallVerdict("tools/call", {}, TOOLS).ok);
  for (const method of ["sampling/createMessage", "logging/setLevel", "subscriptions/listen", "initialize", undefined]) {
    const v = appCallVerdict(method, {}, TOOLS);
    assert.ok(!v.ok && v.code === -32601, String(method));
  }
  for (const method of ["tools/list", "resources/read", "resources/list", "resources/templates/list"])
    assert.deepEqual(appCallVerdict(method, {}, TOOLS), { ok: true, method, confirm: false });
});
