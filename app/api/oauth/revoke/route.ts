import { parseOAuthRevokeRequest } from "@/lib/mcp/oauth-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { revoke } from "@/lib/server/oauth/oauth-revoke";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Sign out of a protected MCP server: revoke the browser's tokens where the authorization server supports it. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseOAuthRevokeRequest, revoke, (i) => i.url);
});
