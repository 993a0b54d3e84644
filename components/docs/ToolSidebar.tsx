"use client";

import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { toolHref, type DocsLinkData } from "@/lib/docs/links";
import { matchesWords } from "@/lib/docs/tool-filter";
import { revealCurrentLink } from "@/lib/docs/sidebar/reveal-current";
import { groupRows, itemDisplay, type RowGroup, type ToolListItem } from "@/lib/docs/tool-rows";
import { BehaviourMarks, MARKS_CLASS } from "./tool/BehaviourBadges";

/** Props for {@link ToolSidebar}. */
export interface ToolSidebarProps {
  /** Every tool of the server, in server order (on the server page, the very array its index gets). */
  items: ToolListItem[];
  /** Tools listed by the server but excluded from calling, by name and display name. */
  excluded: { name: string; display: string }[];
  links: DocsLinkData;
  /** The tool whose page this is (highlighted), if any. */
  current?: string;
  /**
   * Only some of the tools, already grouped (a static site's big server, lib/docs/sidebar/window.ts): no search box,
   * which could only search these, but a link to the index, whose search covers all `items`.
   */
  nearby?: RowGroup<ToolListItem>[];
}

/**
 * The links' look, set once on the list rather than on each of (maybe) thousands of links: every link is `li > a`,
 * its name the first span, its markers (MARKS_CLASS) the second; the current tool's has aria-current.
 */
const NAV_CLASS = [
  "[&_li>a]:flex [&_li>a]:min-w-0 [&_li>a]:items-center [&_li>a]:gap-1.5 [&_li>a]:rounded [&_li>a]:px-2 [&_li>a]:py-1 [&_li>a]:text-sm",
  "[&_li>a]:text-zinc-700 dark:[&_li>a]:text-zinc-300 [&_li>a:focus-visible]:outline-offset-[-2px]",
  // [href]: one attribute more than the current link's rules, so hovering it still shows the hover colour.
  "[&_li>a[href]:hover]:bg-zinc-100 dark:[&_li>a[href]:hover]:bg-zinc-800",
  "[&_li>a[aria-current]]:bg-accent-50 [&_li>a[aria-current]]:font-semibold [&_li>a[aria-current]]:text-accent-700",
  "dark:[&_li>a[aria-current]]:bg-accent-700/30 dark:[&_li>a[aria-current]]:text-accent-100",
  "[&_li>a>span:first-child]:min-w-0 [&_li>a>span:first-child]:truncate",
  "[&_li>a>span+span]:ml-auto [&_li>a>span+span]:flex [&_li>a>span+span]:shrink-0 [&_li>a>span+span]:gap-0.5",
  MARKS_CLASS,
].join(" ");

function matches(item: { name: string; display?: string }, q: string): boolean {
  return matchesWords(`${item.name}\n${itemDisplay(item)}`.toLowerCase(), q);
}

/** Move the focus to the next (+1) or previous (-1) tool link of the sidebar, from the search box or a link. */
function moveFocus(root: HTMLElement, from: Element | null, step: 1 | -1) {
  const links = Array.from(root.querySelectorAll<HTMLAnchorElement>("a[data-sidebar-link]"));
  if (links.length === 0) return;
  const at = links.indexOf(from as HTMLAnchorElement);
  const next = at === -1 ? (step === 1 ? 0 : links.length - 1) : at + step;
  if (next >= 0 && next < links.length) links[next].focus();
  else if (next < 0) root.querySelector<HTMLInputElement>("input[type=search]")?.focus();
}

/**
 * Every tool of the server beside its docs (Redoc style): grouped like the page, each with its display name and
 * behaviour markers, the current tool highlighted, then the excluded tools; the search box filters it as you type
 * (by name and title). Sticky and scrolling on its own on wide screens; a "Tools" disclosure above the content on
 * narrow ones. Keys: ↓ from the search box into the list, ↑/↓ between tools, Escape clears the search.
 */
export function ToolSidebar({ items, excluded, links, current, nearby }: ToolSidebarProps) {
  const [q, setQ] = useState("");
  const deferred = useDeferredValue(q);
  const groups = useMemo(() => nearby ?? groupRows(items), [items, nearby]);
  const shown = useMemo(
    () =>
      groups.map((g) => ({ ...g, rows: deferred ? g.rows.filter((r) => matches(r, deferred)) : g.rows })).filter((g) => g.rows.length > 0),
    [groups, deferred],
  );
  const shownExcluded = deferred ? excluded.filter((e) => matches(e, deferred)) : excluded;
  const count = shown.reduce((n, g) => n + g.rows.length, 0);
  const root = useRef<HTMLDivElement>(null);

  // The current tool in view inside the sidebar's own scroller, without scrolling the page.
  useEffect(() => {
    if (root.current) revealCurrentLink(root.current);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const target = e.target as HTMLElement;
    if (!(target.matches("a[data-sidebar-link]") || target.matches("input[type=search]"))) return;
    e.preventDefault();
    moveFocus(e.currentTarget, target.matches("input") ? null : target, e.key === "ArrowDown" ? 1 : -1);
  };

  const grouped = !(groups.length === 1 && groups[0].prefix === null);
  // Keyed by position too: a broken server may list a name twice, and both rows stay.
  const link = (item: { name: string; display?: string }, i: number, marks?: ToolListItem) => {
    const display = itemDisplay(item);
    return (
      <li key={`${i}:${item.name}`}>
        <a
          href={toolHref(links, item.name)}
          data-sidebar-link=""
          aria-current={item.name === current ? "page" : undefined}
          title={display === item.name ? undefined : item.name}
        >
          <span>{display}</span>
          {marks && <BehaviourMarks item={marks} />}
        </a>
      </li>
    );
  };

  return (
    <details className="group/sidebar rounded-md border border-zinc-200 lg:border-0 dark:border-zinc-800 lg:[&::details-content]:[content-visibility:visible]">
      <summary className="flex cursor-pointer items-center gap-2 px-3 py-2 text-sm font-medium lg:hidden" data-testid="sidebar-toggle">
        <span aria-hidden className="inline-block w-3 -rotate-90 text-xs text-zinc-400 group-open/sidebar:rotate-0">
          ▾
        </span>
        Tools <span className="font-normal text-zinc-500">({items.length})</span>
      </summary>
      <div
        ref={root}
        onKeyDown={onKeyDown}
        data-testid="tool-sidebar"
        className="max-h-[60vh] overflow-y-auto border-t border-zinc-200 px-1 pb-2 lg:max-h-none lg:overflow-visible lg:border-0 lg:px-0 dark:border-zinc-800"
      >
        {nearby ? (
          <p className="px-2 pb-1 pt-2 text-sm" data-testid="sidebar-window">
            <a href={`${links.serverPage}#tool-search`} className="text-accent-700 hover:underline dark:text-accent-100">
              Find a tool among all {items.length.toLocaleString("en-US")}
            </a>
            <span className="block text-xs text-zinc-500">The tools listed here are the ones around this page&apos;s.</span>
          </p>
        ) : (
          <div className="sticky top-0 z-10 bg-white pb-2 pt-2 dark:bg-zinc-950">
            <label htmlFor="sidebar-search" className="sr-only">
              Find a tool
            </label>
            <input
              id="sidebar-search"
              type="search"
              value={q}
              onChange={(e) => setQ(e.target.value.slice(0, 200))}
              onKeyDown={(e) => {
                if (e.key === "Escape" && q) {
                  e.preventDefault();
                  setQ("");
                }
              }}
              placeholder={`Find a tool (${items.length})`}
              aria-describedby="sidebar-count"
              className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
            />
            <p id="sidebar-count" className="sr-only" aria-live="polite">
              {deferred ? `${count} of ${items.length} tools` : ""}
            </p>
          </div>
        )}
        <nav aria-label="Tools" className={NAV_CLASS}>
          {/* Labels, not headings: the page's own outline (h1, its sections) stays the one a screen reader walks. */}
          <p className="px-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <a href={links.serverPage} className="hover:underline">
              Tools
            </a>
          </p>
          {shown.length === 0 && shownExcluded.length === 0 && (
            <p className="px-2 py-1 text-sm text-zinc-500" data-testid="sidebar-empty">
              No tool matches “{deferred}”.
            </p>
          )}
          {shown.map((g) =>
            grouped ? (
              <div key={g.anchor} className="mt-2" data-testid="sidebar-group">
                <p id={`sidebar-${g.anchor}`} className="px-2 text-xs font-medium text-zinc-600 dark:text-zinc-400">
                  {g.prefix === null ? g.label : <code className="font-mono">{g.prefix}…</code>}
                </p>
                <ul aria-labelledby={`sidebar-${g.anchor}`}>{g.rows.map((r, i) => link(r, i, r))}</ul>
              </div>
            ) : (
              <ul key={g.anchor} className="mt-1">
                {g.rows.map((r, i) => link(r, i, r))}
              </ul>
            ),
          )}
          {shownExcluded.length > 0 && (
            <div className="mt-3" data-testid="sidebar-excluded">
              <p id="sidebar-excluded-label" className="px-2 text-xs font-medium text-amber-800 dark:text-amber-300">
                Excluded ({shownExcluded.length})
              </p>
              <ul aria-labelledby="sidebar-excluded-label">{shownExcluded.map((e, i) => link(e, i))}</ul>
            </div>
          )}
        </nav>
      </div>
    </details>
  );
}
