import { demoHandler } from "@/lib/server/platform/demo-handler";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The built-in demo MCP server over Streamable HTTP, for any MCP client (modern and legacy eras). */
async function serve(req: Request): Promise<Response> {
  return (await demoHandler()).fetch(req);
}

export const GET = guardedRoute(serve);
export const POST = guardedRoute(serve);
export const DELETE = guardedRoute(serve);
