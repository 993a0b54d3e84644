import Link from "next/link";
import { liveLinks } from "@/lib/docs/links";

/** Props for {@link SnapshotBanner}. */
interface Props {
  id: string;
  /** The server as the user named it (URL or builtin id): for links to its live docs. */
  source: string;
  /** The server's URL as shown to people. */
  displayUrl: string;
  /** ISO time the snapshot was taken. */
  takenAt: string;
  /** On a tool page: the tool, so "live docs" goes to the same tool. */
  tool?: string;
  /** Snapshots not opened for this many days are removed (0: kept). */
  retentionDays: number;
  /** Snapshots are removed this many days after they were taken, however often opened (0: no cap). */
  maxAgeDays?: number;
}

const link = "text-accent-700 underline-offset-2 hover:underline dark:text-accent-100";

/** "Snapshot of <url> taken <time>", with links to the live docs, a diff against live and the exports. */
export function SnapshotBanner({ id, source, displayUrl, takenAt, tool, retentionDays, maxAgeDays = 0 }: Props) {
  const live = liveLinks(source);
  const base = `/s/${encodeURIComponent(id)}`;
  return (
    <aside
      data-testid="snapshot-banner"
      aria-label="Snapshot"
      className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-md border border-accent-500/40 bg-accent-50 px-3 py-2 text-sm dark:border-accent-500/50 dark:bg-accent-700/20"
    >
      <p className="min-w-0 flex-1">
        Snapshot of <span className="break-all font-medium">{displayUrl}</span> taken{" "}
        <time dateTime={takenAt}>{new Date(takenAt).toUTCString()}</time>. It never changes; the server may have.
        {retentionDays > 0 && (
          <span data-testid="snapshot-retention"> Kept while someone opens it at least once every {retentionDays} days.</span>
        )}
        {maxAgeDays > 0 && (
          <span data-testid="snapshot-max-age">
            {" "}
            Removed {maxAgeDays} days after it was taken (
            <time dateTime={new Date(Date.parse(takenAt) + maxAgeDays * 86_400_000).toISOString()}>
              {new Date(Date.parse(takenAt) + maxAgeDays * 86_400_000).toUTCString()}
            </time>
            ), however often it is opened.
          </span>
        )}
      </p>
      <nav aria-label="Snapshot actions" className="flex flex-wrap gap-x-3 gap-y-1">
        <Link className={link} href={tool ? live.toolPage(tool) : live.serverPage}>
          Live docs
        </Link>
        <Link className={link} href={`/diff?a=${encodeURIComponent(id)}&b=live`} data-testid="compare-live">
          Compare with live
        </Link>
        <span className="text-zinc-500">
          Export:{" "}
          <a className={link} href={`${base}/export.md`} data-testid="export-md">
            Markdown
          </a>
          {" · "}
          <a className={link} href={`${base}/export.json`} data-testid="export-json">
            JSON
          </a>
          {" · "}
          <a className={link} href={`${base}/export.html`} data-testid="export-html">
            HTML
          </a>
        </span>
      </nav>
    </aside>
  );
}
