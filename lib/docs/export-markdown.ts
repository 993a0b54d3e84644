/**
 * A server's definitions → one Markdown file, ready for a README. Pure. Everything in it comes from an untrusted
 * server, and every such string goes through the one neutraliser in ./markdown-safety.ts: names, titles, cells and
 * headings show literally; descriptions keep their Markdown but no raw HTML, no link syntax of their own (only
 * http/https/mailto links we re-emit), and no headings that would break the document's outline. The server URL
 * is shown with credentials removed.
 */
import type { ExcludedTool, ServerSummary, Tool, ToolsResponse } from "../mcp/contract.ts";
import { redactServerUrl } from "../mcp/secrets.ts";
import { effectiveHints, hintSummary } from "./annotations.ts";
import { displayName, firstLine } from "./display-name.ts";
import { shortJson } from "./format-value.ts";
import { markdownCodeSpan, markdownDestination, neutralizeMarkdown, neutralizeMarkdownBlock, safeHref } from "./markdown-safety.ts";
import { buildParamTree, ITEM_TOKEN, ANY_KEY_TOKEN, type ParamRow } from "./param-rows.ts";
import { unescapeToken } from "../json/pointer.ts";

/** What an export is made from: a snapshot's (or live) definitions, and where they were taken. */
export interface ExportInput {
  server: ServerSummary;
  list: Pick<ToolsResponse, "tools" | "excluded" | "ttlMs" | "cacheScope" | "fetchedAt">;
  /** The permalink of the snapshot, when exporting one. */
  permalink?: string;
  /** ISO time the snapshot was taken. */
  takenAt?: string;
}

/** The server's display name: serverInfo title, then name, then its URL (credentials removed). */
export function serverDisplayName(server: ServerSummary): string {
  const t = server.serverInfo?.title?.trim() || server.serverInfo?.name?.trim();
  return t || redactServerUrl(server.displayUrl);
}

/** Text for a table cell, shown literally: one line, pipes escaped, no HTML, no Markdown. */
export function escapeCell(text: string): string {
  return neutralizeMarkdown(String(text).trim(), { cell: true });
}

/** A description for a table cell: one line, inline Markdown kept (code, emphasis, safe links), nothing else. */
export function markdownCell(text: string): string {
  return neutralizeMarkdown(String(text).trim(), { markdown: true, cell: true });
}

/**
 * Text shown literally (headings, names): one line, HTML and inline Markdown punctuation escaped.
 * With `lineStart`, also a leading block marker (`#`, `-`, `+`, `1.`) that would start a heading or list.
 */
export function escapeInline(text: string, lineStart = false): string {
  const out = neutralizeMarkdown(String(text).replace(/\r\n|\r|\n/g, " "));
  return lineStart ? out.replace(/^(\s*)([#+-]|\d+(?=[.)]))/, "$1\\$2") : out;
}

/** An inline code span that survives any content (backticks, pipes in tables, newlines). */
export function code(text: string): string {
  return markdownCodeSpan(text);
}

/** A description as a Markdown block (see {@link neutralizeMarkdownBlock}), headings demoted below `minHeading`. */
export function safeMarkdownBlock(source: string, minHeading = 4): string {
  return neutralizeMarkdownBlock(source, { minHeading });
}

/** GitHub's heading anchor for a heading whose text is `text` (lowercase, punctuation dropped, spaces → dashes). */
export function githubAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/** A parameter's dotted name from its JSON pointer: `/filters/-/name` → `filters[].name`. */
export function dottedPath(pointer: string): string {
  let out = "";
  for (const raw of pointer.split("/").slice(1)) {
    const token = unescapeToken(raw);
    if (token === ITEM_TOKEN) out += "[]";
    else if (token === ANY_KEY_TOKEN) out += out === "" ? "*" : ".*";
    else out += out === "" ? token : `.${token}`;
  }
  return out;
}

interface FlatRow {
  name: string;
  row: ParamRow;
  /** The alternative this row belongs to, e.g. "oneOf: option 1". */
  within?: string;
}

function flatten(rows: ParamRow[], out: FlatRow[], within?: string): void {
  for (const row of rows) {
    out.push({ name: row.path === "" ? row.name : dottedPath(row.path) || row.name, row, within });
    flatten(row.children, out, within);
    for (const alt of row.alternatives ?? []) flatten(alt.rows, out, `${alt.kind}: ${alt.label}`);
  }
}

function details(row: ParamRow): string {
  const bits: string[] = [];
  if (row.const !== undefined) bits.push(`Always ${code(shortJson(row.const))}.`);
  if (row.enum) bits.push(`One of ${row.enum.map((v) => code(shortJson(v))).join(", ")}${row.enumTruncated ? ", …" : ""}.`);
  if (row.hasDefault) bits.push(`Default ${code(shortJson(row.default))}.`);
  if (row.format) bits.push(`Format ${escapeCell(row.format)}.`);
  if (row.constraints.length > 0) bits.push(`${escapeCell(row.constraints.join(", "))}.`);
  if (row.examples?.length) bits.push(`Example ${code(shortJson(row.examples[0]))}.`);
  if (row.xMcpHeader) bits.push(`Mirrored to header ${code(`Mcp-Param-${row.xMcpHeader}`)}.`);
  if (row.deprecated) bits.push("Deprecated.");
  if (row.cycleRef) bits.push(`Recursive: same shape as ${code(row.cycleRef)}.`);
  if (row.externalRef) bits.push(`External schema ${code(row.externalRef)} (not fetched).`);
  return bits.join(" ");
}

/** A schema as a Markdown table (or a sentence when there is nothing to tabulate). */
export function schemaTable(schema: unknown, kind: "input" | "output"): string {
  const tree = buildParamTree(schema);
  if (tree.noParameters) return kind === "input" ? "No parameters." : "An object with no declared fields.";
  const rows: FlatRow[] = [];
  flatten(tree.rows, rows);
  for (const alt of tree.rootAlternatives ?? []) flatten(alt.rows, rows, `${alt.kind}: ${alt.label}`);
  if (rows.length === 0) return `Type: ${code(tree.rootType)}.`;
  const head =
    kind === "input"
      ? "| Parameter | Type | Required | Description |\n|---|---|---|---|"
      : "| Field | Type | Always present | Description |\n|---|---|---|---|";
  const body = rows.map(({ name, row, within }) => {
    const desc = [row.description ? markdownCell(row.description) : "", details(row), within ? `(In ${escapeCell(within)}.)` : ""]
      .filter(Boolean)
      .join(" ");
    return `| ${code(name)} | ${escapeCell(row.type)} | ${row.required ? "yes" : "no"} | ${desc} |`;
  });
  const notes: string[] = [];
  if (tree.additionalProperties === "forbidden") notes.push("No other properties are accepted.");
  if (tree.truncated) notes.push(`Only the first ${tree.rowCount} rows are shown.`);
  return [head, ...body].join("\n") + (notes.length ? `\n\n${notes.join(" ")}` : "");
}

function annotationsTable(tool: Tool): string {
  const rows = effectiveHints(tool).map((h) => {
    const note = [h.source === "set" ? "set by the server" : "spec default", h.meaningful ? "" : "not meaningful for a read-only tool"]
      .filter(Boolean)
      .join("; ");
    return `| ${h.key} | ${h.value} | ${h.label} | ${note} |`;
  });
  return (
    ["| Hint | Value | Meaning | Source |", "|---|---|---|---|", ...rows].join("\n") +
    "\n\nHints are claims made by the server, not guarantees."
  );
}

function toolSection(tool: Tool): string {
  const name = displayName(tool);
  const parts = [`## ${escapeInline(tool.name)}`];
  if (name !== tool.name) parts.push(`**${escapeInline(name)}**`);
  parts.push(typeof tool.description === "string" && tool.description.trim() ? safeMarkdownBlock(tool.description) : "_No description._");
  parts.push("### Parameters", schemaTable(tool.inputSchema, "input"));
  parts.push(
    "### Output",
    tool.outputSchema
      ? `Successful results carry \`structuredContent\` matching this schema.\n\n${schemaTable(tool.outputSchema, "output")}`
      : "No output schema: results are unstructured content blocks.",
  );
  parts.push("### Annotations", annotationsTable(tool));
  return parts.join("\n\n");
}

function excludedSection(excluded: ExcludedTool[]): string {
  const rows = excluded.map((e) => `| ${code(String(e.tool?.name ?? ""))} | ${escapeCell(e.reason)} |`);
  return [
    "## Excluded tools",
    "Listed by the server but not callable under the client rules.",
    ["| Tool | Reason |", "|---|---|", ...rows].join("\n"),
  ].join("\n\n");
}

/** The whole Markdown document. */
export function exportMarkdown(input: ExportInput): string {
  const { server, list } = input;
  const info = server.serverInfo;
  const facts = [
    info?.name ? code(info.name) : "",
    info?.version ? `v${escapeInline(info.version)}` : "",
    escapeInline(redactServerUrl(server.displayUrl)),
    `MCP ${escapeInline(server.protocolVersion)} (${escapeInline(server.era)})`,
  ].filter(Boolean);
  const permalink = safeHref(input.permalink);
  const source = permalink
    ? `Generated by Toolscope from [snapshot](${markdownDestination(permalink)})${input.takenAt ? ` taken ${escapeInline(input.takenAt)}` : ""}.`
    : `Generated by Toolscope from the definitions fetched ${escapeInline(list.fetchedAt)}.`;
  const parts = [`# ${escapeInline(serverDisplayName(server))}`, `> ${source}`, facts.join(" · ")];
  if (info?.description) parts.push(escapeInline(info.description, true));
  const index = list.tools.map((t) => {
    const title = displayName(t);
    const link = `[${code(t.name)}](#${githubAnchor(t.name)})`;
    return `| ${link} | ${title !== t.name ? escapeCell(title) : ""} | ${markdownCell(firstLine(t.description))} | ${escapeCell(hintSummary(t))} |`;
  });
  parts.push(
    `## Tools (${list.tools.length})`,
    list.tools.length === 0
      ? "The server lists no tools."
      : ["| Tool | Title | Description | Behaviour |", "|---|---|---|---|", ...index].join("\n"),
  );
  for (const tool of list.tools) parts.push(toolSection(tool));
  if (list.excluded.length > 0) parts.push(excludedSection(list.excluded));
  return `${parts.join("\n\n")}\n`;
}
