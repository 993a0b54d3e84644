/** Props for {@link CodeBlock}. */
export interface CodeBlockProps {
  /** The text to show, verbatim. */
  code: string;
  /** A caption above the block (e.g. "Claude API"). */
  label?: string;
  /** Language hint, exposed as `data-language` for styling/tests; no highlighting is done here. */
  language?: string;
  /** Show at most this many characters, with a note saying how many were left out. Default {@link CODE_BLOCK_MAX_CHARS}. */
  maxChars?: number;
  /** Cap the height and scroll (CSS length). Default "24rem". */
  maxHeight?: string;
  testId?: string;
}

/** Longest text a code block shows: a hostile 1 MB definition would otherwise be sent several times per page. */
export const CODE_BLOCK_MAX_CHARS = 100_000;

/** A server-rendered monospace code block. Scrolls horizontally on narrow screens; no client JS. */
export function CodeBlock({ code, label, language, maxChars = CODE_BLOCK_MAX_CHARS, maxHeight = "24rem", testId }: CodeBlockProps) {
  const cut = code.length > maxChars;
  return (
    <figure className="my-2 min-w-0" data-testid={testId}>
      {label && <figcaption className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</figcaption>}
      <pre
        tabIndex={0}
        data-language={language}
        style={{ maxHeight }}
        className="overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
      >
        <code>{cut ? code.slice(0, maxChars) : code}</code>
      </pre>
      {cut && (
        <p className="mt-1 text-xs text-amber-800 dark:text-amber-300" data-testid="code-truncated">
          Showing the first {maxChars.toLocaleString("en-US")} of {code.length.toLocaleString("en-US")} characters.
        </p>
      )}
    </figure>
  );
}
