import type { Alternative } from "@/lib/docs/param-rows";
import { ParamRowItem, type RefAnchors } from "./ParamRowItem";

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
            <span className="mr-1.5 rounded bg-zinc-100 px-1 font-mono text-[0.7rem] text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400">{alt.kind}</span>
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
