import type { Metadata } from "next";
import Link from "next/link";
import { ServerOverview } from "@/components/docs/ServerOverview";
import { ToolIndex } from "@/components/docs/ToolIndex";
import { ExcludedTools } from "@/components/docs/ExcludedTools";
import { ProxyErrorBanner } from "@/components/playground/ProxyErrorBanner";
import { BEHAVIOURS, filterTools, parseToolQuery } from "@/lib/docs/tool-filter";
import { loadDocs } from "@/lib/server/docs-load";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Server docs" };

type Search = Promise<Record<string, string | string[] | undefined>>;

/** Docs of one MCP server: identity, capabilities, cache metadata, and a searchable tool index. */
export default async function ServerDocsPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const load = await loadDocs(sp.server);
  if (!load.ok) {
    return (
      <div className="mx-auto max-w-3xl space-y-3 px-4 py-8">
        <h1 className="text-2xl font-semibold">Could not load the docs of {load.url}</h1>
        <ProxyErrorBanner error={load.error} />
        <p className="text-sm">
          Docs pages are public and fetched without credentials. For a server that needs them, <Link className="underline" href={`/playground?server=${encodeURIComponent(load.url)}`}>open it in the playground</Link>.
        </p>
      </div>
    );
  }
  const { snap, url } = load;
  const query = parseToolQuery(sp.q, sp.behaviour);
  const shown = filterTools(snap.list.tools, query);
  return (
    <div className="mx-auto max-w-5xl px-4 py-6">
      <ServerOverview server={snap.server} list={snap.list} />
      <section className="mt-8" aria-labelledby="tools-heading">
        <div className="flex flex-wrap items-end gap-3">
          <h2 id="tools-heading" className="text-xl font-semibold">
            Tools <span className="text-base font-normal text-zinc-500">({shown.length === snap.list.tools.length ? shown.length : `${shown.length} of ${snap.list.tools.length}`})</span>
          </h2>
          <form className="ml-auto flex flex-wrap gap-2" role="search" action="/docs">
            <input type="hidden" name="server" value={url} />
            <label className="sr-only" htmlFor="tool-search">Search tools</label>
            <input id="tool-search" name="q" defaultValue={query.q} placeholder="Search name, title, description" className="w-56 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900" />
            <label className="sr-only" htmlFor="tool-behaviour">Behaviour</label>
            <select id="tool-behaviour" name="behaviour" defaultValue={query.behaviour ?? ""} className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900">
              <option value="">any behaviour</option>
              {BEHAVIOURS.map((b) => (
                <option key={b} value={b}>{b}</option>
              ))}
            </select>
            <button className="rounded-md border border-zinc-300 px-3 py-1 text-sm dark:border-zinc-700">Filter</button>
          </form>
        </div>
        {shown.length === 0 ? <p className="mt-4 text-sm text-zinc-500">No tool matches.</p> : <ToolIndex tools={shown} server={url} />}
      </section>
      {snap.list.excluded.length > 0 && <ExcludedTools excluded={snap.list.excluded} />}
    </div>
  );
}
