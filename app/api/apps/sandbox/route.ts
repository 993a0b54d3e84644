import { RELAY_HTML, relayPolicy } from "@/lib/docs/apps/sandbox-relay";
import { config } from "@/lib/server/platform/config";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The relay page MCP App views run under. Its only policy is frame-ancestors (Toolscope's own pages): the view's
 * document brings the policy built from its declared domains, and a page policy here would be inherited by it.
 */
export const GET = guardedRoute(function GET() {
  return new Response(RELAY_HTML, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      // On a sandbox origin of its own, 'self' is that origin: Toolscope's must be named to frame it.
      "content-security-policy": relayPolicy(config().sandboxOrigin && config().publicUrl ? [config().publicUrl!] : []),
      "cache-control": "no-cache",
      "referrer-policy": "no-referrer",
    },
  });
});
