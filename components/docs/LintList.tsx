import type { Finding, LintSummary } from "@/lib/docs/lints";
import { Badge } from "@/components/ui/Badge";
import { FindingBody, SEVERITY_TONE } from "@/components/ui/FindingBody";

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
              tone={SEVERITY_TONE[s]}
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
              <FindingBody
                finding={f}
                context={
                  <>
                    {showToolName && f.toolName && <code className="break-all font-mono text-xs font-semibold">{f.toolName}</code>}
                    {f.path && <code className="break-all font-mono text-xs text-zinc-500 dark:text-zinc-400">{f.path}</code>}
                  </>
                }
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
