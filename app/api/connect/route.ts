import { parseConnectRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { connect } from "@/lib/server/api/proxy-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Connect to an MCP server: era negotiation, identity, capabilities, and a connection descriptor. */
export function POST(req: Request) {
  return handleApi(req, parseConnectRequest, connect, (i) => i.url);
}
