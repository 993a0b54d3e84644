import { parseRpcCancelRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { cancelCall } from "@/lib/server/api/rpc-control";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Stop the call of an /api/rpc stream; the stream then ends with the error and every exchange recorded so far. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(
    req,
    parseRpcCancelRequest,
    (input, ctx) => cancelCall(input, ctx.config),
    () => "",
  );
});
