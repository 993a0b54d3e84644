import { parseToolsRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { tools } from "@/lib/server/api/proxy-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every tool of a connected server, all pages followed within the configured caps. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseToolsRequest, tools, (i) => i.connection.url);
});
