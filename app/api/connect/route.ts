import { parseConnectRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api-route";
import { connect } from "@/lib/server/proxy-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Connect to an MCP server: era negotiation, identity, capabilities, and a connection descriptor. */
export function POST(req: Request) {
  return handleApi(req, parseConnectRequest, connect, (i) => i.url);
}
