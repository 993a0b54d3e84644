import { toolHref, type DocsLinkData } from "@/lib/docs/links";
import { groupRows, itemDisplay, itemSummary, type ToolListItem } from "@/lib/docs/tool-rows";
import { BADGES_CLASS, BehaviourBadges } from "./tool/BehaviourBadges";
import { LIST_ICON_CLASS, ListToolIcon } from "./tool/ToolIcon";

/** Props for {@link ToolIndex}. */
export interface ToolIndexProps {
  /** The rows to list, in server order (already filtered by the search). Names may repeat. */
  rows: ToolListItem[];
  /** Where tool names lead. */
  links: DocsLinkData;
}

/**
 * Row styling lives on the index (descendant variants), not on every row, nor on every group's list: with 5,000
 * rows each class string would be sent for every row, several megabytes in all.
 */
const INDEX_CLASS = [
  "[&_ul[data-rows]]:divide-y [&_ul[data-rows]]:divide-zinc-200 dark:[&_ul[data-rows]]:divide-zinc-800",
  "[&_[data-rows]>li]:py-2.5",
  "[&_[data-rows]>li>div]:flex [&_[data-rows]>li>div]:flex-wrap [&_[data-rows]>li>div]:items-center [&_[data-rows]>li>div]:gap-x-2 [&_[data-rows]>li>div]:gap-y-1",
  "[&_[data-rows]>li>div>a]:break-all [&_[data-rows]>li>div>a]:font-medium [&_[data-rows]>li>div>a]:text-accent-700 [&_[data-rows]>li>div>a:hover]:underline dark:[&_[data-rows]>li>div>a]:text-accent-100",
  "[&_[data-rows]>li>div>code]:break-all [&_[data-rows]>li>div>code]:text-xs [&_[data-rows]>li>div>code]:text-zinc-500",
  "[&_[data-rows]>li>p]:mt-0.5 [&_[data-rows]>li>p]:line-clamp-2 [&_[data-rows]>li>p]:break-words [&_[data-rows]>li>p]:text-sm [&_[data-rows]>li>p]:text-zinc-600 dark:[&_[data-rows]>li>p]:text-zinc-400",
  BADGES_CLASS,
  LIST_ICON_CLASS,
].join(" ");

/**
 * One row: icon (only when the list has icons at all), display name, machine name, the behaviour badge and the
 * first line of the description. No Markdown here; that is the tool page's job.
 */
function ToolRow({ row, links, icons }: { row: ToolListItem; links: DocsLinkData; icons: boolean }) {
  const display = itemDisplay(row);
  const summary = itemSummary(row);
  return (
    <li data-testid={`tool-row-${row.name}`}>
      <div>
        {icons && <ListToolIcon icons={row.icons} name={display} />}
        <a href={toolHref(links, row.name)}>{display}</a>
        {display !== row.name && <code>{row.name}</code>}
        <BehaviourBadges item={row} />
      </div>
      {summary && <p>{summary}</p>}
    </li>
  );
}

/**
 * The server page's tool index, grouped by namespace prefix (`github_…`, `jira.…`) when names share one, with
 * a count per group and a jump list. Plain anchors and native <details>; the filter above it re-renders it.
 */
export function ToolIndex({ rows, links }: ToolIndexProps) {
  const groups = groupRows(rows);
  const icons = rows.some((r) => r.icons);
  const list = (items: ToolListItem[]) => (
    <ul data-rows="">
      {items.map((row, i) => (
        <ToolRow key={`${i}:${row.name}`} row={row} links={links} icons={icons} />
      ))}
    </ul>
  );

  if (groups.length === 1 && groups[0].prefix === null) {
    return (
      <div data-testid="tool-index" data-grouped="false" className={INDEX_CLASS}>
        {list(groups[0].rows)}
      </div>
    );
  }
  return (
    <div data-testid="tool-index" data-grouped="true" className={INDEX_CLASS}>
      <nav aria-label="Namespaces" className="mt-3" data-testid="tool-groups-nav">
        <ul className="flex flex-wrap gap-1.5 text-sm">
          {groups.map((g) => (
            <li key={g.anchor}>
              <a
                href={`#${g.anchor}`}
                className="inline-flex items-center gap-1 rounded-md border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                <span className={g.prefix === null ? "" : "font-mono"}>{g.prefix ?? g.label}</span>
                <span className="text-xs text-zinc-500">{g.rows.length}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((g) => (
        <details key={g.anchor} id={g.anchor} open className="group mt-4" data-testid="tool-group" data-prefix={g.prefix ?? ""}>
          <summary className="flex cursor-pointer items-baseline gap-2 border-b border-zinc-200 pb-1 dark:border-zinc-800">
            <span aria-hidden className="inline-block w-3 -rotate-90 text-xs text-zinc-400 group-open:rotate-0">
              ▾
            </span>
            <h3 className="text-base font-semibold">{g.prefix === null ? g.label : <code className="font-mono">{g.prefix}…</code>}</h3>
            <span className="text-sm text-zinc-500" data-testid="tool-group-count">
              {g.rows.length} tool{g.rows.length === 1 ? "" : "s"}
            </span>
          </summary>
          {list(g.rows)}
        </details>
      ))}
    </div>
  );
}
