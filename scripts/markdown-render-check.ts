/**
 * Test support for the Markdown/HTML exports: render Markdown the way a reader of an exported file might, and
 * list every URL the resulting HTML would follow or load, so tests can prove no `javascript:`, `vbscript:` or
 * `data:` URL survives. Used by lib/docs/*.test.ts.
 *
 * Renderers, each given the whole document:
 * - react-markdown 10 + remark-gfm with its default `urlTransform` (what a React app would show);
 * - the same with `urlTransform` disabled (`(u) => u`), so the renderer's own scheme filter cannot hide a hole
 *   in ours: every URL micromark decodes reaches the HTML as it is;
 * - marked (GFM, no sanitising at all; it even keeps entity-encoded schemes), when installed.
 *
 * react-dom/server refuses to load under the react-server condition the unit tests run with, so rendering
 * happens in a child process started without it: `renderMarkdown` re-runs this file, which then reads the
 * documents as JSON on stdin and writes the HTML as JSON on stdout.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One document as each renderer turned it into HTML. */
export interface Rendering {
  /** react-markdown + remark-gfm, default URL filter. */
  reactMarkdown: string;
  /** react-markdown + remark-gfm, URL filter disabled. */
  reactMarkdownUnfiltered: string;
  /** marked (GFM); undefined when marked is not installed. */
  marked?: string;
}

const SELF = fileURLToPath(import.meta.url);
const CHILD_FLAG = "TOOLSCOPE_MARKDOWN_RENDER_CHILD";

/** Render every document with every renderer (one child process for all of them). */
export function renderMarkdown(docs: string[]): Rendering[] {
  const run = spawnSync(process.execPath, ["--import", "tsx", SELF], {
    input: JSON.stringify(docs),
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, [CHILD_FLAG]: "1", NODE_OPTIONS: (process.env.NODE_OPTIONS ?? "").replace(/--conditions[= ]react-server/g, "") },
  });
  if (run.status !== 0) throw new Error(`markdown renderer failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Rendering[];
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  colon: ":",
  tab: "\t",
  newline: "\n",
  nbsp: "\u00a0",
  sol: "/",
  lpar: "(",
  rpar: ")",
  period: ".",
  semi: ";",
  num: "#",
  excl: "!",
  equals: "=",
};

/** Decode character references the way a browser would in an attribute (named ones we know, all numeric ones). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/** Attributes through which HTML follows or loads a URL. */
const URL_ATTRIBUTES = new Set([
  "href",
  "src",
  "xlink:href",
  "action",
  "formaction",
  "poster",
  "data",
  "background",
  "srcset",
  "cite",
  "longdesc",
  "lowsrc",
  "dynsrc",
  "ping",
  "manifest",
  "codebase",
  "archive",
]);

/** Every attribute of every tag: [tag, attribute name (lower case), decoded value]. */
export function attributes(html: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const tag of html.matchAll(/<([A-Za-z][A-Za-z0-9:-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g)) {
    for (const attr of tag[2].matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
      out.push([tag[1].toLowerCase(), attr[1].toLowerCase(), decodeEntities(attr[2] ?? attr[3] ?? attr[4] ?? "")]);
    }
  }
  return out;
}

/**
 * True when a URL would run script or carry inline content: its scheme, once character references are decoded,
 * whitespace, control and invisible format characters removed and case folded, is javascript:, vbscript: or data:.
 */
export function isDangerousUrl(value: string): boolean {
  const folded = decodeEntities(value)
    .replace(/[\s\p{Cc}\p{Cf}]/gu, "")
    .toLowerCase();
  return /^(?:javascript|vbscript|data):/.test(folded);
}

/** `tag attr=value` for every URL attribute in `html` with a dangerous scheme. */
export function dangerousUrls(html: string): string[] {
  return attributes(html)
    .filter(
      ([, name, value]) =>
        URL_ATTRIBUTES.has(name) && (name === "srcset" ? value.split(",").some((c) => isDangerousUrl(c.trim())) : isDangerousUrl(value)),
    )
    .map(([tag, name, value]) => `${tag} ${name}=${JSON.stringify(value)}`);
}

/** Elements an export must never produce: they run script, load content or restyle the page. */
const FORBIDDEN_TAGS =
  /<(script|img|iframe|frame|object|embed|svg|math|style|link|meta|base|form|input(?![^>]*type="checkbox")|video|audio|source|picture|template)\b/gi;

/** Everything in `html` that could act on its own: dangerous URLs, forbidden elements, event handler attributes. */
export function activeContent(html: string): string[] {
  const tags = [...html.matchAll(FORBIDDEN_TAGS)].map((m) => `<${m[1]}>`);
  const handlers = attributes(html)
    .filter(([, name]) => name.startsWith("on"))
    .map(([tag, name]) => `${tag} ${name}`);
  return [...dangerousUrls(html), ...tags, ...handlers];
}

/** Child mode: render stdin's documents. */
async function child(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const docs = JSON.parse(Buffer.concat(chunks).toString("utf8")) as string[];
  const { createElement } = await import("react");
  const { renderToStaticMarkup } = await import("react-dom/server");
  const { default: ReactMarkdown } = await import("react-markdown");
  const { default: remarkGfm } = await import("remark-gfm");
  const marked = await import("marked").then((m) => m.marked).catch(() => undefined);
  const react = (doc: string, unfiltered: boolean) =>
    renderToStaticMarkup(
      createElement(ReactMarkdown, { remarkPlugins: [remarkGfm], ...(unfiltered ? { urlTransform: (u: string) => u } : {}) }, doc),
    );
  const out: Rendering[] = docs.map((doc) => ({
    reactMarkdown: react(doc, false),
    reactMarkdownUnfiltered: react(doc, true),
    ...(marked ? { marked: marked.parse(doc, { async: false, gfm: true }) as string } : {}),
  }));
  process.stdout.write(JSON.stringify(out));
}

if (process.env[CHILD_FLAG] === "1" && process.argv[1] === SELF) {
  child().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
