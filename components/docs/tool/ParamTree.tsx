import { walkRows, type ParamRow, type ParamTree as ParamTreeModel } from "@/lib/docs/param-rows";
import { AlternativeGroups, ParamRowItem, type RefAnchors } from "./ParamRowItem";
import { Markdown } from "@/components/ui/Markdown";

/** Props for {@link ParamTree}. */
export interface ParamTreeProps {
  /** The model from `buildParamTree(inputSchema)`. */
  tree: ParamTreeModel;
  /** Accessible name of the list, e.g. "Parameters of search_issues". */
  label?: string;
  /** Text when there is nothing to list. Default "This tool takes no parameters." */
  emptyText?: string;
  /** Text under a closed object (additionalProperties false). Default "No other arguments are accepted." (input wording). */
  closedText?: string;
  /** Show the root schema's own description above the rows. Default false (tool docs show the tool's). */
  showRootDescription?: boolean;
  /** Levels whose nested fields start expanded. Default 1. */
  openDepth?: number;
  testId?: string;
}

/**
 * Anchors for recursive schemas: the first row expanding each named definition gets an id, so a "recursive"
 * marker further down can link to it (ids are prefixed per tree: a page shows input and output schemas).
 */
function refAnchors(tree: ParamTreeModel, prefix: string): RefAnchors {
  const ids = new Map<ParamRow, string>();
  const byRef = new Map<string, string>();
  const visit = (row: ParamRow) => {
    if (!row.refName || row.cycleRef || byRef.has(row.refName)) return;
    const id = `${prefix}-def-${byRef.size}-${row.refName.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40)}`;
    byRef.set(row.refName, id);
    ids.set(row, id);
  };
  walkRows(tree.rows, visit);
  for (const alt of tree.rootAlternatives ?? []) walkRows(alt.rows, visit);
  return { ids, byRef };
}

/**
 * Parameters as a nested list. Nested objects, array items and alternatives expand with native
 * <details>, so the tree works without client JavaScript.
 */
export function ParamTree({
  tree,
  label = "Parameters",
  emptyText = "This tool takes no parameters.",
  closedText = "No other arguments are accepted.",
  showRootDescription = false,
  openDepth = 1,
  testId = "param-tree",
}: ParamTreeProps) {
  const anchors = refAnchors(tree, testId);
  return (
    <div data-testid={testId} data-row-count={tree.rowCount} className="min-w-0">
      {showRootDescription && tree.rootDescription && <Markdown source={tree.rootDescription} className="mb-2" />}
      {tree.rootExternalRef && (
        <p className="break-all text-sm text-amber-800 dark:text-amber-300">
          The schema is an external reference that is not fetched: <code className="font-mono">{tree.rootExternalRef}</code>
        </p>
      )}
      {(tree.rootCycleRef || tree.rootMissingRef) && (
        <p className="text-sm text-red-700 dark:text-red-300">
          The schema&apos;s root reference cannot be resolved: {tree.rootCycleRef ?? tree.rootMissingRef}
        </p>
      )}
      {tree.noParameters ? (
        <p data-testid="param-tree-empty" className="text-sm text-zinc-600 dark:text-zinc-400">
          {emptyText}
          {tree.additionalProperties === "allowed" && (
            <span className="block text-xs text-zinc-500">Its schema nonetheless accepts any object.</span>
          )}
        </p>
      ) : (
        tree.rows.length > 0 && (
          <ul aria-label={label} className="min-w-0">
            {tree.rows.map((row) => (
              <ParamRowItem key={`${row.role}:${row.path}:${row.name}`} row={row} depth={0} openDepth={openDepth} anchors={anchors} />
            ))}
          </ul>
        )
      )}
      {tree.rootAlternatives && tree.rootAlternatives.length > 0 && (
        <div className="mt-2">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">The arguments must also match:</p>
          <AlternativeGroups alternatives={tree.rootAlternatives} depth={0} openDepth={openDepth} anchors={anchors} />
        </div>
      )}
      {tree.additionalProperties === "forbidden" && !tree.noParameters && (
        <p className="mt-1 text-xs text-zinc-500 dark:text-zinc-400" data-testid="param-tree-closed">
          {closedText}
        </p>
      )}
      {tree.truncated && (
        <p className="mt-2 text-xs text-amber-800 dark:text-amber-300" data-testid="param-tree-truncated">
          This schema is too large or too deep to show in full; see the raw JSON.
        </p>
      )}
    </div>
  );
}
