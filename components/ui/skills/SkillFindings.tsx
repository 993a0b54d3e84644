import type { SkillFinding } from "@/lib/docs/skills/skill-lints";
import { FindingBody } from "../FindingBody";

/**
 * A skill's lint findings, each with why it matters and how to fix it. The docs' LintList is for tools and lives with
 * the docs; the playground shows skills too, so this one is shared. Each finding's body is FindingBody, as in LintList.
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
          <FindingBody finding={f} />
        </li>
      ))}
    </ul>
  );
}
