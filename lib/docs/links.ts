/**
 * Where docs pages link, as plain data: client components (the sidebar, the filtered index, Try it) get this
 * rather than functions, which cannot cross from the server to the browser.
 */
export interface DocsLinkData {
  /** The server page. */
  serverPage: string;
  /** A tool page is `toolBefore + encodeURIComponent(name) + toolAfter`. */
  toolBefore: string;
  toolAfter: string;
  /** The server the playground talks to (a URL or builtin id): snapshots still link to the live server. */
  server: string;
  /** True on live docs; false on a snapshot (nothing there is live, so Try it only links to the playground). */
  live: boolean;
  /** The tool index search form: where it submits and the hidden fields it keeps. */
  search: { action: string; hidden: Record<string, string> };
  /** A static site's file of each tool (written by `toolscope docs`): the tool pages are these, not a URL pattern. */
  toolFiles?: Record<string, string>;
  /** A static site: there is no Toolscope behind it, so no playground to open. */
  static?: boolean;
}

/** Where docs pages link to: live docs (by server URL) and snapshots (by id) render the same views. */
export interface DocsLinks {
  /** The same links as plain data, for client components. */
  data: DocsLinkData;
  /** The server page. */
  serverPage: string;
  toolPage(name: string): string;
  /** The playground for the server, prefilled with a tools/call when a tool is given; null on a static site. */
  playground: ((tool?: string) => string) | null;
  /** The tool index search form: where it submits and the hidden fields it keeps. */
  search: { action: string; hidden: Record<string, string> };
}

/** The playground for a server, prefilled with a tools/call of `tool` when given. */
export function playgroundHref(server: string, tool?: string): string {
  return `/playground?server=${encodeURIComponent(server)}${tool ? `&tool=${encodeURIComponent(tool)}` : ""}`;
}

/** The page of one tool. */
export function toolHref(data: Pick<DocsLinkData, "toolBefore" | "toolAfter" | "toolFiles">, name: string): string {
  const file = data.toolFiles && Object.hasOwn(data.toolFiles, name) ? data.toolFiles[name] : undefined;
  return file ?? `${data.toolBefore}${encodeURIComponent(name)}${data.toolAfter}`;
}

/** The link functions over link data. */
export function linksFrom(data: DocsLinkData): DocsLinks {
  return {
    data,
    serverPage: data.serverPage,
    toolPage: (name) => toolHref(data, name),
    playground: data.static ? null : (tool) => playgroundHref(data.server, tool),
    search: data.search,
  };
}

/** Links for live docs of the server at `server` (a URL or builtin id). */
export function liveLinks(server: string): DocsLinks {
  const q = `?server=${encodeURIComponent(server)}`;
  return linksFrom({
    serverPage: `/docs${q}`,
    toolBefore: "/docs/tools/",
    toolAfter: q,
    server,
    live: true,
    search: { action: "/docs", hidden: { server } },
  });
}

/** Links inside an immutable snapshot; the playground still talks to the live server. */
export function snapshotLinks(id: string, server: string): DocsLinks {
  const base = `/s/${encodeURIComponent(id)}`;
  return linksFrom({
    serverPage: base,
    toolBefore: `${base}/tools/`,
    toolAfter: "",
    server,
    live: false,
    search: { action: base, hidden: {} },
  });
}

/**
 * A static file name for each tool, safe on every file system and in a relative link: the name itself when it is
 * plain (letters, digits, `_`, `-`, `.`), else a cleaned form with a number; never two tools in one file.
 */
export function staticToolFiles(names: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  const taken = new Set<string>();
  for (const name of names) {
    if (Object.hasOwn(files, name)) continue;
    let base =
      /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/.test(name) && !name.endsWith(".")
        ? name
        : name.replace(/[^A-Za-z0-9_-]+/g, "_").slice(0, 80) || "tool";
    if (taken.has(base.toLowerCase())) {
      let n = 2;
      while (taken.has(`${base}-${n}`.toLowerCase())) n++;
      base = `${base}-${n}`;
    }
    taken.add(base.toLowerCase());
    files[name] = `tool-${base}.html`;
  }
  return files;
}

/** Links inside a static site written by `toolscope docs`: relative, all pages in one folder, no playground. */
export function staticLinks(server: string, toolFiles: Record<string, string>): DocsLinks {
  return linksFrom({
    serverPage: "index.html",
    toolBefore: "",
    toolAfter: "",
    server,
    live: false,
    search: { action: "index.html", hidden: {} },
    toolFiles,
    static: true,
  });
}
