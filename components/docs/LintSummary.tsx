import type { Finding, LintId, ServerLint, Severity } from "@/lib/docs/lints";
import type { DocsLinks } from "@/lib/docs/links";
import { Badge, type BadgeTone } from "@/components/ui/Badge";

/** Props for {@link LintSummary}. */
export interface LintSummaryProps {
  /** `lintServer(list.tools, { ttlMs, cacheScope })` of the whole list (not the filtered one). */
  lint: ServerLint;
  /** Where tool names lead. */
  links: DocsLinks;
  /** Tool names listed per check at most (the rest are counted). Default 12. */
  maxToolsPerCheck?: number;
  testId?: string;
}

const TONE: Record<Severity, BadgeTone> = { error: "danger", warning: "warning", info: "info" };
const ORDER: Severity[] = ["error", "warning", "info"];

interface Check {
  id: LintId;
  severity: Severity;
  /** The first finding's message, as an example. */
  example: string;
  why: string;
  tools: Set<string>;
  count: number;
}

/** Findings grouped by check, most severe first, then by how many tools they hit. */
function byCheck(findings: Finding[]): Check[] {
  const checks = new Map<string, Check>();
  for (const f of findings) {
    const key = `${f.severity}:${f.id}`;
    let c = checks.get(key);
    if (!c) checks.set(key, (c = { id: f.id, severity: f.severity, example: f.message, why: f.why, tools: new Set(), count: 0 }));
    c.count++;
    if (f.toolName !== undefined) c.tools.add(f.toolName);
  }
  return [...checks.values()].sort((a, b) => ORDER.indexOf(a.severity) - ORDER.indexOf(b.severity) || b.count - a.count);
}

/**
 * A server's checks in one box: counts by severity, then one line per check with the tools it hit (linked).
 * The per-finding detail (why, how to fix) lives on each tool page.
 */
export function LintSummary({ lint, links, maxToolsPerCheck = 12, testId = "server-lint-summary" }: LintSummaryProps) {
  const { summary } = lint;
  const checks = byCheck(lint.findings);
  return (
    <section className="mt-8" aria-labelledby="checks-heading" data-testid={testId}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="checks-heading" className="text-xl font-semibold">
          Checks
        </h2>
        {ORDER.map((s) => (
          <Badge
            key={s}
            tone={TONE[s]}
            variant={summary[s] > 0 ? "solid" : "outline"}
            muted={summary[s] === 0}
            testId={`server-lint-count-${s}`}
          >
            {summary[s]} {s === "info" ? "info" : `${s}${summary[s] === 1 ? "" : "s"}`}
          </Badge>
        ))}
      </div>
      {checks.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">No problems found.</p>
      ) : (
        <details className="mt-2" open={summary.error > 0}>
          <summary className="cursor-pointer text-sm text-zinc-600 dark:text-zinc-400">
            {checks.length} check{checks.length === 1 ? "" : "s"} found something; details are on each tool&apos;s page
          </summary>
          <ul className="mt-2 space-y-1.5 text-sm">
            {checks.map((c) => (
              <li
                key={`${c.severity}:${c.id}`}
                className="min-w-0 rounded-md border border-zinc-200 p-2 dark:border-zinc-800"
                data-testid="server-lint-check"
                data-lint-id={c.id}
                data-severity={c.severity}
              >
                <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
                  <Badge tone={TONE[c.severity]} variant="solid">
                    {c.severity}
                  </Badge>
                  <code className="text-xs text-zinc-500">{c.id}</code>
                  <span className="min-w-0 break-words">{c.count === 1 ? c.example : `${c.count}× — e.g. ${c.example}`}</span>
                </div>
                <p className="mt-0.5 text-xs text-zinc-600 dark:text-zinc-400">{c.why}</p>
                {c.tools.size > 0 && (
                  <p className="mt-1 flex min-w-0 flex-wrap gap-x-2 text-xs">
                    {[...c.tools].slice(0, maxToolsPerCheck).map((t) => (
                      <a
                        key={t}
                        href={links.toolPage(t)}
                        className="break-all font-mono text-accent-700 hover:underline dark:text-accent-100"
                      >
                        {t}
                      </a>
                    ))}
                    {c.tools.size > maxToolsPerCheck && <span className="text-zinc-500">and {c.tools.size - maxToolsPerCheck} more</span>}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
