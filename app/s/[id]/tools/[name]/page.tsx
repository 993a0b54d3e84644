import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { config } from "@/lib/server/platform/config";
import { requestOrigin } from "@/lib/server/platform/request-origin";
import { SnapshotBanner } from "@/components/docs/sharing/SnapshotBanner";
import { DocsShell } from "@/components/docs/DocsShell";
import { ToolDoc } from "@/components/docs/tool/ToolDoc";
import { ToolSidebar } from "@/components/docs/ToolSidebar";
import { sidebarProps } from "@/components/docs/sidebar-props";
import { serverDisplayName } from "@/lib/docs/export-markdown";
import { snapshotLinks } from "@/lib/docs/links";
import { shownEndpoint } from "@/lib/docs/display-url";
import type { Snapshot } from "@/lib/server/snapshots/snapshot-store";
import { getSnapshot, snapshotMetadata } from "../../../snapshot-page";
import { isTrustedServer } from "@/lib/server/platform/trust";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string; name: string }>;

function findTool(snap: Snapshot, name: string) {
  const excluded = snap.list.excluded.find((e) => e.tool.name === name);
  return { tool: snap.list.tools.find((t) => t.name === name) ?? excluded?.tool, excluded };
}

async function load(params: Params) {
  const { id, name } = await params;
  const snap = await getSnapshot(id);
  const toolName = decodeURIComponent(name);
  return { snap, toolName, ...(snap ? findTool(snap, toolName) : { tool: undefined, excluded: undefined }) };
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { snap, tool } = await load(params);
  return snap && tool ? snapshotMetadata(snap, await requestOrigin(), tool) : { title: "Not in this snapshot" };
}

/** One tool of an immutable snapshot: the live tool view, with the snapshot banner. */
export default async function SnapshotToolPage({ params }: { params: Params }) {
  const { snap, tool, excluded, toolName } = await load(params);
  if (!snap || !tool) notFound();
  const links = snapshotLinks(snap.id, snap.source);
  return (
    <DocsShell sidebar={<ToolSidebar {...sidebarProps(snap.list, links, tool.name)} />}>
      <SnapshotBanner
        id={snap.id}
        source={snap.source}
        displayUrl={shownEndpoint(snap.source, snap.server.displayUrl, await requestOrigin())}
        takenAt={snap.takenAt}
        retentionDays={config().limits.snapshotRetentionDays}
        maxAgeDays={config().limits.snapshotMaxAgeDays}
        tool={toolName}
      />
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
        serverName={serverDisplayName(snap.server)}
        trusted={isTrustedServer(snap.source, config())}
      />
    </DocsShell>
  );
}
