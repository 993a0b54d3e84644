import { parseRpcRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { rpc } from "@/lib/server/api/proxy-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Send one JSON-RPC message as written; answer with the response and the HTTP exchange (streamed on request). */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseRpcRequest, rpc, (i) => i.connection.url, { streamable: true });
});
