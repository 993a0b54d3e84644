import { exportHtml } from "@/lib/docs/export-html";
import { exportMarkdown } from "@/lib/docs/export-markdown";
import { requestOrigin } from "@/lib/server/platform/request-origin";
import { loadSnapshot } from "@/lib/server/snapshots/snapshot-store";
import { exportFileName } from "../snapshot-page";

export type ExportFormat = "md" | "json" | "html";

const TYPES: Record<ExportFormat, string> = {
  md: "text/markdown; charset=utf-8",
  json: "application/json; charset=utf-8",
  html: "text/html; charset=utf-8",
};

/** A snapshot as a download (Markdown, JSON or static HTML); 404 when there is no such snapshot. */
export async function exportResponse(params: Promise<{ id: string }>, format: ExportFormat): Promise<Response> {
  const snap = await loadSnapshot((await params).id);
  if (!snap) return new Response("No snapshot with this id.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  const input = { server: snap.server, list: snap.list, permalink: `${await requestOrigin()}/s/${snap.id}`, takenAt: snap.takenAt };
  const body =
    format === "md"
      ? exportMarkdown(input)
      : format === "html"
        ? exportHtml(input)
        : `${JSON.stringify({ id: snap.id, source: snap.source, takenAt: snap.takenAt, server: snap.server, list: snap.list }, null, 2)}\n`;
  return new Response(body, {
    headers: {
      "content-type": TYPES[format],
      "content-disposition": `attachment; filename="${exportFileName(snap, format)}"`,
      // Content-addressed: the same id always has the same content.
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      ...(format === "html"
        ? { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'" }
        : {}),
    },
  });
}
