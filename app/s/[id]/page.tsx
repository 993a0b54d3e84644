import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { config } from "@/lib/server/platform/config";
import { requestOrigin } from "@/lib/server/platform/request-origin";
import { ServerDocs } from "@/components/docs/ServerDocs";
import { SnapshotBanner } from "@/components/docs/sharing/SnapshotBanner";
import { snapshotLinks } from "@/lib/docs/links";
import { shownEndpoint } from "@/lib/docs/display-url";
import { parseToolQuery } from "@/lib/docs/tool-filter";
import { getSnapshot, snapshotMetadata } from "../snapshot-page";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const snap = await getSnapshot((await params).id);
  return snap ? snapshotMetadata(snap, await requestOrigin()) : { title: "Snapshot not found" };
}

/** An immutable snapshot of a server's docs: the same view as live docs, with a banner saying what and when. */
export default async function SnapshotPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const snap = await getSnapshot((await params).id);
  if (!snap) notFound();
  const sp = await searchParams;
  const displayUrl = shownEndpoint(snap.source, snap.server.displayUrl, await requestOrigin());
  return (
    <ServerDocs
      server={{ ...snap.server, displayUrl }}
      list={snap.list}
      links={snapshotLinks(snap.id, snap.source)}
      query={parseToolQuery(sp.q, sp.behaviour)}
      banner={
        <SnapshotBanner
          id={snap.id}
          source={snap.source}
          displayUrl={displayUrl}
          takenAt={snap.takenAt}
          retentionDays={config().limits.snapshotRetentionDays}
          maxAgeDays={config().limits.snapshotMaxAgeDays}
        />
      }
    />
  );
}
