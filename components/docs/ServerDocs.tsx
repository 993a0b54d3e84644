import type { ReactNode } from "react";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import { liveLinks, type DocsLinks } from "@/lib/docs/links";
import type { ToolQuery } from "@/lib/docs/tool-filter";
import { toolIndexItem, type ToolListItem } from "@/lib/docs/tool-rows";
import { listHints, lintServer, type ServerLint } from "@/lib/docs/lints";
import { declaresSkills } from "@/lib/docs/skills/skill-facts";
import { DocsShell } from "./DocsShell";
import { ExcludedTools } from "./ExcludedTools";
import { FilteredToolIndex } from "./FilteredToolIndex";
import { LintSummary } from "./LintSummary";
import { ServerOverview } from "./ServerOverview";
import { ToolSidebar } from "./ToolSidebar";
import { sidebarProps } from "./sidebar-props";
import { SkillsNote } from "./skills/SkillsNote";
import { SkillsSection } from "./skills/SkillsSection";

interface Props {
  server: ServerSummary;
  list: ToolsResponse;
  links: DocsLinks;
  query: ToolQuery;
  /** Controls for the page header, e.g. Share on live docs or exports on a snapshot. */
  actions?: ReactNode;
  /** Shown above the overview, e.g. the "snapshot of … taken …" banner. */
  banner?: ReactNode;
}

/** Lints of a list, computed once per fetched list (a snapshot is reused across page views and searches). */
const lintCache = new WeakMap<ToolsResponse, ServerLint>();

function lintOf(list: ToolsResponse, server: ServerSummary): ServerLint {
  let lint = lintCache.get(list);
  if (!lint) lintCache.set(list, (lint = lintServer(list.tools, listHints(server, list))));
  return lint;
}

/** The index items of a list, likewise once per fetched list. */
const itemsCache = new WeakMap<ToolsResponse, ToolListItem[]>();

function itemsOf(list: ToolsResponse): ToolListItem[] {
  let items = itemsCache.get(list);
  if (!items) itemsCache.set(list, (items = list.tools.map(toolIndexItem)));
  return items;
}

/**
 * A server's docs page body: the tool sidebar, overview, the filtered tool index, excluded tools. Shared by live
 * docs and snapshots.
 */
export function ServerDocs({ server, list, links, query, actions, banner }: Props) {
  // One array for the sidebar and the index: the RSC payload writes an object it has written before as a reference,
  // so the tools travel once, not twice.
  const items = itemsOf(list);
  return (
    <DocsShell sidebar={<ToolSidebar {...sidebarProps(list, links, undefined, items)} />}>
      {banner}
      <ServerOverview
        server={server}
        list={list}
        recorded={!links.data.live}
        actions={
          <div className="flex flex-col items-end gap-2">
            {links.playground && (
              <a
                href={links.playground()}
                data-testid="open-in-playground"
                className="rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
              >
                Open in playground
              </a>
            )}
            {actions}
          </div>
        }
      />
      <FilteredToolIndex rows={items} links={links.data} initialQuery={query} />
      {list.excluded.length > 0 && <ExcludedTools excluded={list.excluded} />}
      {/* Live docs list the skills in the browser. A snapshot records no skills: it says where to see them. A static
          site (`toolscope docs`) has no server to ask and no live docs to point at, so it leaves skills out. */}
      {declaresSkills(server.capabilities) &&
        !links.data.static &&
        (links.data.live ? (
          <SkillsSection server={links.data.server} />
        ) : (
          <SkillsNote liveHref={liveLinks(links.data.server).serverPage} />
        ))}
      {/* LintSummary is its own "Checks" section, heading included. */}
      <LintSummary lint={lintOf(list, server)} links={links} />
    </DocsShell>
  );
}
