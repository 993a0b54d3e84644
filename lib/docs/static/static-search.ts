/**
 * The tool index's search on a static docs site (`toolscope docs`), where no React runs: the same rule as the web
 * index (matchesQuery over itemSearchEntry, lib/docs/tool-filter.ts), bundled into the page as one small script. It
 * reads the entries the page carries as JSON, and shows or hides the rendered rows as the person types or picks a
 * behaviour. Browser only; nothing from a definition is ever evaluated (the entries are parsed as JSON).
 */
import { revealCurrentLink } from "../sidebar/reveal-current.ts";
import { matchesQuery, matchesWords, parseToolQuery, type ToolSearchEntry } from "../tool-filter.ts";

/** The id of the JSON the page carries: the search entries by tool name. */
export const SEARCH_DATA_ID = "toolscope-search-data";

export function startStaticSearch(doc: Document): void {
  const sidebar = doc.querySelector<HTMLElement>('[data-testid="tool-sidebar"]');
  if (sidebar) revealCurrentLink(sidebar);
  startSidebarFilter(doc);
  startIndexSearch(doc);
}

/** The sidebar's "Find a tool" box, on every page: the web sidebar's rule (name and display name, by words). */
function startSidebarFilter(doc: Document): void {
  const box = doc.getElementById("sidebar-search") as HTMLInputElement | null;
  if (!box) return;
  const links = [...doc.querySelectorAll<HTMLAnchorElement>("a[data-sidebar-link]")];
  const apply = () => {
    const q = box.value.slice(0, 200);
    for (const a of links) {
      const display = a.querySelector("span")?.textContent ?? "";
      const name = a.title || display;
      const li = a.parentElement;
      if (li) li.hidden = q !== "" && !matchesWords(`${name}\n${display}`.toLowerCase(), q);
    }
  };
  box.addEventListener("input", apply);
  box.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && box.value) {
      box.value = "";
      apply();
    }
  });
}

/** The index's search and behaviour filter (index.html only: the page carries the entries). */
function startIndexSearch(doc: Document): void {
  const data = doc.getElementById(SEARCH_DATA_ID);
  const input = doc.getElementById("tool-search") as HTMLInputElement | null;
  const select = doc.getElementById("tool-behaviour") as HTMLSelectElement | null;
  if (!data || !input) return;
  const entries = JSON.parse(data.textContent ?? "{}") as Record<string, ToolSearchEntry>;
  const rows = [...doc.querySelectorAll<HTMLElement>('[data-testid^="tool-row-"]')];
  const count = doc.querySelector('[data-testid="tool-count"]');
  const apply = () => {
    const query = parseToolQuery(input.value, select?.value ?? "");
    let shown = 0;
    for (const row of rows) {
      const entry = entries[row.getAttribute("data-testid")!.slice("tool-row-".length)];
      const match = !entry || matchesQuery(entry, query);
      row.hidden = !match;
      if (match) shown++;
    }
    if (count) count.textContent = shown === rows.length ? `(${rows.length})` : `(${shown} of ${rows.length})`;
  };
  input.addEventListener("input", apply);
  select?.addEventListener("change", apply);
  input.form?.addEventListener("submit", (e) => {
    e.preventDefault();
    apply();
  });
}
