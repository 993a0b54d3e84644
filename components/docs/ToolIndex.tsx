import type { Tool } from "@/lib/mcp/contract";
import type { DocsLinks } from "@/lib/docs/links";
import { displayName, firstLine } from "@/lib/docs/display-name";
import { effectiveHints } from "@/lib/docs/annotations";
import { groupByNamespace } from "@/lib/docs/namespaces";
import { Badge } from "@/components/ui/Badge";
import { ToolIcon } from "./ToolIcon";

/** Props for {@link ToolIndex}. */
export interface ToolIndexProps {
  /** The tools to list, in server order (already filtered by the search). Names may repeat. */
  tools: Tool[];
  /** Where tool names lead. */
  links: DocsLinks;
}

/** A row's summary is the description's first line, cut here: a hostile first line may be a megabyte long. */
export const SUMMARY_MAX_CHARS = 240;
/** Namespaces with at least this many tools get a group (fewer go to "Other"). */
const MIN_GROUP_SIZE = 2;

function summary(description: unknown): string {
  const line = firstLine(typeof description === "string" ? description.slice(0, 4 * SUMMARY_MAX_CHARS) : undefined);
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1)}…` : line;
}

/** An id for a group heading's anchor (letters, digits and dashes only). */
function groupAnchor(label: string, i: number): string {
  return `ns-${i}-${label.replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 40)}`;
}

/**
 * Row styling lives on the list (descendant variants), not on every row: with 5,000 rows each class string would
 * be sent twice (HTML and the RSC payload), several megabytes in all.
 */
const LIST_CLASS = [
  "divide-y divide-zinc-200 dark:divide-zinc-800",
  "[&>li]:py-2.5",
  "[&>li>div]:flex [&>li>div]:flex-wrap [&>li>div]:items-center [&>li>div]:gap-x-2 [&>li>div]:gap-y-1",
  "[&>li>div>a]:break-all [&>li>div>a]:font-medium [&>li>div>a]:text-accent-700 [&>li>div>a:hover]:underline dark:[&>li>div>a]:text-accent-100",
  "[&>li>div>code]:break-all [&>li>div>code]:text-xs [&>li>div>code]:text-zinc-500",
  "[&>li>p]:mt-0.5 [&>li>p]:line-clamp-2 [&>li>p]:break-words [&>li>p]:text-sm [&>li>p]:text-zinc-600 dark:[&>li>p]:text-zinc-400",
].join(" ");

/**
 * One row: icon (only when the list has icons at all), display name (a plain link: the index ships no client JS,
 * even with 5,000 rows), machine name, the behaviour badge and the first line of the description. No Markdown
 * here; that is the tool page's job.
 */
function ToolRow({ tool, href, icons }: { tool: Tool; href: string; icons: boolean }) {
  const [readOnly, destructive, idempotent] = effectiveHints(tool);
  const name = displayName(tool);
  const text = summary(tool.description);
  return (
    <li data-testid={`tool-row-${tool.name}`}>
      <div>
        {icons && <ToolIcon icons={tool.icons} name={name} size={20} />}
        <a href={href}>{name}</a>
        {name !== tool.name && <code>{tool.name}</code>}
        {readOnly.value ? (
          <Badge tone="success" variant={readOnly.source === "set" ? "solid" : "dashed"}>
            read-only
          </Badge>
        ) : destructive.value ? (
          <Badge
            tone="danger"
            variant={destructive.source === "set" ? "solid" : "dashed"}
            title={destructive.source === "default" ? "Not stated by the server: the spec default is destructive" : undefined}
          >
            destructive
          </Badge>
        ) : (
          <Badge tone="warning" variant="solid">
            modifies
          </Badge>
        )}
        {!readOnly.value && idempotent.value && (
          <Badge tone="info" variant="solid">
            idempotent
          </Badge>
        )}
      </div>
      {text && <p>{text}</p>}
    </li>
  );
}

/**
 * The server page's tool index, grouped by namespace prefix (`github_…`, `jira.…`) when names share one, with
 * a count per group and a jump list. Server-rendered only: plain anchors and native <details>, no client JS.
 */
export function ToolIndex({ tools, links }: ToolIndexProps) {
  // Map names back to tools; a name listed twice (a broken server) keeps both rows, in order.
  const byName = new Map<string, Tool[]>();
  for (const tool of tools) {
    const same = byName.get(tool.name);
    if (same) same.push(tool);
    else byName.set(tool.name, [tool]);
  }
  const groups = groupByNamespace([...byName.keys()], MIN_GROUP_SIZE).map((g, i) => ({
    ...g,
    anchor: groupAnchor(g.label, i),
    tools: g.names.flatMap((n) => byName.get(n) ?? []),
  }));
  const icons = tools.some((t) => Array.isArray(t.icons) && t.icons.length > 0);
  const rows = (list: Tool[]) => (
    <ul className={LIST_CLASS}>
      {list.map((tool, i) => (
        <ToolRow key={`${i}:${tool.name}`} tool={tool} href={links.toolPage(tool.name)} icons={icons} />
      ))}
    </ul>
  );

  if (groups.length === 1 && groups[0].prefix === null) {
    return (
      <div data-testid="tool-index" data-grouped="false">
        {rows(groups[0].tools)}
      </div>
    );
  }
  return (
    <div data-testid="tool-index" data-grouped="true">
      <nav aria-label="Namespaces" className="mt-3" data-testid="tool-groups-nav">
        <ul className="flex flex-wrap gap-1.5 text-sm">
          {groups.map((g) => (
            <li key={g.anchor}>
              <a
                href={`#${g.anchor}`}
                className="inline-flex items-center gap-1 rounded-md border border-zinc-300 px-2 py-0.5 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
              >
                <span className={g.prefix === null ? "" : "font-mono"}>{g.prefix ?? g.label}</span>
                <span className="text-xs text-zinc-500">{g.tools.length}</span>
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
              {g.tools.length} tool{g.tools.length === 1 ? "" : "s"}
            </span>
          </summary>
          {rows(g.tools)}
        </details>
      ))}
    </div>
  );
}
