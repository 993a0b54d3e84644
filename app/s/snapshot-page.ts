import type { Metadata } from "next";
import { cache } from "react";
import type { Tool } from "@/lib/mcp/contract";
import { displayName, firstLine } from "@/lib/docs/display-name";
import { serverDisplayName } from "@/lib/docs/export-markdown";
import { loadSnapshot, type Snapshot } from "@/lib/server/snapshots/snapshot-store";

/** One snapshot lookup per request, shared by generateMetadata and the page. */
export const getSnapshot = cache((id: string) => loadSnapshot(id));

function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Open Graph metadata so chat apps show a preview: the server (or tool) name, tool count and description. */
export function snapshotMetadata(snap: Snapshot, origin: string, tool?: Tool): Metadata {
  const server = serverDisplayName(snap.server);
  const count = `${snap.list.tools.length} tool${snap.list.tools.length === 1 ? "" : "s"}`;
  const title = tool ? `${displayName(tool)} — ${server}` : `${server} — MCP tools`;
  const about = tool ? firstLine(tool.description) : (snap.server.serverInfo?.description ?? firstLine(snap.server.instructions));
  const description = clip(tool ? about || `A tool of ${server}.` : [count, about].filter(Boolean).join(". "));
  return {
    title,
    description,
    robots: { index: false },
    // The trusted public origin (TOOLSCOPE_PUBLIC_URL), never the request's Host: previews show where the link goes.
    openGraph: {
      title,
      description,
      type: "website",
      siteName: "Toolscope",
      url: `${origin}/s/${snap.id}${tool ? `/tools/${encodeURIComponent(tool.name)}` : ""}`,
    },
    twitter: { card: "summary", title, description },
  };
}

/** A file name for exports: the server's name as a slug, then the id. */
export function exportFileName(snap: Snapshot, ext: string): string {
  const slug =
    serverDisplayName(snap.server)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60) || "mcp-server";
  return `${slug}-${snap.id}.${ext}`;
}
