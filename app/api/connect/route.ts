import { parseConnectRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { connect } from "@/lib/server/api/proxy-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Connect to an MCP server: era negotiation, identity, capabilities, and a connection descriptor. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseConnectRequest, connect, (i) => i.url);
});
