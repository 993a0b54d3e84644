/** Pure helpers that keep rendered tool descriptions safe: link schemes, image sources, raw HTML. */

/** Schemes a rendered description may link to. */
export const SAFE_LINK_SCHEMES = ["http:", "https:", "mailto:"] as const;

/** `url` when it is an absolute http/https/mailto URL, else undefined (relative, javascript:, data:, …). */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const trimmed = url.trim();
  // Reject control characters and whitespace tricks before parsing ("java\tscript:").
  if (trimmed === "" || /[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!(SAFE_LINK_SCHEMES as readonly string[]).includes(parsed.protocol)) return undefined;
  if (parsed.protocol !== "mailto:" && !parsed.hostname) return undefined;
  return parsed.href;
}

/** True for icon sources we are willing to load: https: URLs and data:image/… URIs. */
export function isSafeImageSrc(src: unknown): src is string {
  if (typeof src !== "string") return false;
  const s = src.trim();
  if (/^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*(;base64)?,/i.test(s)) return true;
  try {
    const u = new URL(s);
    return u.protocol === "https:" && u.hostname !== "";
  } catch {
    return false;
  }
}

interface TreeNode {
  type: string;
  value?: unknown;
  children?: TreeNode[];
}

/**
 * A remark plugin: raw HTML in Markdown (`<!-- … -->`, `<IMPORTANT>`) becomes literal text instead of being
 * dropped, so people see exactly what the model is sent — hidden comments included.
 */
export function remarkHtmlAsText() {
  return (tree: TreeNode): void => {
    const stack: TreeNode[] = [tree];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === "html") node.type = "text";
      if (Array.isArray(node.children)) stack.push(...node.children);
    }
  };
}

/*
 * Neutralising untrusted text for a Markdown *file* (the .md export), where we do not control the renderer.
 *
 * Filtering link targets by scheme cannot work there: a renderer decodes backslash escapes (`javascript\:`),
 * entities (`&#58;`, `&Tab;`) and folds case before the browser sees the URL, and reference definitions,
 * autolinks and raw HTML are further ways in. So link *syntax* from the server is broken instead: every `[` and
 * `<` of untrusted text is escaped, which leaves no link, image, reference definition, footnote, autolink or HTML
 * tag for a renderer to build. Links worth keeping (http, https, mailto, checked by {@link safeHref}) and code
 * spans are re-emitted by us in a form no renderer can misread; a server's own spelling never reaches the output
 * as syntax. Entity references are escaped too, so `&#91;` shows as typed. GFM's bare-URL autolinks stay, as they
 * only ever produce http(s)/mailto links.
 */

/** How untrusted text may appear in Markdown. */
export interface NeutralizeOptions {
  /** Keep inline Markdown (emphasis, code spans, http/https/mailto links). Default: the text shows literally. */
  markdown?: boolean;
  /** The text goes into a GFM table cell: one line, pipes escaped. */
  cell?: boolean;
}

interface ScanContext {
  markdown: boolean;
  links: boolean;
  /** Escape `|` in plain text (table cells). */
  pipesInText: boolean;
  /** Escape `|` in code spans and link labels (anywhere a table could split them). */
  pipesInSpans: boolean;
}

/** Longest link label / destination we try to rebuild; longer ones stay literal text (bounds the work). */
const MAX_LABEL = 1000;
const MAX_DESTINATION = 2048;

const ASCII_PUNCT = /^[!-/:-@[-`{-~]$/;
/** C0 controls but tab and newline, and DEL: invisible, and a way to hide scheme tricks. Shown as U+FFFD. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const ENTITY_AHEAD = /^&[#a-zA-Z0-9]+;/;
/**
 * A line that could be a GFM table's delimiter row (only `|`, `:`, `-` and spaces, with a `-`): then pipes inside
 * spans must be escaped. Deliberately loose, and linear on any input.
 */
const DELIMITER_ROW = /^(?=[^\n]*-)[ \t|:-]+$/m;

/** Characters a literal string must escape so none of them acts as Markdown (and `<`, `>`, `&` for HTML). */
const LITERAL_SPECIAL = /[\\`*_[\]|~<>]|&(?=[#a-zA-Z0-9]+;)/g;

/**
 * Untrusted text → Markdown that renders as that text, with no link, image, HTML or autolink any renderer could
 * act on. With `markdown`, emphasis and lists pass, and code spans and http/https/mailto links are rebuilt.
 */
export function neutralizeMarkdown(text: string, options: NeutralizeOptions = {}): string {
  // String(): a server may send a number where the contract says string; the export must not crash on it.
  let src = String(text).replace(/\r\n?/g, "\n").replace(CONTROLS, "\uFFFD");
  if (options.cell) src = src.replace(/\n/g, " ");
  const markdown = options.markdown === true;
  const tables = options.cell === true || (markdown && DELIMITER_ROW.test(src));
  return scan(src, { markdown, links: markdown, pipesInText: options.cell === true || !markdown, pipesInSpans: tables });
}

/** Characters that never need a look in Markdown mode, consumed in one go. */
const PLAIN_RUN = /[^\\`![\]<>&|]+/y;

function scan(src: string, ctx: ScanContext): string {
  if (!ctx.markdown)
    return src.replace(LITERAL_SPECIAL, (c, i: number) => (c === "<" || c === ">" || c === "&" ? htmlSafeChar(c, src, i) : `\\${c}`));
  const closers = backtickRuns(src);
  let out = "";
  let i = 0;
  while (i < src.length) {
    PLAIN_RUN.lastIndex = i;
    const plain = PLAIN_RUN.exec(src);
    if (plain) {
      out += plain[0];
      i += plain[0].length;
      continue;
    }
    const step = markdownStep(src, i, ctx, closers);
    out += step.out;
    i = step.next;
  }
  return out;
}

/** `<`, `>` and `&` that would start an entity, as text; anything else unchanged. */
function htmlSafeChar(c: string, src: string, i: number): string {
  if (c === "<") return "&lt;";
  if (c === ">") return "&gt;";
  if (c === "&" && ENTITY_AHEAD.test(src.slice(i, i + 40))) return "&amp;";
  return c;
}

interface Step {
  out: string;
  next: number;
}

function markdownStep(src: string, i: number, ctx: ScanContext, closers: Closers): Step {
  const c = src[i];
  if (c === "\\") {
    // The server's own escapes are kept (they are already inert); a lone backslash is doubled so it cannot
    // escape a character we emit next.
    const next = src[i + 1];
    if (next !== undefined && ASCII_PUNCT.test(next)) return { out: `\\${next}`, next: i + 2 };
    return { out: "\\\\", next: i + 1 };
  }
  if (c === "`") return codeSpanStep(src, i, ctx, closers);
  if (c === "!" && (src[i + 1] === "[" || src[i + 1] === "<")) {
    // An image becomes a plain link (nothing loads from a README); a `!` before a link we emit stays text.
    const link = src[i + 1] === "[" && ctx.links ? inlineLinkStep(src, i + 1, ctx) : undefined;
    return link ?? { out: "\\!", next: i + 1 };
  }
  if (c === "[") return (ctx.links ? inlineLinkStep(src, i, ctx) : undefined) ?? { out: "\\[", next: i + 1 };
  if (c === "]") return { out: "\\]", next: i + 1 };
  if (c === "<") return (ctx.links ? autolinkStep(src, i) : undefined) ?? { out: "&lt;", next: i + 1 };
  if (c === "|" && ctx.pipesInText) return { out: "\\|", next: i + 1 };
  return { out: htmlSafeChar(c, src, i), next: i + 1 };
}

/** Where the maximal backtick runs of each length start, and how many of them the scan has passed. */
type Closers = Map<number, { starts: number[]; passed: number }>;

/** Every maximal backtick run by length: a code span closes on the next run of exactly its opener's length. */
function backtickRuns(src: string): Closers {
  const byLength: Closers = new Map();
  for (const m of src.matchAll(/`+/g)) {
    const entry = byLength.get(m[0].length) ?? { starts: [], passed: 0 };
    entry.starts.push(m.index);
    byLength.set(m[0].length, entry);
  }
  return byLength;
}

/** The start of the first run of `length` backticks at or after `from`; runs before it are never looked at again. */
function nextRun(closers: Closers, length: number, from: number): number | undefined {
  const entry = closers.get(length);
  if (!entry) return undefined;
  while (entry.passed < entry.starts.length && entry.starts[entry.passed] < from) entry.passed += 1;
  return entry.starts[entry.passed];
}

function codeSpanStep(src: string, i: number, ctx: ScanContext, closers: Closers): Step {
  let n = 0;
  while (src[i + n] === "`") n += 1;
  const close = nextRun(closers, n, i + n);
  if (close === undefined) return { out: "\\`".repeat(n), next: i + n };
  // As CommonMark reads it: line endings are spaces, and one space each side is dropped when both are there.
  let content = src.slice(i + n, close).replace(/\n/g, " ");
  if (/^ [^]*[^ ][^]* $/.test(content)) content = content.slice(1, -1);
  return { out: markdownCodeSpan(content, ctx.pipesInSpans), next: close + n };
}

/**
 * A code span that survives any content: a fence longer than any backtick run inside, one line, pipes escaped
 * when it may sit in a table. Its content is literal for every renderer, so it needs no other escaping.
 */
export function markdownCodeSpan(text: string, escapePipes = true): string {
  let flat = String(text)
    .replace(/\r\n|\r|\n/g, " ")
    .replace(CONTROLS, "\uFFFD");
  if (escapePipes) flat = flat.replace(/\|/g, "\\|");
  if (flat === "") return "` `"; // a code span cannot be empty
  const fence = "`".repeat(longestBacktickRun(flat) + 1);
  // Pad when the content would merge with the fence, or when a renderer would strip its own edge spaces.
  const stripped = flat.startsWith(" ") && flat.endsWith(" ") && flat.trim() !== "";
  const pad = flat.startsWith("`") || flat.endsWith("`") || stripped ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Length of the longest run of backticks in `text` (a loop: a spread of many runs would overflow the stack). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  return longest;
}

/**
 * A checked URL (from {@link safeHref}) as a Markdown link destination: punctuation a renderer would act on is
 * backslash-escaped (entities, parens, pipes in tables), so the href it produces is exactly `href`.
 */
export function markdownDestination(href: string): string {
  return href.replace(/[\\()<>&[\]|`]/g, "\\$&");
}

/** A link we emit: label neutralised (no links inside), target a checked URL. */
function emitLink(label: string, href: string, ctx: ScanContext): string {
  const flat = label.replace(/\n/g, " ").trim();
  const text = scan(flat === "" ? href : flat, { ...ctx, links: false, pipesInText: ctx.pipesInSpans || ctx.pipesInText });
  return `[${text}](${markdownDestination(href)})`;
}

/** `[label](destination "title")` at `i`, rebuilt when the destination is a safe URL; undefined otherwise. */
function inlineLinkStep(src: string, i: number, ctx: ScanContext): Step | undefined {
  const label = linkLabel(src, i);
  if (!label || src[label.end] !== "(") return undefined;
  const dest = linkDestination(src, label.end + 1);
  if (!dest) return undefined;
  const href = safeHref(dest.url);
  return href ? { out: emitLink(label.text, href, ctx), next: dest.end } : undefined;
}

/** Link text from `[` at `i` to its `]` (no nested brackets; escapes skipped), and the index after `]`. */
function linkLabel(src: string, i: number): { text: string; end: number } | undefined {
  for (let j = i + 1; j < src.length && j - i <= MAX_LABEL; j += 1) {
    if (src[j] === "\\") j += 1;
    else if (src[j] === "[") return undefined;
    else if (src[j] === "]") return { text: src.slice(i + 1, j), end: j + 1 };
  }
  return undefined;
}

const PUNCT = "!-/:-@[-`{-~";
/** Optional spaces with at most one line ending: what may separate a link's parts (written so it cannot backtrack). */
const GAP = "[ \\t]*(?:\\n[ \\t]*)?";
/**
 * One character of a bare destination: an escape, a character that is not space, control, paren or backslash,
 * a backslash not starting an escape, or one balanced `( … )`. The alternatives never overlap, so matching is
 * linear (no backtracking blow-up on hostile input).
 */
const BARE_PART = `\\\\[${PUNCT}]|[^\\s()\\\\]|\\\\(?![${PUNCT}])|\\((?:\\\\.|[^\\s()\\\\])*\\)`;
const TITLE = `"(?:\\\\.|[^"\\\\])*"|'(?:\\\\.|[^'\\\\])*'|\\((?:\\\\.|[^()\\\\])*\\)`;
const DESTINATION = new RegExp(
  `^${GAP}(?:<([^<>\\n]*)>|((?:${BARE_PART})+))(?:(?:[ \\t]+(?:\\n[ \\t]*)?|\\n[ \\t]*)(?:${TITLE}))?${GAP}\\)`,
);

/**
 * The destination of a `(…)` starting at `i` (after `](`), decoded as a renderer would (backslash escapes), with
 * an optional title, and the index after `)`. Destinations with entity references are refused outright: nothing
 * a renderer could decode differently from us is ever trusted.
 */
function linkDestination(src: string, i: number): { url: string; end: number } | undefined {
  const m = DESTINATION.exec(src.slice(i, i + MAX_DESTINATION));
  if (!m) return undefined;
  const raw = m[1] ?? m[2] ?? "";
  if (/&[#a-zA-Z0-9]+;/.test(raw)) return undefined;
  return { url: raw.replace(new RegExp(`\\\\([${PUNCT}])`, "g"), "$1"), end: i + m[0].length };
}

/** `<scheme:…>` or `<user@host>` at `i`, rebuilt when the URL is safe; undefined otherwise. */
function autolinkStep(src: string, i: number): Step | undefined {
  const m =
    /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\u0000-\u001f\u007f]*|[\w.!#$%&'*+/=?^`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/.exec(
      src.slice(i, i + MAX_DESTINATION),
    );
  if (!m) return undefined;
  const href = safeHref(m[1].includes(":") ? m[1] : `mailto:${m[1]}`);
  if (!href) return undefined;
  const ctx: ScanContext = { markdown: false, links: false, pipesInText: true, pipesInSpans: true };
  return { out: emitLink(m[1], href, ctx), next: i + m[0].length };
}

/** Options for {@link neutralizeMarkdownBlock}. */
export interface BlockOptions {
  /** Headings in the text are demoted to at least this level, so they stay below the document's own. */
  minHeading?: number;
}

interface OpenFence {
  marker: string;
  indent: number;
  info: string;
  body: string[];
}

/**
 * An untrusted Markdown document (a description) → Markdown safe to embed: paragraphs through
 * {@link neutralizeMarkdown}, headings demoted, fenced code re-emitted with a fence of our own that no content
 * line can close, and nothing that would turn a paragraph into a heading.
 */
export function neutralizeMarkdownBlock(source: string, options: BlockOptions = {}): string {
  const minHeading = options.minHeading ?? 4;
  const out: string[] = [];
  let paragraph: string[] = [];
  let fence: OpenFence | undefined;
  const flush = () => {
    if (paragraph.length > 0) out.push(neutralizeMarkdown(paragraph.join("\n"), { markdown: true }));
    paragraph = [];
  };
  for (const line of String(source)
    .replace(/\r\n|\r/g, "\n")
    .split("\n")) {
    if (fence) {
      if (closesFence(line, fence.marker)) {
        out.push(emitFence(fence));
        fence = undefined;
      } else fence.body.push(line);
      continue;
    }
    const opener = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
    if (opener && !(opener[2][0] === "`" && opener[3].includes("`"))) {
      flush();
      fence = { marker: opener[2], indent: opener[1].length, info: opener[3].trim(), body: [] };
      continue;
    }
    const heading = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/.exec(line);
    if (heading) {
      flush();
      const text = neutralizeMarkdown((heading[2] ?? "").trim(), { markdown: true });
      out.push(`${"#".repeat(Math.min(6, Math.max(minHeading, heading[1].length)))}${text ? ` ${text}` : ""}`);
      continue;
    }
    if (line.trim() === "") {
      flush();
      if (out.length > 0 && out[out.length - 1] !== "") out.push("");
      continue;
    }
    // `===` / `---` under a paragraph would make it a heading (setext): keep it a line of text.
    paragraph.push(paragraph.length > 0 && /^ {0,3}(=+|-+)[ \t]*$/.test(line) ? line.replace(/[=-]/, "\\$&") : line);
  }
  flush();
  if (fence) out.push(emitFence(fence)); // a fence the server left open is closed, so it cannot swallow the rest
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out.join("\n");
}

function closesFence(line: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return m !== null && m[1][0] === marker[0] && m[1].length >= marker.length;
}

/**
 * Fenced code as we write it: our own backtick fence, longer than any backtick run inside (so no content line can
 * close it early), at the start of a line, with an info string only when it is a plain language name.
 */
function emitFence(f: OpenFence): string {
  const body = f.body.map((l) => l.replace(new RegExp(`^ {0,${f.indent}}`), "").replace(CONTROLS, "\uFFFD"));
  const marker = "`".repeat(Math.max(3, longestBacktickRun(body.join("\n")) + 1));
  const lang = /^[A-Za-z0-9_+#.-]{1,30}$/.test(f.info) ? f.info : "";
  return [`${marker}${lang}`, ...body, marker].join("\n");
}
