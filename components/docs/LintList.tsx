import type { Finding, LintSummary, Severity } from "@/lib/docs/lints";
import { Badge, type BadgeTone } from "@/components/ui/Badge";

/** Props for {@link LintList}. */
export interface LintListProps {
  findings: Finding[];
  /** Counts by severity, shown as a header line when given. */
  summary?: LintSummary;
  /** Prefix each finding with its tool name (for server-wide lists). Default false. */
  showToolName?: boolean;
  /** Text when there are no findings. */
  emptyText?: string;
  testId?: string;
}

const TONE: Record<Severity, BadgeTone> = { error: "danger", warning: "warning", info: "info" };

/** Lint findings with severity badges, and for each: why it matters and how to fix it. */
export function LintList({
  findings,
  summary,
  showToolName = false,
  emptyText = "No problems found.",
  testId = "lint-list",
}: LintListProps) {
  return (
    <div data-testid={testId} className="min-w-0">
      {summary && (
        <p className="mb-2 flex flex-wrap items-center gap-1.5 text-xs text-zinc-600 dark:text-zinc-400" data-testid="lint-summary">
          {(["error", "warning", "info"] as const).map((s) => (
            <Badge
              key={s}
              tone={TONE[s]}
              variant={summary[s] > 0 ? "solid" : "outline"}
              muted={summary[s] === 0}
              testId={`lint-count-${s}`}
            >
              {summary[s]} {s === "info" ? "info" : `${s}${summary[s] === 1 ? "" : "s"}`}
            </Badge>
          ))}
        </p>
      )}
      {findings.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="lint-empty">
          {emptyText}
        </p>
      ) : (
        <ul className="flex min-w-0 flex-col gap-2">
          {findings.map((f, i) => (
            <li
              key={`${f.id}:${f.toolName ?? ""}:${f.path ?? ""}:${i}`}
              data-testid="lint-finding"
              data-lint-id={f.id}
              data-severity={f.severity}
              className="min-w-0 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
            >
              <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
                <Badge tone={TONE[f.severity]} variant="solid">
                  {f.severity}
                </Badge>
                {showToolName && f.toolName && <code className="break-all font-mono text-xs font-semibold">{f.toolName}</code>}
                {f.path && <code className="break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{f.path}</code>}
                <span className="min-w-0 break-words text-zinc-900 dark:text-zinc-100">{f.message}</span>
              </div>
              <dl className="mt-1 grid gap-0.5 text-xs text-zinc-600 sm:grid-cols-[auto_1fr] sm:gap-x-2 dark:text-zinc-400">
                <dt className="font-medium">Why</dt>
                <dd className="min-w-0 break-words">{f.why}</dd>
                <dt className="font-medium">Fix</dt>
                <dd className="min-w-0 break-words">{f.fix}</dd>
              </dl>
              <span className="sr-only"> ({f.id})</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
