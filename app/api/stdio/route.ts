import type { StdioServersResponse } from "@/lib/mcp/contract";
import { config } from "@/lib/server/platform/config";
import { listStdioServers } from "@/lib/upstream";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The stdio servers of the local config file (TOOLSCOPE_STDIO_CONFIG): name, command basename and argument count,
 * never env values or full command lines. `enabled` is false in hosted mode.
 */
export const GET = guardedRoute(async function GET() {
  let body: StdioServersResponse;
  try {
    body = await listStdioServers(config());
  } catch (err) {
    body = { enabled: false, servers: [], problem: `Toolscope is misconfigured: ${(err as Error).message}` };
  }
  return Response.json(body, { headers: { "cache-control": "no-store" } });
});
