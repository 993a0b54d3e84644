/** A server and tools shared by the export tests: ordinary fields, then hostile ones (pipes, HTML, javascript: links). */
import type { ServerSummary, Tool } from "@/lib/mcp/contract";
import type { ExportInput } from "@/lib/docs/export-markdown";

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
  description:
    "# Take over\n<img src=x onerror=alert(1)>\n[click](javascript:alert(1))\n\n[ref]: javascript:alert(2)\n\n```\n<b>kept in code</b>\n",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
};

export const input: ExportInput = {
  server,
  list: {
    tools: [search, hostile],
    excluded: [{ tool: { name: "bad_header", inputSchema: {} }, reason: "region: not a string" }],
    ttlMs: 0,
    fetchedAt: "2026-12-02T14:00:00.000Z",
  },
  permalink: "http://localhost:3000/s/abc",
  takenAt: "2026-12-02T14:00:00.000Z",
};

/**
 * Hostile strings a server may put in any field, each a way to smuggle a script, vbscript or data URL into a
 * rendered Markdown file. `live`: rendered as plain Markdown without our neutraliser, at least one renderer
 * really produces such a URL (the tests check this, so every row is a real attack and the harness can see it).
 * Rows without it attack renderers other than ours (browsers drop tabs and leading controls from URLs) or our
 * own rebuilding (a `!` turning a re-emitted link into an image).
 */
export const HOSTILE_PAYLOADS: readonly { name: string; text: string; live?: boolean }[] = [
  { name: "inline link", text: "[x](javascript:alert(1))", live: true },
  { name: "escaped colon", text: "[a](javascript\\:alert(1))", live: true },
  { name: "mixed case", text: "[a](JaVaScRiPt:alert(1))", live: true },
  { name: "leading space", text: "[a](   javascript:alert(1))", live: true },
  { name: "angle destination", text: "[a](<javascript:alert(1)>)", live: true },
  { name: "angle destination, leading space and control", text: "[a](< \u0001javascript:alert(1)>)" },
  { name: "tab inside the scheme", text: "[a](<java\tscript:alert(1)>)" },
  { name: "decimal entity colon", text: "[a](javascript&#58;alert(1))", live: true },
  { name: "named entity colon", text: "[a](javascript&colon;alert(1))", live: true },
  { name: "hex entity letter", text: "[a](&#x6A;avascript:alert(1))", live: true },
  { name: "entity tab", text: "[a](java&Tab;script:alert(1))", live: true },
  { name: "entity newline", text: "[a](java&NewLine;script:alert(1))", live: true },
  { name: "all entities", text: "[a](&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1))", live: true },
  { name: "vbscript", text: "[a](vbscript:msgbox(1))", live: true },
  { name: "data link", text: "[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", live: true },
  { name: "data escaped colon", text: "[a](data\\:text/html,<script>alert(1)</script>)", live: true },
  { name: "data image", text: "![i](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)", live: true },
  { name: "javascript image", text: "![i](javascript:alert(1))", live: true },
  { name: "link with title", text: '[a](javascript:alert(1) "title")', live: true },
  { name: "reference full", text: "[a][r]\n\n[r]: javascript:alert(1)", live: true },
  { name: "reference collapsed and shortcut", text: "[a][] and [a]\n\n[a]: javascript:alert(1)", live: true },
  { name: "reference escaped colon", text: "[a]\n\n[a]: javascript\\:alert(1)", live: true },
  { name: "reference on the next line", text: "[a]\n\n[a]:\n  JAVASCRIPT:alert(1)", live: true },
  { name: "reference angle and entity", text: "[a]\n\n   [a]: <javascript&#58;alert(1)> 'title'", live: true },
  { name: "reference data", text: "[a]\n\n[a]: data:text/html,x", live: true },
  { name: "reference in a list", text: "- [a]\n- [a]: javascript:alert(1)", live: true },
  { name: "reference in a quote", text: "> [a]: javascript:alert(1)\n\n[a]", live: true },
  { name: "footnote", text: "Note[^1].\n\n[^1]: [x](javascript:alert(1))", live: true },
  { name: "autolink", text: "<javascript:alert(1)>", live: true },
  { name: "autolink upper case", text: "<JAVASCRIPT:alert(1)>", live: true },
  { name: "autolink vbscript", text: "<vbscript:msgbox(1)>", live: true },
  { name: "autolink data", text: "<data:text/html,x>", live: true },
  { name: "html anchor", text: '<a href="javascript:alert(1)">x</a>', live: true },
  { name: "html anchor unquoted", text: "<a href=javascript:alert(1)>x</a>", live: true },
  { name: "html image", text: "<img src=x onerror=alert(1)>", live: true },
  { name: "html data image", text: '<img src="data:image/svg+xml,<svg onload=alert(1)>">', live: true },
  { name: "html iframe", text: "<iframe src=javascript:alert(1)></iframe>", live: true },
  { name: "html block", text: "<div>\n<a href='javascript:alert(1)'>x</a>\n</div>", live: true },
  { name: "escaped backtick opens no code span", text: "\\`[x](javascript:alert(1))`", live: true },
  { name: "code span split by a list item", text: "text `code\n- [x](javascript:alert(1)) `", live: true },
  { name: "code span split by a table cell", text: "| a | b |\n|---|---|\n| `x | [y](javascript:alert(1))` | c |", live: true },
  { name: "fence closed by a list", text: "- item\n  ```\n[x](javascript:alert(1))\n```", live: true },
  { name: "backtick fence with a backtick info string", text: "``` a`b\n[x](javascript:alert(1))\n```", live: true },
  { name: "nested brackets", text: "[[x](javascript:alert(1))](https://example.com)", live: true },
  { name: "safe link then unsafe", text: "[ok](https://example.com) [no](javascript:alert(1))", live: true },
  { name: "backslash before bracket", text: "\\\\[a](javascript:alert(1))", live: true },
  { name: "bang before autolink", text: "!<https://example.com/x.png>" },
  { name: "entity brackets", text: "&#91;a&#93;(javascript:alert(1))" },
  { name: "control characters", text: "[a](java\u0000script:alert(1)) \u0007\u001b[31m" },
  { name: "bare scheme text", text: "javascript:alert(1) data:text/html,x vbscript:x" },
];

/** A definition list in which every string a server controls carries `p` (each field must neutralise it). */
export function hostileInput(p: string, permalink = "http://localhost:3000/s/abc"): ExportInput {
  const field = {
    type: "string",
    title: p,
    description: p,
    enum: [p, "ok"],
    default: p,
    examples: [p],
    format: p,
    pattern: p,
    "x-mcp-header": p,
  };
  const schema = {
    type: "object",
    properties: {
      [p]: field,
      plain: { ...field },
      nested: { type: "object", description: `x ${p}`, properties: { [p]: field } },
      typed: { type: p },
    },
    oneOf: [{ title: p, properties: { alt: field } }],
    required: [p],
  };
  const tool: Tool = {
    name: p,
    title: p,
    description: `Intro.\n\n${p}\n\nMore: ${p}`,
    inputSchema: schema,
    outputSchema: schema,
    annotations: { title: p, readOnlyHint: true },
    icons: [{ src: p, mimeType: p }],
    _meta: { note: p },
  };
  const leading: Tool = { name: "first_line", title: p, description: p, inputSchema: { type: "object" }, annotations: { title: p } };
  return {
    server: {
      serverInfo: { name: p, version: p, title: p, description: p, websiteUrl: p, icons: [{ src: p }] },
      era: "modern",
      protocolVersion: p,
      supportedVersions: [p],
      capabilities: {},
      instructions: p,
      displayUrl: `https://example.com/mcp?q=${encodeURIComponent(p)}`,
    },
    list: { tools: [tool, leading], excluded: [{ tool: { name: p, inputSchema: {} }, reason: p }], ttlMs: 0, fetchedAt: p },
    permalink,
    takenAt: p,
  };
}
