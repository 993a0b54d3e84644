import { test } from "node:test";
import assert from "node:assert/strict";
import { flattenLinks, methodCatalogue, methodInfo, paramsSchema } from "./mcp-catalogue.ts";

test("the modern catalogue has server/discover and subscriptions/listen but no initialize or ping", () => {
  const methods = methodCatalogue("modern").map((m) => m.method);
  for (const m of [
    "server/discover",
    "tools/list",
    "tools/call",
    "subscriptions/listen",
    "resources/read",
    "prompts/get",
    "completion/complete",
  ])
    assert.ok(methods.includes(m), m);
  for (const m of ["initialize", "ping", "logging/setLevel"]) assert.ok(!methods.includes(m), m);
});

test("the legacy catalogue has initialize, ping and notifications", () => {
  const methods = methodCatalogue("legacy").map((m) => m.method);
  for (const m of ["initialize", "ping", "logging/setLevel", "notifications/initialized"]) assert.ok(methods.includes(m), m);
  assert.ok(!methods.includes("server/discover"));
});

test("tools/call maps to CallToolRequest with a one-line summary", () => {
  const info = methodInfo("modern", "tools/call");
  assert.equal(info?.definition, "CallToolRequest");
  assert.equal(info?.paramsDefinition, "CallToolRequestParams");
  assert.equal(info?.summary, "Used by the client to invoke a tool provided by the server.");
  assert.ok(Object.keys((paramsSchema("modern", "tools/call")?.properties ?? {}) as object).includes("arguments"));
});

test("{@link} tags are flattened, including the spec's squashed form", () => {
  const defs = { SubscriptionsListenRequest: {} };
  assert.equal(flattenLinks("see {@link SubscriptionsListenRequestsubscriptions/listen}", defs), "see subscriptions/listen");
  assert.equal(flattenLinks("see {@link SubscriptionsListenRequest | subscriptions/listen}", defs), "see subscriptions/listen");
  assert.equal(flattenLinks("see {@link SubscriptionsListenRequest}", defs), "see SubscriptionsListenRequest");
});
