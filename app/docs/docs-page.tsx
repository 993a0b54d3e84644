import type { ReactElement } from "react";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { loadDocs, type DocsLoad } from "@/lib/server/docs/docs-load";

/** A docs page's query (`?server=<url>`), as Next.js hands it to the page. */
export type DocsSearch = Promise<Record<string, string | string[] | undefined>>;

/** A docs page's load: the server's docs, or the page to show instead when they could not be loaded. */
export type DocsPageLoad = Extract<DocsLoad, { ok: true }> | { ok: false; page: ReactElement };

/**
 * Load the docs of the server a docs page's query names, and on failure the page to render instead: the error banner
 * in a narrow column. One tool's page and a skill's page both open this way, so a failed load looks the same on both
 * (the server docs page at /docs says more on failure, and renders its own). The server is read as
 * `server`, else `url`: lib/server/docs/docs-load.ts reads the query the same way for the request guard's preload.
 */
export async function loadDocsPage(sp: Awaited<DocsSearch>): Promise<DocsPageLoad> {
  const load = await loadDocs(sp.server ?? sp.url);
  if (load.ok) return load;
  return {
    ok: false,
    page: (
      <div className="mx-auto max-w-3xl px-4 py-8">
        <ProxyErrorBanner error={load.error} />
      </div>
    ),
  };
}
