import type { Alternative, ParamRow } from "@/lib/docs/param-rows";
import { shortJson } from "@/lib/docs/format-value";
import { Badge } from "@/components/ui/Badge";
import { CodeChip } from "@/components/ui/CodeChip";
import { Markdown } from "@/components/ui/Markdown";

/*
 * ParamRowItem and AlternativeGroups render each other (a row's oneOf/anyOf branches hold rows), so they live in
 * one module: two files would be an import cycle.
 */

/** Props for {@link ParamRowItem}. */
export interface ParamRowItemProps {
  row: ParamRow;
  /** Nesting level (0 = top-level parameter); nested children start collapsed below `openDepth`. */
  depth: number;
  /** Levels whose children are expanded by default. Default 1. */
  openDepth?: number;
  /** Ids of the rows that first expand each named definition, so recursive markers can link to them. */
  anchors?: RefAnchors;
}

/** Where recursive `$ref`s point: the anchor id of a row, and the id per definition name. */
export interface RefAnchors {
  ids: Map<ParamRow, string>;
  byRef: Map<string, string>;
}

const MAX_ENUM_CHIPS = 30;

/** One parameter as a list item: name, type, flags, description, values and constraints, then its children. */
export function ParamRowItem({ row, depth, openDepth = 1, anchors }: ParamRowItemProps) {
  const nested = row.children.length + (row.alternatives?.length ?? 0);
  const label = row.role === "items" ? "each item" : row.role === "additional" ? "any other key" : row.name;
  return (
    <li
      id={anchors?.ids.get(row)}
      data-testid="param-row"
      data-path={row.path}
      data-depth={depth}
      className="min-w-0 border-t border-zinc-100 py-2 first:border-t-0 dark:border-zinc-800"
    >
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-1">
        <code
          data-testid="param-name"
          className={`break-all font-mono text-sm font-semibold text-zinc-900 dark:text-zinc-50 ${row.deprecated ? "line-through" : ""}`}
        >
          {label}
        </code>
        <span data-testid="param-type" className="break-all font-mono text-xs text-accent-700 dark:text-accent-100">
          {row.type}
        </span>
        {row.refName && !row.cycleRef && (
          <span className="font-mono text-xs text-zinc-500 dark:text-zinc-400" title={`Defined as ${row.refName}`}>
            ({row.refName})
          </span>
        )}
        {row.required ? (
          <Badge tone="danger" variant="solid" testId="param-required">
            required
          </Badge>
        ) : (
          <span className="text-xs text-zinc-500 dark:text-zinc-400" data-testid="param-optional">
            optional
          </span>
        )}
        {row.nullable && <Badge>nullable</Badge>}
        {row.deprecated && (
          <Badge tone="warning" testId="param-deprecated">
            deprecated
          </Badge>
        )}
        {row.readOnly && <Badge>read-only</Badge>}
        {row.writeOnly && <Badge>write-only</Badge>}
        {row.format && (
          <Badge tone="info" testId="param-format" title={`format: ${row.format}`}>
            {row.format}
          </Badge>
        )}
        {row.xMcpHeader !== undefined && (
          <CodeChip tone="accent" testId="param-header-chip" title="Mirrored into this HTTP header (x-mcp-header)">
            Mcp-Param-{row.xMcpHeader}
          </CodeChip>
        )}
      </div>

      {row.title && row.title !== row.name && <p className="mt-0.5 text-xs font-medium text-zinc-700 dark:text-zinc-300">{row.title}</p>}
      {row.description && (
        <Markdown source={row.description} compact className="mt-0.5 text-zinc-700 dark:text-zinc-300" testId="param-description" />
      )}

      {row.enum && row.enum.length > 0 && (
        <div className="mt-1 flex flex-wrap items-center gap-1" data-testid="param-enum">
          <span className="text-xs text-zinc-500 dark:text-zinc-400">one of</span>
          {row.enum.slice(0, MAX_ENUM_CHIPS).map((v, i) => (
            <CodeChip key={i}>{shortJson(v, 40)}</CodeChip>
          ))}
          {(row.enum.length > MAX_ENUM_CHIPS || row.enumTruncated) && <span className="text-xs text-zinc-500">… more</span>}
        </div>
      )}

      {(row.hasDefault || row.constraints.length > 0 || (row.examples?.length ?? 0) > 0) && (
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
          {row.hasDefault && (
            <div className="flex items-baseline gap-1" data-testid="param-default">
              <dt>default</dt>
              <dd>
                <CodeChip>{shortJson(row.default)}</CodeChip>
              </dd>
            </div>
          )}
          {row.constraints.length > 0 && (
            <div className="flex min-w-0 flex-wrap items-baseline gap-1" data-testid="param-constraints">
              <dt className="sr-only">constraints</dt>
              {row.constraints.map((c, i) => (
                <dd key={i} className="break-all rounded bg-zinc-100 px-1.5 py-px font-mono dark:bg-zinc-800">
                  {c}
                </dd>
              ))}
            </div>
          )}
          {row.examples && row.examples.length > 0 && (
            <div className="flex min-w-0 flex-wrap items-baseline gap-1" data-testid="param-examples">
              <dt>e.g.</dt>
              {row.examples.slice(0, 3).map((v, i) => (
                <dd key={i}>
                  <CodeChip>{shortJson(v)}</CodeChip>
                </dd>
              ))}
            </div>
          )}
        </dl>
      )}

      {row.cycleRef && (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400" data-testid="param-cycle">
          Recursive: same shape as{" "}
          {row.refName && anchors?.byRef.has(row.refName) ? (
            <a
              href={`#${anchors.byRef.get(row.refName)}`}
              className="font-mono text-accent-700 underline dark:text-accent-100"
              data-testid="param-cycle-link"
            >
              {row.cycleRef}
            </a>
          ) : (
            <code className="font-mono">{row.cycleRef}</code>
          )}{" "}
          above.
        </p>
      )}
      {row.externalRef && (
        <p className="mt-1 break-all text-xs text-amber-800 dark:text-amber-300" data-testid="param-external-ref">
          Refers to an external schema that is not fetched: <code className="font-mono">{row.externalRef}</code>
        </p>
      )}
      {row.missingRef && (
        <p className="mt-1 break-all text-xs text-red-700 dark:text-red-300" data-testid="param-missing-ref">
          Refers to <code className="font-mono">{row.missingRef}</code>, which does not exist.
        </p>
      )}
      {row.truncated && <p className="mt-1 text-xs text-zinc-500">Nested too deeply to show here; see the raw schema.</p>}

      {nested > 0 && (
        <details open={depth < openDepth} className="group mt-1.5" data-testid="param-children">
          <summary className="cursor-pointer select-none text-xs font-medium text-accent-700 hover:underline dark:text-accent-100">
            {describeNested(row)}
          </summary>
          <div className="mt-1 border-l-2 border-zinc-200 pl-3 dark:border-zinc-700">
            {row.children.length > 0 && (
              <ul className="min-w-0">
                {row.children.map((child) => (
                  <ParamRowItem
                    key={`${child.role}:${child.path}:${child.name}`}
                    row={child}
                    depth={depth + 1}
                    openDepth={openDepth}
                    anchors={anchors}
                  />
                ))}
              </ul>
            )}
            {row.alternatives && (
              <AlternativeGroups alternatives={row.alternatives} depth={depth + 1} openDepth={openDepth} anchors={anchors} />
            )}
          </div>
        </details>
      )}
    </li>
  );
}

function describeNested(row: ParamRow): string {
  const parts: string[] = [];
  if (row.children.length > 0) {
    const word = row.type.startsWith("array") || row.type.startsWith("tuple") ? "item field" : "field";
    parts.push(`${row.children.length} ${word}${row.children.length === 1 ? "" : "s"}`);
  }
  if (row.alternatives?.length) parts.push(`${row.alternatives.length} alternative${row.alternatives.length === 1 ? "" : "s"}`);
  return parts.join(", ");
}

/** Props for {@link AlternativeGroups}. */
export interface AlternativeGroupsProps {
  alternatives: Alternative[];
  /** Nesting level of the rows inside the groups. */
  depth: number;
  /** Passed through to {@link ParamRowItem}. */
  openDepth?: number;
  /** Passed through to {@link ParamRowItem}. */
  anchors?: RefAnchors;
}

const KIND_TEXT: Record<Alternative["kind"], string> = {
  oneOf: "exactly one of",
  anyOf: "any of",
  allOf: "all of",
  if: "if",
  then: "then",
  else: "else",
};

/** oneOf/anyOf/allOf/if-then-else branches as labelled groups of rows. */
export function AlternativeGroups({ alternatives, depth, openDepth, anchors }: AlternativeGroupsProps) {
  return (
    <div className="mt-1 flex min-w-0 flex-col gap-2" data-testid="param-alternatives">
      {alternatives.map((alt, i) => (
        <div
          key={i}
          role="group"
          aria-label={`${KIND_TEXT[alt.kind]}: ${alt.label}`}
          data-testid="param-alternative"
          data-kind={alt.kind}
          className="min-w-0 rounded-md border border-dashed border-zinc-300 px-2 py-1.5 dark:border-zinc-700"
        >
          <p className="text-xs font-medium text-zinc-700 dark:text-zinc-300">
            <span className="mr-1.5 rounded bg-zinc-100 px-1 font-mono text-[0.7rem] text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">
              {alt.kind}
            </span>
            {alt.label}
          </p>
          {alt.rows.length > 0 ? (
            <ul className="min-w-0">
              {alt.rows.map((row) => (
                <ParamRowItem key={`${row.role}:${row.path}:${row.name}`} row={row} depth={depth} openDepth={openDepth} anchors={anchors} />
              ))}
            </ul>
          ) : (
            <p className="text-xs text-zinc-500 dark:text-zinc-400">No constraints shown for this branch.</p>
          )}
        </div>
      ))}
    </div>
  );
}
