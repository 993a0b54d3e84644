import type { ReactNode } from "react";
import type { ServerSummary, ToolsResponse } from "@/lib/mcp/contract";
import type { DocsLinks } from "@/lib/docs/links";
import { BEHAVIOURS, filterTools, type ToolQuery } from "@/lib/docs/tool-filter";
import { ExcludedTools } from "./ExcludedTools";
import { ServerOverview } from "./ServerOverview";
import { ToolIndex } from "./ToolIndex";
import { LintSummary } from "./LintSummary";
import { lintServer, type ServerLint } from "@/lib/docs/lints";

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

function lintOf(list: ToolsResponse): ServerLint {
  let lint = lintCache.get(list);
  if (!lint) lintCache.set(list, (lint = lintServer(list.tools, { ttlMs: list.ttlMs, cacheScope: list.cacheScope })));
  return lint;
}

const control = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** A server's docs page body: overview, the searchable tool index, excluded tools. Shared by live docs and snapshots. */
export function ServerDocs({ server, list, links, query, actions, banner }: Props) {
  const shown = filterTools(list.tools, query);
  const count = shown.length === list.tools.length ? `${shown.length}` : `${shown.length} of ${list.tools.length}`;
  return (
    <div className="mx-auto max-w-5xl px-4 py-6">
      {banner}
      <ServerOverview server={server} list={list} actions={actions} />
      <section className="mt-8" aria-labelledby="tools-heading">
        <div className="flex flex-wrap items-end gap-3">
          <h2 id="tools-heading" className="text-xl font-semibold">
            Tools <span className="text-base font-normal text-zinc-500">({count})</span>
          </h2>
          <form className="ml-auto flex flex-wrap gap-2" role="search" action={links.search.action}>
            {Object.entries(links.search.hidden).map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
            <label className="sr-only" htmlFor="tool-search">
              Search tools
            </label>
            <input
              id="tool-search"
              name="q"
              defaultValue={query.q}
              placeholder="Search name, title, description"
              className={`w-64 max-w-full ${control}`}
            />
            <label className="sr-only" htmlFor="tool-behaviour">
              Behaviour
            </label>
            <select id="tool-behaviour" name="behaviour" defaultValue={query.behaviour ?? ""} className={control}>
              <option value="">any behaviour</option>
              {BEHAVIOURS.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </select>
            <button className="rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900">
              Filter
            </button>
          </form>
        </div>
        {shown.length === 0 ? <p className="mt-4 text-sm text-zinc-500">No tool matches.</p> : <ToolIndex tools={shown} links={links} />}
      </section>
      {list.excluded.length > 0 && <ExcludedTools excluded={list.excluded} />}
      {/* LintSummary is its own "Checks" section, heading included. */}
      <LintSummary lint={lintOf(list)} links={links} />
    </div>
  );
}
