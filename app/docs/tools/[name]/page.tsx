import type { Metadata } from "next";
import { LiveUpdates } from "@/components/docs/LiveUpdates";
import { StaleDocsBanner } from "@/components/docs/StaleDocsBanner";
import { DocsShell } from "@/components/docs/DocsShell";
import { ToolDoc } from "@/components/docs/tool/ToolDoc";
import { ToolSidebar } from "@/components/docs/ToolSidebar";
import { sidebarProps } from "@/components/docs/sidebar-props";
import { liveLinks } from "@/lib/docs/links";
import { shownEndpoint } from "@/lib/docs/display-url";
import { requestOrigin } from "@/lib/server/platform/request-origin";
import { config } from "@/lib/server/platform/config";
import { isTrustedServer } from "@/lib/server/platform/trust";
import { loadDocsPage, type DocsSearch } from "../../docs-page";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: decodeURIComponent((await params).name) };
}

/** Docs of one tool of one server. */
export default async function ToolDocsPage({ params, searchParams }: { params: Params; searchParams: DocsSearch }) {
  const name = decodeURIComponent((await params).name);
  const sp = await searchParams;
  const load = await loadDocsPage(sp);
  if (!load.ok) return load.page;
  const { snap, url } = load;
  const excluded = snap.list.excluded.find((e) => e.tool.name === name);
  const tool = snap.list.tools.find((t) => t.name === name) ?? excluded?.tool;
  const serverName = snap.server.serverInfo?.title ?? snap.server.serverInfo?.name ?? url;
  if (!tool) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-8">
        <div className="mb-2 flex justify-end">
          <LiveUpdates server={url} era={snap.server.era} />
        </div>
        <h1 className="text-2xl font-semibold">No tool named {JSON.stringify(name)}</h1>
        <p className="mt-2 text-sm">
          {serverName} lists {snap.list.tools.length} tools, and this is not one of them.
        </p>
      </div>
    );
  }
  const links = liveLinks(url);
  return (
    <DocsShell sidebar={<ToolSidebar {...sidebarProps(snap.list, links, tool.name)} />}>
      <div className="mb-2 flex justify-end">
        <LiveUpdates server={url} era={snap.server.era} />
      </div>
      {snap.stale && <StaleDocsBanner fetchedAt={snap.stale.fetchedAt} reason={snap.stale.error.message} />}
      {excluded && (
        <p
          role="note"
          className="mb-4 rounded-md border border-amber-300 p-3 text-sm text-amber-900 dark:border-amber-800 dark:text-amber-300"
        >
          Excluded from calling: {excluded.reason}
        </p>
      )}
      <ToolDoc
        tool={tool}
        links={links}
        {...(excluded ? { excludedReason: excluded.reason } : {})}
        serverName={serverName}
        trusted={isTrustedServer(url, config())}
        endpoint={
          url.startsWith("stdio:")
            ? undefined
            : {
                url: shownEndpoint(url, snap.server.displayUrl, await requestOrigin()),
                era: snap.server.era,
                protocolVersion: snap.server.protocolVersion,
                ...(snap.server.transport ? { transport: snap.server.transport } : {}),
              }
        }
      />
    </DocsShell>
  );
}
