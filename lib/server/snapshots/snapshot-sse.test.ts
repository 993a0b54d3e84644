import { test } from "node:test";
import assert from "node:assert/strict";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import { snapshotDefinitions, snapshotId } from "./snapshot-store.ts";

// The transport is a definition (the shared docs page shows the deprecated HTTP+SSE badge), so a snapshot keeps it.

const server: ServerSummary = {
  serverInfo: { name: "everything", version: "1.0.0" },
  era: "legacy",
  protocolVersion: "2024-11-05",
  supportedVersions: ["2024-11-05"],
  capabilities: { tools: {} },
  displayUrl: "http://127.0.0.1:3001/sse",
};
const list: ToolsResponse = {
  tools: [{ name: "echo", inputSchema: { type: "object" } }],
  excluded: [],
  fetchedAt: "2026-12-02T14:00:00.000Z",
  pages: 1,
  warnings: [],
};

test("an HTTP+SSE server's snapshot keeps transport: sse; a Streamable HTTP one has no transport field", () => {
  const sse = snapshotDefinitions("http://127.0.0.1:3001/sse", { server: { ...server, transport: "sse" }, list });
  assert.equal(sse.server.transport, "sse");
  const streamable = snapshotDefinitions("http://127.0.0.1:3001/sse", { server, list });
  assert.equal("transport" in streamable.server, false, "absent, not undefined: ids of existing snapshots do not change");
  assert.notEqual(snapshotId(sse), snapshotId(streamable));
});
