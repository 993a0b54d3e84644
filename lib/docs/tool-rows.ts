import type { Icon, Tool } from "../mcp/contract.ts";
import { effectiveHints } from "./annotations.ts";
import { displayName, firstLine } from "./display-name.ts";
import { groupByNamespace } from "./namespaces.ts";
import { toolSearchEntry, type ToolSearchEntry } from "./tool-filter.ts";

/** A row's summary is the description's first line, cut here: a hostile first line may be a megabyte long. */
export const SUMMARY_MAX_CHARS = 240;
/** Namespaces with at least this many tools get a group (fewer go to "Other"), in the index and the sidebar alike. */
export const MIN_GROUP_SIZE = 2;

/** The one behaviour a list shows for a tool (read-only, destructive or modifies), and whether the server stated it. */
export interface BehaviourMark {
  kind: "read-only" | "destructive" | "modifies";
  stated: boolean;
}

/** What a tool list (the sidebar) shows of one tool: plain data, sent to the browser for every tool. */
export interface ToolListItem {
  name: string;
  /** The display name (title first). */
  display: string;
  behaviour: BehaviourMark;
  /** Idempotent by its effective hints (never shown beside read-only, where it does not apply). */
  idempotent: boolean;
}

/** What the server page's index shows of one tool, and what its filter reads. */
export interface ToolIndexRow extends ToolListItem {
  summary: string;
  icons?: Icon[];
  search: ToolSearchEntry;
}

/** A group of a tool list: a namespace (`github_…`), "Other", or "All tools" when nothing is shared. */
export interface RowGroup<T> {
  prefix: string | null;
  label: string;
  /** An id for the group heading's anchor (letters, digits and dashes only). */
  anchor: string;
  rows: T[];
}

function summary(description: unknown): string {
  const line = firstLine(typeof description === "string" ? description.slice(0, 4 * SUMMARY_MAX_CHARS) : undefined);
  return line.length > SUMMARY_MAX_CHARS ? `${line.slice(0, SUMMARY_MAX_CHARS - 1)}…` : line;
}

/** The list item of one tool. */
export function toolListItem(tool: Tool): ToolListItem {
  const [readOnly, destructive, idempotent] = effectiveHints(tool);
  const behaviour: BehaviourMark = readOnly.value
    ? { kind: "read-only", stated: readOnly.source === "set" }
    : destructive.value
      ? { kind: "destructive", stated: destructive.source === "set" }
      : { kind: "modifies", stated: true };
  return { name: tool.name, display: displayName(tool), behaviour, idempotent: !readOnly.value && idempotent.value };
}

/** The index row of one tool. */
export function toolIndexRow(tool: Tool): ToolIndexRow {
  const icons = Array.isArray(tool.icons) && tool.icons.length > 0 ? { icons: tool.icons } : {};
  return { ...toolListItem(tool), summary: summary(tool.description), ...icons, search: toolSearchEntry(tool) };
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
  return groupByNamespace([...byName.keys()], MIN_GROUP_SIZE).map((g, i) => ({
    prefix: g.prefix,
    label: g.label,
    anchor: groupAnchor(g.label, i),
    rows: g.names.flatMap((n) => byName.get(n) ?? []),
  }));
}
