import type { Metadata } from "next";
import { DiffView, type DiffSide } from "@/components/docs/sharing/DiffView";
import { ProxyErrorBanner } from "@/components/ui/ProxyErrorBanner";
import { diffToolLists } from "@/lib/docs/diff";
import { serverDisplayName } from "@/lib/docs/export-markdown";
import { liveLinks, snapshotLinks } from "@/lib/docs/links";
import type { ProxyErrorBody, ServerSummary, Tool } from "@/lib/mcp/contract";
import { loadLiveDocs } from "@/lib/server/docs/docs-load";
import { loadSnapshot } from "@/lib/server/snapshots/snapshot-store";
import { MySnapshots } from "@/components/docs/sharing/MySnapshots";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare tool definitions", robots: { index: false } };

type Search = Promise<Record<string, string | string[] | undefined>>;
type Loaded = { side: DiffSide; tools: Tool[]; source: string } | { error: ProxyErrorBody["error"] };

const field = "w-64 rounded-md border border-zinc-300 bg-white px-2 py-1 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900";

function named(server: ServerSummary): string {
  const v = server.serverInfo?.version;
  return `${serverDisplayName(server)}${v ? ` v${v}` : ""}`;
}

async function snapshotSide(id: string): Promise<Loaded> {
  const snap = await loadSnapshot(id);
  if (!snap)
    return {
      error: {
        kind: "bad-request",
        message: `There is no snapshot with the id ${JSON.stringify(id.slice(0, 60))}.`,
        hint: "Snapshot ids are the part after /s/ in a share link.",
      },
    };
  const side = {
    label: `Snapshot ${snap.id}`,
    server: named(snap.server),
    when: `taken ${new Date(snap.takenAt).toUTCString()}`,
    links: snapshotLinks(snap.id, snap.source),
  };
  return { side, tools: snap.list.tools, source: snap.source };
}

async function liveSide(source: string): Promise<Loaded> {
  // The list as the server has it now, past every cache; the side says when it was fetched.
  const load = await loadLiveDocs(source);
  if (!load.ok) return { error: load.error };
  return {
    side: {
      label: "Live server",
      server: named(load.snap.server),
      when: `fetched ${new Date(load.snap.list.fetchedAt).toUTCString()}`,
      links: liveLinks(load.url),
    },
    tools: load.snap.list.tools,
    source: load.url,
  };
}

/** `/diff?a=<snapshot id>&b=<snapshot id | live>`: what changed between two sets of tool definitions. */
export default async function DiffPage({ searchParams }: { searchParams: Search }) {
  const sp = await searchParams;
  const a = typeof sp.a === "string" ? sp.a.trim() : "";
  const b = typeof sp.b === "string" && sp.b.trim() ? sp.b.trim() : "live";
  const before = a ? await snapshotSide(a) : undefined;
  const after = before && "side" in before ? await (b === "live" ? liveSide(before.source) : snapshotSide(b)) : undefined;
  return (
    <div className="mx-auto max-w-5xl space-y-6 px-4 py-6">
      <header className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 className="text-2xl font-semibold tracking-tight">Compare tool definitions</h1>
          <p className="text-sm text-zinc-500">
            Breaking changes first: what clients calling these tools, or reading their results, must adapt to.
          </p>
        </div>
        <form action="/diff" className="flex flex-wrap items-end gap-2 text-sm">
          <label className="flex flex-col gap-0.5">
            Before (snapshot id)
            <input name="a" defaultValue={a} required className={field} list="my-snapshots" />
          </label>
          <label className="flex flex-col gap-0.5">
            After (snapshot id or “live”)
            <input name="b" defaultValue={b} className={field} list="my-snapshots" />
          </label>
          <button className="rounded-md border border-zinc-300 px-3 py-1 dark:border-zinc-700">Compare</button>
        </form>
      </header>
      {!before && (
        <p className="text-sm">
          Share a server from its docs page to get a snapshot id, then compare it with another snapshot or with the live server.
        </p>
      )}
      {before && "error" in before && <ProxyErrorBanner error={before.error} />}
      {after && "error" in after && <ProxyErrorBanner error={after.error} />}
      {before && "side" in before && after && "side" in after && (
        <DiffView diff={diffToolLists(before.tools, after.tools)} before={before.side} after={after.side} />
      )}
      <MySnapshots current={a || undefined} />
    </div>
  );
}
