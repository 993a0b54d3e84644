import { test } from "node:test";
import assert from "node:assert/strict";
import { DEPRECATIONS, deprecationSentence, serverDeprecations, serverRequestDeprecations } from "./deprecations.ts";

test("a server's declaration shows logging and HTTP+SSE; other capabilities and Streamable HTTP show nothing", () => {
  assert.deepEqual(
    serverDeprecations({ capabilities: { tools: {}, logging: {} }, transport: "sse" }).map((d) => d.id),
    ["logging", "http-sse"],
  );
  assert.deepEqual(serverDeprecations({ capabilities: { tools: {}, prompts: {} } }), []);
  assert.deepEqual(serverDeprecations({ capabilities: "nonsense" }), []);
});

test("a server's requests: roots/list and sampling are deprecated, a wide includeContext too; elicitation is not", () => {
  assert.deepEqual(
    serverRequestDeprecations({ method: "roots/list" }).map((d) => d.id),
    ["roots"],
  );
  assert.deepEqual(
    serverRequestDeprecations({ method: "sampling/createMessage", params: { includeContext: "allServers" } }).map((d) => d.id),
    ["sampling", "include-context"],
  );
  assert.deepEqual(
    serverRequestDeprecations({ method: "sampling/createMessage", params: { includeContext: "none" } }).map((d) => d.id),
    ["sampling"],
  );
  assert.deepEqual(serverRequestDeprecations({ method: "elicitation/create" }), []);
});

test("the sentence names the revision, the proposal, the migration path and the registry's earliest removal", () => {
  assert.equal(
    deprecationSentence(DEPRECATIONS.logging),
    "Logging is deprecated since 2026-07-28 (SEP-2577): log to stderr on stdio, and use OpenTelemetry for observability. It may be removed in the first revision released on or after 2027-07-28.",
  );
  assert.match(deprecationSentence(DEPRECATIONS["http-sse"]), /since 2025-03-26 .*three months after SEP-2596 reaches Final/);
  for (const d of Object.values(DEPRECATIONS)) assert.match(d.href, /^https:\/\/modelcontextprotocol\.io\/specification\/2026-07-28\//);
});
