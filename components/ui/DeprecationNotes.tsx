import { deprecationSentence, type Deprecation } from "@/lib/mcp/deprecations";

/**
 * Deprecated features in use, said once where they show (a server's overview, a server's request, a sign-in), in one
 * line that opens to the migration path and the earliest removal: informed, not nagged on every screen.
 */
export function DeprecationNotes({
  items,
  testId = "deprecations",
  className = "",
}: {
  items: readonly Deprecation[];
  testId?: string;
  className?: string;
}) {
  if (items.length === 0) return null;
  return (
    <details
      className={`${className} rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm dark:border-amber-700/60 dark:bg-amber-950/30`}
      data-testid={testId}
    >
      <summary className="cursor-pointer text-amber-900 dark:text-amber-200">
        <span className="font-medium">Deprecated:</span> {items.map((d) => shortName(d)).join(", ")}
        <span className="text-amber-800/80 dark:text-amber-300/80"> · still works; what to move to</span>
      </summary>
      <ul className="mt-2 space-y-1.5 text-zinc-800 dark:text-zinc-200">
        {items.map((d) => (
          <li key={d.id} data-deprecation={d.id}>
            {deprecationSentence(d)}{" "}
            <a href={d.href} target="_blank" rel="noopener noreferrer" className="text-accent-700 underline dark:text-accent-100">
              The specification
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The feature's name for the one-line summary: "HTTP+SSE transport", not the sentence's "The HTTP+SSE transport (…)". */
function shortName(d: Deprecation): string {
  return d.feature.replace(/^The /, "").replace(/ \(.*\)$/, "");
}
