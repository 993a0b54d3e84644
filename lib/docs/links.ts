/** Where docs pages link to: live docs (by server URL) and snapshots (by id) render the same views. */
export interface DocsLinks {
  /** The server page. */
  serverPage: string;
  toolPage(name: string): string;
  /** The playground for the server, prefilled with a tools/call when a tool is given. */
  playground(tool?: string): string;
  /** The tool index search form: where it submits and the hidden fields it keeps. */
  search: { action: string; hidden: Record<string, string> };
}

function playgroundHref(server: string, tool?: string): string {
  return `/playground?server=${encodeURIComponent(server)}${tool ? `&tool=${encodeURIComponent(tool)}` : ""}`;
}

/** Links for live docs of the server at `server` (a URL or builtin id). */
export function liveLinks(server: string): DocsLinks {
  const q = `?server=${encodeURIComponent(server)}`;
  return {
    serverPage: `/docs${q}`,
    toolPage: (name) => `/docs/tools/${encodeURIComponent(name)}${q}`,
    playground: (tool) => playgroundHref(server, tool),
    search: { action: "/docs", hidden: { server } },
  };
}

/** Links inside an immutable snapshot; the playground still talks to the live server. */
export function snapshotLinks(id: string, server: string): DocsLinks {
  const base = `/s/${encodeURIComponent(id)}`;
  return {
    serverPage: base,
    toolPage: (name) => `${base}/tools/${encodeURIComponent(name)}`,
    playground: (tool) => playgroundHref(server, tool),
    search: { action: base, hidden: {} },
  };
}
