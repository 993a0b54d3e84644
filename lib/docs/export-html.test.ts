import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { ServerSummary, Tool } from "../mcp/contract.ts";
import type { ExportInput } from "./export-markdown.ts";
import { exportHtml } from "./export-html.ts";

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

const input: ExportInput = {
  server,
  list: { tools: [search, hostile], excluded: [{ tool: { name: "bad_header", inputSchema: {} }, reason: "region: not a string" }], ttlMs: 0, fetchedAt: "2026-12-02T14:00:00.000Z" },
  permalink: "http://localhost:3000/s/abc",
  takenAt: "2026-12-02T14:00:00.000Z",
};

describe("HTML export", () => {
  const html = exportHtml(input);

  test("self-contained: no script, no external resources, a CSP that forbids them", () => {
    assert.doesNotMatch(html, /<script|<img|<link|<iframe|<object|\ssrc="|@import|url\(/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);
    assert.match(html, /<style>/);
  });

  test("every server string is escaped", () => {
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /href="javascript/);
    assert.match(html, /<code>evil\|tool<\/code>/);
  });

  test("index, tool sections, parameters, badges with defaults, raw JSON", () => {
    assert.match(html, /<h1>Issue tracker<\/h1>/);
    assert.match(html, /<a href="#tool-0"><code>search_issues<\/code><\/a>/);
    assert.match(html, /<section id="tool-1">/);
    assert.match(html, /<td><code>filters\.labels<\/code><\/td><td>array&lt;string&gt;<\/td>/);
    assert.match(html, /read-only<\/span>/);
    assert.match(html, /open world \(default\)<\/span>/);
    assert.match(html, /<summary>Definition \(JSON\)<\/summary><pre>\{\n  &quot;name&quot;: &quot;search_issues&quot;/);
  });
});
