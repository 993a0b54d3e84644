import type { Severity } from "@/lib/docs/lints";
import type { SkillFinding } from "@/lib/docs/skills/skill-lints";
import { Badge, type BadgeTone } from "../Badge";

const TONE: Record<Severity, BadgeTone> = { error: "danger", warning: "warning", info: "info" };

/**
 * A skill's lint findings, each with why it matters and how to fix it. The docs' LintList is for tools and lives with
 * the docs; the playground shows skills too, so this one is shared.
 */
export function SkillFindings({ findings, testId = "skill-findings" }: { findings: SkillFinding[]; testId?: string }) {
  if (findings.length === 0) return null;
  return (
    <ul className="flex min-w-0 flex-col gap-1.5" data-testid={testId} aria-label="Checks">
      {findings.map((f, i) => (
        <li
          key={`${f.id}:${i}`}
          data-testid="skill-finding"
          data-lint-id={f.id}
          data-severity={f.severity}
          className="min-w-0 rounded-md border border-zinc-200 p-2 text-sm dark:border-zinc-800"
        >
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
            <Badge tone={TONE[f.severity]} variant="solid">
              {f.severity}
            </Badge>
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
  );
}
