/** Props for {@link CodeBlock}. */
export interface CodeBlockProps {
  /** The text to show, verbatim. */
  code: string;
  /** A caption above the block (e.g. "Claude API"). */
  label?: string;
  /** Language hint, exposed as `data-language` for styling/tests; no highlighting is done here. */
  language?: string;
  /** Cap the height and scroll (CSS length). Default "24rem". */
  maxHeight?: string;
  testId?: string;
}

/** A server-rendered monospace code block. Scrolls horizontally on narrow screens; no client JS. */
export function CodeBlock({ code, label, language, maxHeight = "24rem", testId }: CodeBlockProps) {
  return (
    <figure className="my-2 min-w-0" data-testid={testId}>
      {label && <figcaption className="mb-1 text-xs font-medium text-zinc-600 dark:text-zinc-400">{label}</figcaption>}
      <pre
        tabIndex={0}
        data-language={language}
        style={{ maxHeight }}
        className="overflow-auto rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed text-zinc-800 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-200"
      >
        <code>{code}</code>
      </pre>
    </figure>
  );
}
