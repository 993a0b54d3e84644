import type { ReactNode } from "react";
import type { Severity } from "@/lib/docs/lints";
import { Badge, type BadgeTone } from "./Badge";

/** The badge colour of each lint severity, the same in every list of findings. */
export const SEVERITY_TONE: Record<Severity, BadgeTone> = { error: "danger", warning: "warning", info: "info" };

/** What {@link FindingBody} shows: the fields a tool's lint finding and a skill's share. */
export interface FindingText {
  id: string;
  severity: Severity;
  message: string;
  why: string;
  fix: string;
}

/**
 * The inside of one lint finding: severity badge and message, then why it matters and how to fix it, and the check's
 * id for screen readers. Shared by the docs' tool lints (LintList) and the skills' checks (SkillFindings), which both
 * live on docs pages and in the playground, so it sits in components/ui; each list keeps its own `<li>` and test ids.
 */
export function FindingBody({ finding, context }: { finding: FindingText; context?: ReactNode }) {
  return (
    <>
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
        <Badge tone={SEVERITY_TONE[finding.severity]} variant="solid">
          {finding.severity}
        </Badge>
        {/* What the finding is about (a tool's name, a parameter's path), between the badge and the message. */}
        {context}
        <span className="min-w-0 break-words text-zinc-900 dark:text-zinc-100">{finding.message}</span>
      </div>
      <dl className="mt-1 grid gap-0.5 text-xs text-zinc-600 sm:grid-cols-[auto_1fr] sm:gap-x-2 dark:text-zinc-400">
        <dt className="font-medium">Why</dt>
        <dd className="min-w-0 break-words">{finding.why}</dd>
        <dt className="font-medium">Fix</dt>
        <dd className="min-w-0 break-words">{finding.fix}</dd>
      </dl>
      <span className="sr-only"> ({finding.id})</span>
    </>
  );
}
