import Link from "next/link";
import type { Tool } from "@/lib/mcp/contract";
import type { Change, ChangeSeverity, ToolListDiff } from "@/lib/docs/diff";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName } from "@/lib/docs/display-name";
import { Badge, type BadgeTone } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";

/** One side of the comparison, as shown in the header. */
export interface DiffSide {
  /** e.g. "Snapshot Ab3…" or "Live server". */
  label: string;
  /** The server name and version on that side. */
  server: string;
  /** e.g. "taken Tue, 02 Dec 2026 14:00:00 GMT". */
  when: string;
  links: DocsLinks;
}

/** Props for {@link DiffView}. */
interface Props {
  diff: ToolListDiff;
  before: DiffSide;
  after: DiffSide;
}

const TONE: Record<ChangeSeverity, BadgeTone> = { breaking: "danger", compatible: "success", info: "info" };
const AREA: Record<Change["area"], string> = { input: "parameters", output: "output", annotations: "annotations", text: "text" };

/** Messages mark names with backticks; show those as code, everything else as text. */
function Message({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 === 1 ? (
          <code key={i} className="rounded bg-zinc-100 px-1 font-mono text-[0.85em] dark:bg-zinc-800">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function SeverityBadge({ severity }: { severity: ChangeSeverity }) {
  return (
    <Badge tone={TONE[severity]} variant="solid">
      {severity === "info" ? "informational" : severity}
    </Badge>
  );
}

function ToolList({ tools, links, severity }: { tools: Tool[]; links: DocsLinks; severity: ChangeSeverity }) {
  return (
    <ul className="space-y-1 text-sm">
      {tools.map((t) => (
        <li key={t.name} className="flex flex-wrap items-center gap-2">
          <SeverityBadge severity={severity} />
          <Link className="font-mono hover:underline" href={links.toolPage(t.name)}>
            {t.name}
          </Link>
          {displayName(t) !== t.name && <span className="text-zinc-500">{displayName(t)}</span>}
        </li>
      ))}
    </ul>
  );
}

/** A count in the summary: coloured and bold only when non-zero (zero breaking changes is not an alarm). */
function Count({ n, className, testId, children }: { n: number; className: string; testId?: string; children: string }) {
  return n === 0 ? (
    <span data-testid={testId} data-count={n}>
      0 {children}
    </span>
  ) : (
    <strong data-testid={testId} data-count={n} className={className}>
      {n} {children}
    </strong>
  );
}

/** The differences between two tool lists: summary, removed tools, changed tools (breaking first), added tools. */
export function DiffView({ diff, before, after }: Props) {
  const { counts } = diff;
  return (
    <div className="space-y-6">
      <dl className="grid gap-3 sm:grid-cols-2" data-testid="diff-sides">
        {[
          ["Before", before],
          ["After", after],
        ].map(([title, side]) => {
          const s = side as DiffSide;
          return (
            <div key={title as string} className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800">
              <dt className="text-xs uppercase tracking-wide text-zinc-500">{title as string}</dt>
              <dd className="mt-0.5">
                <Link className="font-medium hover:underline" href={s.links.serverPage}>
                  {s.label}
                </Link>
                : {s.server}
                <span className="block text-xs text-zinc-500">{s.when}</span>
              </dd>
            </div>
          );
        })}
      </dl>

      <p data-testid="diff-summary" className="text-base">
        {diff.identical ? (
          <>No changes: both sides have the same {diff.unchanged.length} tool definitions.</>
        ) : (
          <>
            <Count n={counts.breaking} className="text-red-700 dark:text-red-300" testId="diff-breaking-count">
              breaking
            </Count>
            ,{" "}
            <Count n={counts.compatible} className="text-emerald-700 dark:text-emerald-300">
              compatible
            </Count>{" "}
            and {counts.info} informational change{counts.info === 1 ? "" : "s"} ({diff.removed.length} removed, {diff.changed.length}{" "}
            changed, {diff.added.length} added, {diff.unchanged.length} unchanged tools).
          </>
        )}
      </p>

      {diff.removed.length > 0 && (
        <Card title={`Removed tools (${diff.removed.length})`} level={2} testId="diff-removed">
          <ToolList tools={diff.removed} links={before.links} severity="breaking" />
        </Card>
      )}

      {diff.changed.length > 0 && (
        <section aria-labelledby="diff-changed" className="space-y-3">
          <h2 id="diff-changed" className="text-lg font-semibold">
            Changed tools ({diff.changed.length})
          </h2>
          {diff.changed.map((t) => (
            <Card
              key={t.name}
              testId="diff-tool"
              title={
                <Link className="font-mono hover:underline" href={after.links.toolPage(t.name)}>
                  {t.name}
                </Link>
              }
              level={3}
              aside={<SeverityBadge severity={t.severity} />}
            >
              <ul className="space-y-2 text-sm">
                {t.changes.map((c, i) => (
                  <li key={i} className="flex flex-wrap items-start gap-2" data-severity={c.severity}>
                    <SeverityBadge severity={c.severity} />
                    <span className="text-xs uppercase tracking-wide text-zinc-500 leading-6">{AREA[c.area]}</span>
                    <span className="min-w-0 flex-1 leading-6">
                      <Message text={c.message} />
                    </span>
                    {(c.before !== undefined || c.after !== undefined) && (
                      <div className="grid w-full gap-1 sm:grid-cols-2">
                        <p className="whitespace-pre-wrap break-words rounded bg-red-50 p-2 text-xs dark:bg-red-950/40">
                          <span className="sr-only">Before: </span>
                          {c.before ?? "(none)"}
                        </p>
                        <p className="whitespace-pre-wrap break-words rounded bg-emerald-50 p-2 text-xs dark:bg-emerald-950/40">
                          <span className="sr-only">After: </span>
                          {c.after ?? "(none)"}
                        </p>
                      </div>
                    )}
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </section>
      )}

      {diff.added.length > 0 && (
        <Card title={`Added tools (${diff.added.length})`} level={2} testId="diff-added">
          <ToolList tools={diff.added} links={after.links} severity="compatible" />
        </Card>
      )}
    </div>
  );
}
