import type { Icon, Tool } from "../mcp/contract.ts";
import { effectiveHints } from "./annotations.ts";
import { displayName, firstLine } from "./display-name.ts";
import { groupByNamespace } from "./namespaces.ts";
import { BEHAVIOURS, SEARCH_DESCRIPTION_CHARS, searchText, type Behaviour, type ToolSearchEntry } from "./tool-filter.ts";

/** A row's summary is the description's first line, cut here: a hostile first line may be a megabyte long. */
export const SUMMARY_MAX_CHARS = 240;

/** The one behaviour a list shows for a tool (read-only, destructive or modifies), and whether the server stated it. */
export interface BehaviourMark {
  kind: "read-only" | "destructive" | "modifies";
  stated: boolean;
}

/** Bits of {@link ToolListItem.marks}: the four filter behaviours by effective hints, and whether the shown one was stated. */
export const MARK = { "read-only": 1, destructive: 2, idempotent: 4, "open-world": 8, stated: 16 } as const;

/**
 * What a tool list (the sidebar, the server page's index) shows of one tool. Plain data sent to the browser for
 * every tool, so it is kept small: no field repeats another (the display name only when it is not the name, the
 * behaviours as bits, one description from which the summary and the search text are both derived), and the server
 * page hands the very same array to the sidebar and the index, which the RSC payload then carries once.
 */
export interface ToolListItem {
  name: string;
  /** The display name (title first), when it is not the name. */
  display?: string;
  /** {@link MARK} bits. */
  marks: number;
  /** A title the display name does not show (`annotations.title` beside a `title`): searched, not shown. */
  otherTitle?: string;
  /** The start of the description (SEARCH_DESCRIPTION_CHARS): the index's summary and the filter's text. Index items only. */
  description?: string;
  icons?: Icon[];
}

/** A group of a tool list: a namespace (`github_…`), "Other", or "All tools" when nothing is shared. */
export interface RowGroup<T> {
  prefix: string | null;
  label: string;
  /** An id for the group heading's anchor (letters, digits and dashes only). */
  anchor: string;
  rows: T[];
}

/** The list item of one tool, as the sidebar shows it (names and behaviours). */
export function toolListItem(tool: Tool): ToolListItem {
  const [readOnly, destructive, idempotent, openWorld] = effectiveHints(tool);
  const ro = readOnly.value;
  const d = !ro && destructive.value;
  const stated = ro ? readOnly.source === "set" : d ? destructive.source === "set" : true;
  const marks =
    (ro ? MARK["read-only"] : 0) |
    (d ? MARK.destructive : 0) |
    (!ro && idempotent.value ? MARK.idempotent : 0) |
    (openWorld.value ? MARK["open-world"] : 0) |
    (stated ? MARK.stated : 0);
  const display = displayName(tool);
  const annotationsTitle = typeof tool.annotations?.title === "string" ? tool.annotations.title : undefined;
  const item: ToolListItem = { name: tool.name, marks };
  if (display !== tool.name) item.display = display;
  // Searched as toolSearchEntry searches it; a title the display name already holds adds nothing to find.
  if (annotationsTitle && !display.includes(annotationsTitle.trim())) item.otherTitle = annotationsTitle;
  return item;
}

/** The item of one tool for the server page's index (and its sidebar): with what the index shows and filters on. */
export function toolIndexItem(tool: Tool): ToolListItem {
  const item = toolListItem(tool);
  if (typeof tool.description === "string" && tool.description !== "")
    item.description = tool.description.slice(0, SEARCH_DESCRIPTION_CHARS);
  if (Array.isArray(tool.icons) && tool.icons.length > 0) item.icons = tool.icons;
  return item;
}

/** The name an item shows. */
export function itemDisplay(item: Pick<ToolListItem, "name" | "display">): string {
  return item.display ?? item.name;
}

/** The behaviour an item's list row shows. */
export function itemBehaviour(item: Pick<ToolListItem, "marks">): BehaviourMark {
  const stated = (item.marks & MARK.stated) !== 0;
  if (item.marks & MARK["read-only"]) return { kind: "read-only", stated };
  if (item.marks & MARK.destructive) return { kind: "destructive", stated };
  return { kind: "modifies", stated: true };
}

/** Whether an item is idempotent by its effective hints (never set beside read-only, where it does not apply). */
export function itemIdempotent(item: Pick<ToolListItem, "marks">): boolean {
  return (item.marks & MARK.idempotent) !== 0;
}

/** An index row's summary: the description's first line, cut at SUMMARY_MAX_CHARS. */
export function itemSummary(item: Pick<ToolListItem, "description">): string {
  const line = firstLine(item.description?.slice(0, 4 * SUMMARY_MAX_CHARS));
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1)}…` : line;
}

/** What the filter reads of an item: the same text and behaviours as toolSearchEntry reads of the tool. */
export function itemSearchEntry(item: ToolListItem): ToolSearchEntry {
  return {
    text: searchText([item.name, item.display, item.otherTitle, item.description]),
    behaviours: BEHAVIOURS.filter((b: Behaviour) => (item.marks & MARK[b]) !== 0),
  };
}

function groupAnchor(label: string, i: number): string {
  return `ns-${i}-${label.replace(/[^A-Za-z0-9-]+/g, "-").slice(0, 40)}`;
}

/**
 * Rows grouped by namespace prefix, in first-appearance order. A name listed twice (a broken server) keeps both
 * rows, in order.
 */
export function groupRows<T extends { name: string }>(rows: T[]): RowGroup<T>[] {
  const byName = new Map<string, T[]>();
  for (const row of rows) {
    const same = byName.get(row.name);
    if (same) same.push(row);
    else byName.set(row.name, [row]);
  }
  return groupByNamespace([...byName.keys()]).map((g, i) => ({
    prefix: g.prefix,
    label: g.label,
    anchor: groupAnchor(g.label, i),
    rows: g.names.flatMap((n) => byName.get(n) ?? []),
  }));
}
