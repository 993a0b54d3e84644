import { exportResponse } from "../export-response";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The snapshot as a download: see ../export-response.ts. */
export function GET(_req: Request, { params }: { params: Promise<{ id: string }> }) {
  return exportResponse(params, "json");
}
