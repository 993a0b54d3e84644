import { admitted } from "@/lib/server/limits/admission";
import { config } from "@/lib/server/platform/config";
import { createSafeFetch } from "@/lib/upstream/policy";
import { createIconProxy, iconResponse, type IconProxy } from "@/lib/server/icons/icon-proxy";
import { processSingleton } from "@/lib/runtime/process-singleton";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One proxy (and so one icon cache) per server process, built from the configuration on first use. */
function iconProxy(): IconProxy {
  return processSingleton("icon-proxy", () => {
    const c = config();
    return createIconProxy({
      fetch: createSafeFetch({
        allowPrivate: c.allowPrivateNetwork,
        allow: c.egressAllow,
        connectTimeoutMs: c.requestTimeoutMs,
        maxConnectionsPerOrigin: c.maxConnectionsPerOrigin,
      }),
      allowHttp: c.mode === "local",
      maxBytes: c.iconMaxBytes,
      timeoutMs: c.requestTimeoutMs,
      cacheMs: c.iconCacheMs,
    });
  });
}

/** `?src=<https URL>`: a tool or server icon, fetched by Toolscope through the egress guard and served from our origin. */
export const GET = guardedRoute(async function GET(req: Request): Promise<Response> {
  return admitted(config(), "icons", async () => iconResponse(await iconProxy().get(new URL(req.url).searchParams.get("src"))));
});
