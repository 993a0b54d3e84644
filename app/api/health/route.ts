import { health } from "@/lib/server/platform/health";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Liveness (`GET /api/health`) and readiness (`GET /api/health?ready=1`) for load balancers and supervisors. */
export async function GET(req: Request) {
  const { status, body } = await health(new URL(req.url).searchParams.has("ready"));
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}
