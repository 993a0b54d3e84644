import { parseRpcAnswerRequest } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { answerServerRequest } from "@/lib/server/api/rpc-control";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The browser's answer to a server request announced on its /api/rpc stream; it goes upstream as the JSON-RPC response. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(
    req,
    parseRpcAnswerRequest,
    (input, ctx) => answerServerRequest(input, ctx.config),
    () => "",
  );
});
