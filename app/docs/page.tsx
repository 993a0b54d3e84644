import type { Metadata } from "next";
import Link from "next/link";
import { LiveUpdates } from "@/components/docs/LiveUpdates";
import { ServerDocs } from "@/components/docs/ServerDocs";
import { ShareButton } from "@/components/docs/sharing/ShareButton";
import { StaleDocsBanner } from "@/components/docs/StaleDocsBanner";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { liveLinks, playgroundHref } from "@/lib/docs/links";
import { parseToolQuery } from "@/lib/docs/tool-filter";
import { shownEndpoint } from "@/lib/docs/display-url";
import { loadDocs } from "@/lib/server/docs/docs-load";
import { requestOrigin } from "@/lib/server/platform/request-origin";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Server docs" };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Live docs of one MCP server (`?server=<url>`), fetched through the proxy without credentials. */
export default async function ServerDocsPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const load = await loadDocs(sp.server ?? sp.url);
  if (!load.ok) {
    return (
      <div className="mx-auto max-w-3xl space-y-3 px-4 py-8">
        <h1 className="text-2xl font-semibold">Could not load the docs of {load.url}</h1>
        <ProxyErrorBanner error={load.error} />
        <p className="text-sm">
          Docs pages are public and fetched without credentials. For a server that needs them,{" "}
          <Link className="underline" href={playgroundHref(load.url)}>
            open it in the playground
          </Link>
          .
        </p>
      </div>
    );
  }
  const { stale } = load.snap;
  const server = { ...load.snap.server, displayUrl: shownEndpoint(load.url, load.snap.server.displayUrl, await requestOrigin()) };
  return (
    <ServerDocs
      banner={stale && <StaleDocsBanner fetchedAt={stale.fetchedAt} reason={stale.error.message} />}
      server={server}
      list={load.snap.list}
      links={liveLinks(load.url)}
      query={parseToolQuery(sp.q, sp.behaviour)}
      actions={
        <div className="flex flex-col items-end gap-2">
          <ShareButton server={load.url} />
          <LiveUpdates server={load.url} era={load.snap.server.era} />
        </div>
      }
    />
  );
}
