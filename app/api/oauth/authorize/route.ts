import { parseOAuthAuthorizeRequest } from "@/lib/mcp/oauth-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { authorize } from "@/lib/server/oauth/oauth-flow";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One step of the OAuth flow for a protected MCP server; the browser keeps the state between steps. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseOAuthAuthorizeRequest, authorize, (i) => i.url);
});
