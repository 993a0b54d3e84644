import { highlightJson, type JsonTokenClass } from "@/lib/editor/json-highlight";

const CLASS: Record<JsonTokenClass, string | undefined> = {
  key: "text-sky-800 dark:text-sky-300",
  string: "text-emerald-700 dark:text-emerald-300",
  number: "text-amber-700 dark:text-amber-300",
  literal: "text-fuchsia-700 dark:text-fuchsia-300",
  punctuation: "text-zinc-500 dark:text-zinc-400",
  plain: undefined,
};

export interface ReadOnlyJsonProps {
  /** JSON text shown verbatim, or any value (pretty-printed with 2 spaces). */
  value: unknown;
  className?: string;
  /** Label for screen readers, e.g. "Raw response". */
  label?: string;
  "data-testid"?: string;
}

/**
 * Read-only JSON with light syntax colouring: a plain `<pre>`, not Monaco, so it costs no editor chunk,
 * renders on the server too and stays selectable/searchable with the browser's own find.
 */
export function ReadOnlyJson({ value, className, label, "data-testid": testId }: ReadOnlyJsonProps) {
  const text = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? String(value));
  return (
    <pre
      className={`overflow-auto whitespace-pre rounded-md border border-zinc-200 bg-zinc-50 p-3 font-mono text-xs leading-relaxed dark:border-zinc-800 dark:bg-zinc-900 ${className ?? ""}`}
      aria-label={label}
      data-testid={testId}
      tabIndex={0}
    >
      <code>
        {highlightJson(text).map((t, i) =>
          CLASS[t.cls] ? (
            <span key={i} className={CLASS[t.cls]}>
              {t.text}
            </span>
          ) : (
            t.text
          ),
        )}
      </code>
    </pre>
  );
}
