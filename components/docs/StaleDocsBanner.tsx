/** Props for {@link StaleDocsBanner}. */
interface Props {
  /** ISO time the copy being shown was fetched. */
  fetchedAt: string;
  /** Why the server could not be asked just now. */
  reason: string;
}

/** "The server is unreachable; this is the copy from <time>": docs that stand in during an outage say so, first. */
export function StaleDocsBanner({ fetchedAt, reason }: Props) {
  return (
    <aside
      role="status"
      data-testid="stale-docs"
      className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-700/70 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p className="font-semibold">Stale: the server could not be reached just now</p>
      <p className="mt-1">
        Showing the docs as fetched at <time dateTime={fetchedAt}>{new Date(fetchedAt).toUTCString()}</time>. They may have changed since.
        Reload to try again.
      </p>
      <p className="mt-1 text-amber-900/80 dark:text-amber-200/80">{reason}</p>
    </aside>
  );
}
