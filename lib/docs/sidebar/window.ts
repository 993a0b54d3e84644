import type { RowGroup } from "../tool-rows.ts";

/**
 * A static docs site puts the sidebar on every tool page, so a full list costs pages × tools: a 1,000-tool server
 * made a 283 MB site, nine tenths of it the same list a thousand times. Up to SIDEBAR_FULL_MAX tools every page
 * lists them all; above it, a page lists the tools around its own (SIDEBAR_RADIUS either side, in the sidebar's
 * order) and links to the index, whose search covers all of them.
 */
export const SIDEBAR_FULL_MAX = 150;
export const SIDEBAR_RADIUS = 30;

/**
 * The groups cut to the 2 × radius + 1 rows around `current`'s first row, in the flattened order the sidebar shows;
 * each group keeps its label and anchor, and groups left empty go. A name not in the list keeps the first rows.
 */
export function sidebarWindow<T extends { name: string }>(groups: RowGroup<T>[], current: string, radius: number): RowGroup<T>[] {
  let at = 0;
  let found = -1;
  for (const g of groups) {
    const i = g.rows.findIndex((r) => r.name === current);
    if (i !== -1) {
      found = at + i;
      break;
    }
    at += g.rows.length;
  }
  const total = groups.reduce((n, g) => n + g.rows.length, 0);
  // Near either end the window slides inward, so every page lists as many tools.
  const from = Math.max(0, Math.min((found === -1 ? 0 : found) - radius, total - (2 * radius + 1)));
  const to = from + 2 * radius + 1;
  const out: RowGroup<T>[] = [];
  let start = 0;
  for (const g of groups) {
    const end = start + g.rows.length;
    const rows = g.rows.slice(Math.max(0, from - start), Math.max(0, to - start));
    if (rows.length > 0) out.push({ ...g, rows });
    start = end;
  }
  return out;
}
