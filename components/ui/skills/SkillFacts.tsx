import type { SkillEntry } from "@/lib/mcp/skills-contract";
import { isObject } from "@/lib/json/guards";
import { bytesText, extraFrontmatter, fieldText, manifestTotals, roundedBytes } from "@/lib/docs/skills/skill-facts";
import { Badge } from "../Badge";

/** What the manifest says in one line: "2 files, 1,234 bytes", or that the skill is generated. */
export function ManifestSize({ entry }: { entry: Pick<SkillEntry, "resources"> }) {
  const totals = manifestTotals(entry);
  if (!totals)
    return (
      <Badge tone="warning" title="Generated when read: no sizes or digests to verify its files against" testId="skill-dynamic">
        dynamic
      </Badge>
    );
  const rounded = roundedBytes(totals.bytes);
  return (
    <span data-testid="skill-totals">
      {totals.files} file{totals.files === 1 ? "" : "s"}, {bytesText(totals.bytes)}
      {rounded && ` (${rounded})`}
    </span>
  );
}

/** A frontmatter value: text as text, a flat map (metadata) one pair a line, anything else as JSON. */
function FieldValue({ value }: { value: unknown }) {
  if (typeof value === "string") return <>{value}</>;
  if (isObject(value) && Object.values(value).every((v) => v === null || typeof v !== "object"))
    return (
      <ul>
        {Object.entries(value).map(([key, v]) => (
          <li key={key} className="break-words">
            <code className="font-mono text-xs">{key}</code>: {fieldText(v)}
          </li>
        ))}
      </ul>
    );
  return <code className="break-all font-mono text-xs leading-5">{fieldText(value)}</code>;
}

/**
 * A skill's entry as facts: its URI, its files by the manifest, and every frontmatter field besides name and
 * description (license, allowed-tools, metadata…), as the server sent them. Server-safe.
 */
export function SkillFacts({ entry }: { entry: SkillEntry }) {
  const extra = extraFrontmatter(entry.frontmatter);
  return (
    <dl
      className="grid min-w-0 grid-cols-[6rem_minmax(0,1fr)] gap-x-3 sm:grid-cols-[7rem_minmax(0,1fr)] gap-y-1 text-sm"
      data-testid="skill-facts"
    >
      <dt className="text-zinc-600 dark:text-zinc-400">URI</dt>
      <dd className="min-w-0 break-all font-mono text-xs leading-5">{entry.uri}</dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Files</dt>
      <dd className="min-w-0">
        <ManifestSize entry={entry} />
      </dd>
      {extra.map(([key, value]) => (
        <div key={key} className="contents" data-testid="skill-field" data-field={key}>
          <dt className="break-all font-mono text-xs leading-5 text-zinc-600 dark:text-zinc-400">{key}</dt>
          <dd className="min-w-0 break-words">
            <FieldValue value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
