import { parseAppRpcRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { appRpc } from "@/lib/server/api/apps-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A message an MCP App sends to its own server through the host: the app rule first, then the same path as /api/rpc. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseAppRpcRequest, appRpc, (i) => i.connection.url);
});
