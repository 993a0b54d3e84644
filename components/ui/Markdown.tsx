import type { ReactElement } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { BoundedCache } from "@/lib/json/bounded-cache";
import { isSafeImageSrc, remarkHtmlAsText, safeHref } from "@/lib/docs/markdown-safety";

/** Props for {@link Markdown}. */
export interface MarkdownProps {
  /** Untrusted Markdown (a tool or parameter description). */
  source: string;
  /** Tighter spacing for inline contexts such as parameter rows. */
  compact?: boolean;
  className?: string;
  testId?: string;
}

const components: Components = {
  a({ href, children }) {
    const safe = safeHref(href);
    if (!safe) return <span data-testid="md-dropped-link">{children}</span>;
    return (
      <a href={safe} title={safe} target="_blank" rel="nofollow noopener noreferrer">
        {children}
      </a>
    );
  },
  // Never load remote images from tool metadata (tracking, spoofed UI): show the alt text and a link instead.
  img({ src, alt }) {
    const label = `[image${alt ? `: ${alt}` : ""}]`;
    const safe = typeof src === "string" && isSafeImageSrc(src) && !src.startsWith("data:") ? safeHref(src) : undefined;
    if (!safe) return <span data-testid="md-image-placeholder">{label}</span>;
    return (
      <a href={safe} title={safe} target="_blank" rel="nofollow noopener noreferrer" data-testid="md-image-placeholder">
        {label}
      </a>
    );
  },
  // Headings inside a description would break the page outline: render them as strong paragraphs.
  h1: ({ children }) => <p className="font-semibold">{children}</p>,
  h2: ({ children }) => <p className="font-semibold">{children}</p>,
  h3: ({ children }) => <p className="font-semibold">{children}</p>,
  h4: ({ children }) => <p className="font-semibold">{children}</p>,
  h5: ({ children }) => <p className="font-semibold">{children}</p>,
  h6: ({ children }) => <p className="font-semibold">{children}</p>,
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="text-left text-xs [&_td]:border [&_td]:border-zinc-200 [&_td]:px-2 [&_td]:py-1 [&_th]:border [&_th]:border-zinc-200 [&_th]:px-2 [&_th]:py-1 dark:[&_td]:border-zinc-700 dark:[&_th]:border-zinc-700">
        {children}
      </table>
    </div>
  ),
};

/** Only http/https/mailto URLs survive; everything else is dropped before rendering. */
function urlTransform(url: string, key: string): string | undefined {
  if (key === "src") return url; // images are replaced above; keep the value so the placeholder can link it
  return safeHref(url);
}

/**
 * Markdown longer than this (characters) is rendered only up to here; the rest is shown as plain text on request.
 * Parsing is the expensive part (≈ 10 s for a 1 MB description), and no honest description needs more.
 */
export const MARKDOWN_RENDER_LIMIT = 20_000;

/** Split `source` at a paragraph break near the render limit (or hard at the limit when there is none). */
function splitForRender(source: string): [string, string] {
  if (source.length <= MARKDOWN_RENDER_LIMIT) return [source, ""];
  const para = source.lastIndexOf("\n\n", MARKDOWN_RENDER_LIMIT);
  const cut = para > MARKDOWN_RENDER_LIMIT / 2 ? para : MARKDOWN_RENDER_LIMIT;
  return [source.slice(0, cut), source.slice(cut)];
}

/**
 * Rendered descriptions kept per process (per module graph), by their text. A docs page renders the same
 * descriptions on every view of the same definitions, and parsing them was the page's largest share of its own
 * work (issue 28's profile). react-markdown's sync `Markdown` is a pure function of its options (ours are fixed),
 * and a React element tree is immutable, so one tree serves every render. Weighed at
 * {@link MARKDOWN_CACHE_BYTES_PER_CHAR} bytes a character of source: the parsed tree is several times the text.
 */
export const MARKDOWN_CACHE_LIMITS = { maxEntries: 5_000, maxBytes: 32 * 1024 * 1024 } as const;
export const MARKDOWN_CACHE_BYTES_PER_CHAR = 16;
const rendered = new BoundedCache<ReactElement>(MARKDOWN_CACHE_LIMITS);

const plugins = [remarkGfm, remarkHtmlAsText];

/** `source` as React elements, parsed once while it stays in the cache. */
export function markdownElements(source: string): ReactElement {
  let tree = rendered.get(source);
  if (!tree) {
    tree = renderMarkdown({ children: source, remarkPlugins: plugins, components, urlTransform });
    rendered.set(source, tree, source.length * MARKDOWN_CACHE_BYTES_PER_CHAR);
  }
  return tree;
}

/**
 * Safe rendering of untrusted Markdown: GFM, no raw HTML (shown as literal text so hidden comments are
 * visible), no images, links limited to http/https/mailto and opened with rel="nofollow noopener noreferrer".
 */
export function Markdown({ source, compact, className = "", testId }: MarkdownProps) {
  const [shown, rest] = splitForRender(source);
  return (
    <div
      data-testid={testId}
      className={`prose-desc min-w-0 break-words text-sm leading-relaxed ${compact ? "[&_p]:my-0.5" : ""} ${className}`}
    >
      {markdownElements(shown)}
      {rest && (
        <details className="mt-2 rounded-md border border-amber-300 p-2 text-xs dark:border-amber-800" data-testid="md-truncated">
          <summary className="cursor-pointer font-medium text-amber-900 dark:text-amber-300">
            {source.length.toLocaleString("en-US")} characters: the first {shown.length.toLocaleString("en-US")} are rendered; show the
            remaining {rest.length.toLocaleString("en-US")} as plain text
          </summary>
          <div className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap font-mono">{rest}</div>
        </details>
      )}
    </div>
  );
}
