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
}

/** Where docs pages link to: live docs (by server URL) and snapshots (by id) render the same views. */
export interface DocsLinks {
  /** The same links as plain data, for client components. */
  data: DocsLinkData;
  /** The server page. */
  serverPage: string;
  toolPage(name: string): string;
  /** The playground for the server, prefilled with a tools/call when a tool is given. */
  playground(tool?: string): string;
  /** The tool index search form: where it submits and the hidden fields it keeps. */
  search: { action: string; hidden: Record<string, string> };
}

/** The playground for a server, prefilled with a tools/call of `tool` when given. */
export function playgroundHref(server: string, tool?: string): string {
  return `/playground?server=${encodeURIComponent(server)}${tool ? `&tool=${encodeURIComponent(tool)}` : ""}`;
}

/** The page of one tool. */
export function toolHref(data: Pick<DocsLinkData, "toolBefore" | "toolAfter">, name: string): string {
  return `${data.toolBefore}${encodeURIComponent(name)}${data.toolAfter}`;
}

/** The link functions over link data. */
export function linksFrom(data: DocsLinkData): DocsLinks {
  return {
    data,
    serverPage: data.serverPage,
    toolPage: (name) => toolHref(data, name),
    playground: (tool) => playgroundHref(data.server, tool),
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
