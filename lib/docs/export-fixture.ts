/** A server and tools shared by the export tests: ordinary fields, then hostile ones (pipes, HTML, javascript: links). */
import type { ServerSummary, Tool } from "../mcp/contract.ts";
import type { ExportInput } from "./export-markdown.ts";

const server: ServerSummary = {
  serverInfo: { name: "tracker", version: "1.2.0", title: "Issue tracker", description: "Tracks | issues" },
  era: "modern",
  protocolVersion: "2026-07-28",
  supportedVersions: ["2026-07-28"],
  capabilities: {},
  displayUrl: "https://example.com/mcp",
};

const search: Tool = {
  name: "search_issues",
  title: "Search issues",
  description: "Find issues.\n\nUse it to look things up. <script>alert(1)</script>",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Text with a | pipe\nand a newline", minLength: 1 },
      status: { type: "string", enum: ["open", "closed"], default: "open" },
      filters: { type: "object", properties: { labels: { type: "array", items: { type: "string" } } } },
    },
    required: ["query"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

const hostile: Tool = {
  name: "evil|tool",
  description: "# Take over\n<img src=x onerror=alert(1)>\n[click](javascript:alert(1))\n\n[ref]: javascript:alert(2)\n\n```\n<b>kept in code</b>\n",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
};

export const input: ExportInput = {
  server,
  list: { tools: [search, hostile], excluded: [{ tool: { name: "bad_header", inputSchema: {} }, reason: "region: not a string" }], ttlMs: 0, fetchedAt: "2026-12-02T14:00:00.000Z" },
  permalink: "http://localhost:3000/s/abc",
  takenAt: "2026-12-02T14:00:00.000Z",
};

