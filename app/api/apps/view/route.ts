import { parseAppViewRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { appViewFor } from "@/lib/server/api/apps-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An MCP App's view: its ui:// resource read, checked and wrapped in the policy built from its declared domains. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseAppViewRequest, appViewFor, (i) => i.connection.url);
});
