import { latestProgress, logLines, progressFraction } from "@/lib/playground/notifications";

const LEVEL_CLASS: Record<string, string> = {
  debug: "text-zinc-500",
  info: "text-sky-700 dark:text-sky-300",
  notice: "text-sky-700 dark:text-sky-300",
  warning: "text-amber-700 dark:text-amber-300",
  error: "text-red-700 dark:text-red-400",
  critical: "text-red-700 dark:text-red-400",
  alert: "text-red-700 dark:text-red-400",
  emergency: "text-red-700 dark:text-red-400",
};

/** Props: `notifications` that arrived for one request; `running` shows an indeterminate bar while in flight. */
export function ProgressLog({ notifications, running }: { notifications: readonly Record<string, unknown>[]; running?: boolean }) {
  const progress = latestProgress(notifications);
  const logs = logLines(notifications);
  if (!progress && logs.length === 0 && !running) return null;
  const fraction = progress ? progressFraction(progress) : undefined;
  return (
    <section
      className="space-y-2 rounded-md border border-zinc-200 p-2 text-xs dark:border-zinc-800"
      data-testid="progress-log"
      aria-label="Progress and log messages"
    >
      {(progress || running) && (
        <div>
          <div
            role="progressbar"
            aria-label="Progress"
            aria-valuemin={0}
            aria-valuemax={fraction !== undefined ? 100 : undefined}
            aria-valuenow={fraction !== undefined ? Math.round(fraction * 100) : undefined}
            aria-valuetext={progress ? `${progress.progress}${progress.total !== undefined ? ` of ${progress.total}` : ""}` : "working"}
            data-testid="progress-bar"
            className="h-2 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
          >
            <div
              className={`h-full rounded-full bg-accent-600 ${fraction === undefined ? "w-1/3 animate-pulse" : ""}`}
              style={fraction !== undefined ? { width: `${fraction * 100}%` } : undefined}
            />
          </div>
          {progress && (
            <p className="mt-1 text-zinc-600 dark:text-zinc-400" data-testid="progress-text">
              {progress.progress}
              {progress.total !== undefined ? ` / ${progress.total}` : ""}
              {progress.message ? ` · ${progress.message}` : ""}
            </p>
          )}
        </div>
      )}
      {logs.length > 0 && (
        <ol className="max-h-40 space-y-0.5 overflow-auto font-mono" aria-label="Log messages" data-testid="log-messages">
          {logs.map((l, i) => (
            <li key={i}>
              <span className={`mr-2 uppercase ${LEVEL_CLASS[l.level] ?? ""}`}>{l.level}</span>
              {l.logger && <span className="mr-2 text-zinc-500">[{l.logger}]</span>}
              <span className="break-all">{l.text}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
