/**
 * Tool descriptions → HTML for the static export, rendering what the docs page renders inline (code spans, strong,
 * emphasis, strikethrough, links) and fenced code blocks, so the export shows "up to <code>limit</code>" rather
 * than raw backticks. Safe by construction: every server character is escaped first, and the only elements added
 * are fixed tags (code, strong, em, del, pre) around escaped text. Links keep their text and show their target as
 * text: the export links only to itself (see export-html.ts), and a target is shown only when safeHref accepts it.
 * Pure.
 */
import { safeHref } from "./markdown-safety.ts";

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A Markdown backslash escape (`\*`) becomes the character as an entity, so no rule below reads it as syntax. */
function escapeBackslashes(escaped: string): string {
  return escaped.replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => `&#${c.charCodeAt(0)};`);
}

/** Emphasis, strikethrough and links, over text that is already HTML-escaped and holds no code span. */
function inlineRules(escaped: string): string {
  return escapeBackslashes(escaped)
    .replace(
      /\[([^\]\n]+)\]\(\s*(&lt;[^\n]*?&gt;|(?:[^()\s]|\([^()\s]*\))*)(?:\s+&quot;[^)]*&quot;)?\s*\)/g,
      (_, label: string, target: string) => {
        const decoded = target
          .replace(/^&lt;([\s\S]*)&gt;$/, "$1")
          .replace(/&amp;/g, "&")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">")
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'");
        const safe = safeHref(decoded);
        return safe ? `${label} <span class="muted">(${escapeHtml(safe)})</span>` : label;
      },
    )
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "<strong>$2</strong>")
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, "<del>$1</del>")
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])/g, "$1<em>$2</em>")
    .replace(/(^|[^\w])_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w])/g, "$1<em>$2</em>");
}

/** One run of text (no fenced block) with its inline Markdown rendered. Code spans follow CommonMark's backtick runs. */
export function inlineMarkdownHtml(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const open = /`+/.exec(rest);
    if (!open) break;
    const ticks = open[0];
    // The closing run has exactly as many backticks as the opening one.
    const close = new RegExp(`(?<!\`)${ticks}(?!\`)`, "g");
    close.lastIndex = open.index + ticks.length;
    const end = close.exec(rest);
    if (!end) {
      out += inlineRules(escapeHtml(rest.slice(0, open.index + ticks.length)));
      rest = rest.slice(open.index + ticks.length);
      continue;
    }
    let code = rest.slice(open.index + ticks.length, end.index).replace(/\n/g, " ");
    if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
    out += `${inlineRules(escapeHtml(rest.slice(0, open.index)))}<code>${escapeHtml(code)}</code>`;
    rest = rest.slice(end.index + ticks.length);
  }
  return out + inlineRules(escapeHtml(rest));
}

/** A whole description: fenced code blocks (``` or ~~~) as preformatted code, the rest with inline Markdown. */
export function descriptionHtml(text: string): string {
  const parts: string[] = [];
  const lines = text.split("\n");
  let prose: string[] = [];
  const flush = () => {
    if (prose.length) parts.push(inlineMarkdownHtml(prose.join("\n")));
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (!fence) {
      prose.push(lines[i]);
      continue;
    }
    const closing = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence[1]) && l.trim().replace(/[`~]/g, "") === "");
    const end = closing === -1 ? lines.length : closing;
    flush();
    parts.push(`<pre><code>${escapeHtml(lines.slice(i + 1, end).join("\n"))}</code></pre>`);
    i = end;
  }
  flush();
  return parts.join("\n");
}
