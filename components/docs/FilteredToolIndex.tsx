"use client";

import { useDeferredValue, useMemo, useState, type FormEvent } from "react";
import type { DocsLinkData } from "@/lib/docs/links";
import { BEHAVIOURS, matchesQuery, parseToolQuery, searchWithQuery, type ToolQuery } from "@/lib/docs/tool-filter";
import { itemSearchEntry, type ToolListItem } from "@/lib/docs/tool-rows";
import { ToolIndex } from "./ToolIndex";

/** Props for {@link FilteredToolIndex}. */
export interface FilteredToolIndexProps {
  /** Every tool of the server, in server order, as index items (toolIndexItem). */
  rows: ToolListItem[];
  links: DocsLinkData;
  /** The query of the URL the page was asked for: the server renders its matches, so the first paint is right. */
  initialQuery: ToolQuery;
}

const control = "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/**
 * The "Tools" section of a server page: the filter form and the index. The form is a plain GET form (it works
 * without JavaScript); with JavaScript it filters as you type, in the browser, and keeps `?q=`/`behaviour=` in
 * the address bar with history.replaceState, so a copied link still shows the same list.
 */
export function FilteredToolIndex({ rows, links, initialQuery }: FilteredToolIndexProps) {
  const [query, setQuery] = useState<ToolQuery>(initialQuery);
  // Typing stays responsive on a 5,000-tool page: the list catches up when React has time.
  const deferred = useDeferredValue(query);
  // Derived here, not sent: the page's payload carries each tool's text once.
  const entries = useMemo(() => rows.map(itemSearchEntry), [rows]);
  const shown = useMemo(() => rows.filter((_, i) => matchesQuery(entries[i], deferred)), [rows, entries, deferred]);
  const count = shown.length === rows.length ? `${shown.length}` : `${shown.length} of ${rows.length}`;

  const apply = (next: ToolQuery) => {
    setQuery(next);
    const { pathname, search, hash } = window.location;
    window.history.replaceState(null, "", `${pathname}${searchWithQuery(search, next)}${hash}`);
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault(); // already applied as typed: no reload
    const form = new FormData(e.currentTarget);
    apply(parseToolQuery(form.get("q"), form.get("behaviour")));
  };

  return (
    <section className="mt-8" aria-labelledby="tools-heading">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="tools-heading" className="text-xl font-semibold">
          Tools{" "}
          <span className="text-base font-normal text-zinc-500" data-testid="tool-count">
            ({count})
          </span>
        </h2>
        <form className="ml-auto flex flex-wrap gap-2" role="search" action={links.search.action} onSubmit={onSubmit}>
          {Object.entries(links.search.hidden).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <label className="sr-only" htmlFor="tool-search">
            Search tools
          </label>
          <input
            id="tool-search"
            name="q"
            type="search"
            value={query.q ?? ""}
            onChange={(e) => apply({ ...query, q: parseToolQuery(e.target.value, undefined).q || undefined })}
            placeholder="Search name, title, description"
            className={`w-64 max-w-full ${control}`}
          />
          <label className="sr-only" htmlFor="tool-behaviour">
            Behaviour
          </label>
          <select
            id="tool-behaviour"
            name="behaviour"
            value={query.behaviour ?? ""}
            onChange={(e) => apply({ ...query, behaviour: parseToolQuery(undefined, e.target.value).behaviour })}
            className={control}
          >
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
      <p className="sr-only" aria-live="polite">
        {shown.length === rows.length ? "" : `${shown.length} of ${rows.length} tools shown`}
      </p>
      {shown.length === 0 ? <p className="mt-4 text-sm text-zinc-500">No tool matches.</p> : <ToolIndex rows={shown} links={links} />}
    </section>
  );
}
