/**
 * A server's definitions → one self-contained static HTML page: inline CSS, no scripts, no external resources
 * (a CSP meta tag forbids them as a second line of defence), every server-supplied string escaped.
 * Descriptions render the inline Markdown the docs page renders (code spans, emphasis, …; ./markdown-html.ts) over
 * escaped text, so no server string ever becomes an element or attribute of its own; the only links are our own
 * (`#tool-N` and a checked http(s) permalink), and the server URL is shown with credentials removed. Pure.
 */
import type { Tool } from "../mcp/contract.ts";
import { redactServerUrl } from "../mcp/secrets.ts";
import { effectiveHints, hintSummary } from "./annotations.ts";
import { displayName, firstLine } from "./display-name.ts";
import { dottedPath, serverDisplayName, type ExportInput } from "./export-markdown.ts";
import { shortJson } from "./format-value.ts";
import { safeHref } from "./markdown-safety.ts";
import { descriptionHtml, inlineMarkdownHtml } from "./markdown-html.ts";
import { buildParamTree, type ParamRow } from "./param-rows.ts";

/** Raw definition JSON shown per tool is cut at this many characters. */
export const MAX_RAW_JSON_CHARS = 50_000;

/** HTML-escape text for element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const e = escapeHtml;

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#18181b;--muted:#71717a;--line:#e4e4e7;--chip:#f4f4f5;--accent:#3b57e0}
@media (prefers-color-scheme:dark){:root{--bg:#09090b;--fg:#f4f4f5;--muted:#a1a1aa;--line:#27272a;--chip:#18181b;--accent:#8ea2ff}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:60rem;margin:0 auto;padding:1.5rem 1rem 4rem}h1{font-size:1.6rem;margin:0 0 .25rem}h2{font-size:1.25rem;margin:2.5rem 0 .5rem;padding-top:1rem;border-top:1px solid var(--line)}
h3{font-size:1rem;margin:1.25rem 0 .4rem}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85em}code{background:var(--chip);padding:.05rem .3rem;border-radius:4px}
pre{background:var(--chip);padding:.6rem;border-radius:6px;overflow:auto;max-height:30rem}.muted{color:var(--muted)}.desc{white-space:pre-wrap;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:.4rem 0}th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:break-word}th{background:var(--chip);font-weight:600;white-space:nowrap}td:last-child{overflow-wrap:anywhere}
a{color:var(--accent)}.badge{display:inline-block;border:1px solid var(--line);border-radius:999px;padding:0 .5rem;margin:0 .25rem .25rem 0;font-size:.8rem}.badge.default{border-style:dashed}
`.trim();

function paramRows(rows: ParamRow[], out: string[], within?: string): void {
  for (const row of rows) {
    const bits: string[] = [];
    if (row.description) bits.push(`<span class="desc">${inlineMarkdownHtml(row.description)}</span>`);
    if (row.const !== undefined) bits.push(`Always <code>${e(shortJson(row.const))}</code>.`);
    if (row.enum)
      bits.push(`One of ${row.enum.map((v) => `<code>${e(shortJson(v))}</code>`).join(", ")}${row.enumTruncated ? ", …" : ""}.`);
    if (row.hasDefault) bits.push(`Default <code>${e(shortJson(row.default))}</code>.`);
    if (row.format) bits.push(`Format ${e(row.format)}.`);
    if (row.constraints.length) bits.push(`${e(row.constraints.join(", "))}.`);
    if (row.xMcpHeader) bits.push(`Header <code>Mcp-Param-${e(row.xMcpHeader)}</code>.`);
    if (row.cycleRef) bits.push(`Recursive: <code>${e(row.cycleRef)}</code>.`);
    if (row.externalRef) bits.push(`External schema <code>${e(row.externalRef)}</code> (not fetched).`);
    if (within) bits.push(`<span class="muted">(in ${e(within)})</span>`);
    const name = row.path === "" ? row.name : dottedPath(row.path) || row.name;
    out.push(
      `<tr><td><code>${e(name)}</code></td><td>${e(row.type)}</td><td>${row.required ? "yes" : "no"}</td><td>${bits.join(" ")}</td></tr>`,
    );
    paramRows(row.children, out, within);
    for (const alt of row.alternatives ?? []) paramRows(alt.rows, out, `${alt.kind}: ${alt.label}`);
  }
}

function schemaTable(schema: unknown, kind: "input" | "output"): string {
  const tree = buildParamTree(schema);
  if (tree.noParameters) return `<p>${kind === "input" ? "No parameters." : "An object with no declared fields."}</p>`;
  const rows: string[] = [];
  paramRows(tree.rows, rows);
  for (const alt of tree.rootAlternatives ?? []) paramRows(alt.rows, rows, `${alt.kind}: ${alt.label}`);
  if (rows.length === 0) return `<p>Type: <code>${e(tree.rootType)}</code>.</p>`;
  const head =
    kind === "input"
      ? "<th>Parameter</th><th>Type</th><th>Required</th><th>Description</th>"
      : "<th>Field</th><th>Type</th><th>Always present</th><th>Description</th>";
  const notes = [
    tree.additionalProperties === "forbidden"
      ? kind === "input"
        ? "No other arguments are accepted."
        : "No other fields are returned."
      : "",
    tree.truncated ? `Only the first ${tree.rowCount} rows are shown.` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return `<table><thead><tr>${head}</tr></thead><tbody>${rows.join("")}</tbody></table>${notes ? `<p class="muted">${notes}</p>` : ""}`;
}

function rawJson(tool: Tool): string {
  let text = JSON.stringify(tool, null, 2) ?? "";
  if (text.length > MAX_RAW_JSON_CHARS) text = `${text.slice(0, MAX_RAW_JSON_CHARS)}\n… (cut at ${MAX_RAW_JSON_CHARS} characters)`;
  return e(text);
}

function toolSection(tool: Tool, index: number): string {
  const name = displayName(tool);
  const badges = effectiveHints(tool)
    .filter((h) => h.meaningful)
    .map(
      (h) =>
        `<span class="badge${h.source === "default" ? " default" : ""}" title="${e(h.explanation)}">${e(h.label)}${h.source === "default" ? " (default)" : ""}</span>`,
    )
    .join("");
  return [
    `<section id="tool-${index}">`,
    `<h2>${e(name)}${name !== tool.name ? ` <code>${e(tool.name)}</code>` : ""}</h2>`,
    `<p>${badges}</p>`,
    typeof tool.description === "string" && tool.description.trim()
      ? `<div class="desc">${descriptionHtml(tool.description)}</div>`
      : `<p class="muted">No description.</p>`,
    `<h3>Parameters</h3>${schemaTable(tool.inputSchema, "input")}`,
    `<h3>Output</h3>${tool.outputSchema ? `<p>Successful results carry <code>structuredContent</code> matching this schema.</p>${schemaTable(tool.outputSchema, "output")}` : "<p>No output schema: results are unstructured content blocks.</p>"}`,
    `<details><summary>Definition (JSON)</summary><pre>${rawJson(tool)}</pre></details>`,
    `</section>`,
  ].join("\n");
}

/** The whole HTML document. */
export function exportHtml(input: ExportInput): string {
  const { server, list } = input;
  const info = server.serverInfo;
  const title = serverDisplayName(server);
  const facts = [
    info?.name ? `<code>${e(info.name)}</code>` : "",
    info?.version ? `v${e(info.version)}` : "",
    e(redactServerUrl(server.displayUrl)),
    `MCP ${e(server.protocolVersion)} (${e(server.era)})`,
  ]
    .filter(Boolean)
    .join(" · ");
  const permalink = safeHref(input.permalink);
  const source = permalink
    ? `Generated by Toolscope from <a href="${e(permalink)}">a snapshot</a>${input.takenAt ? ` taken ${e(input.takenAt)}` : ""}. Hints are claims made by the server.`
    : `Generated by Toolscope from the definitions fetched ${e(list.fetchedAt)}.`;
  const index = list.tools
    .map(
      (t, i) =>
        `<tr><td><a href="#tool-${i}"><code>${e(t.name)}</code></a></td><td>${inlineMarkdownHtml(firstLine(t.description))}</td><td>${e(hintSummary(t))}</td></tr>`,
    )
    .join("");
  const excluded = list.excluded.length
    ? `<h2>Excluded tools</h2><p>Listed by the server but not callable under the client rules.</p><table><thead><tr><th>Tool</th><th>Reason</th></tr></thead><tbody>${list.excluded.map((x) => `<tr><td><code>${e(String(x.tool?.name ?? ""))}</code></td><td>${e(x.reason)}</td></tr>`).join("")}</tbody></table>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${e(title)} — MCP tools</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${e(title)}</h1>
<p class="muted">${facts}</p>
${info?.description ? `<p class="desc">${e(info.description)}</p>` : ""}
<p class="muted">${source}</p>
<h2>Tools (${list.tools.length})</h2>
${list.tools.length ? `<table><thead><tr><th>Tool</th><th>Description</th><th>Behaviour</th></tr></thead><tbody>${index}</tbody></table>` : "<p>The server lists no tools.</p>"}
${list.tools.map(toolSection).join("\n")}
${excluded}
</main>
</body>
</html>
`;
}
