import { handleApi } from "@/lib/server/api/api-route";
import { parseDisconnectRequest } from "@/lib/upstream";
import { disconnect } from "@/lib/server/api/proxy-service";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** End a connection: DELETE the legacy session upstream; a no-op for stateless modern connections. */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(req, parseDisconnectRequest, disconnect, (i) => i.connection.url);
});
