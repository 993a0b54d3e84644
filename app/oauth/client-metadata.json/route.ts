import { config } from "@/lib/server/platform/config";
import { publicOrigin } from "@/lib/server/platform/public-origin";
import { clientMetadataUrlFor, toolscopeClientMetadata } from "@/lib/server/oauth/oauth-client-metadata";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Toolscope's Client ID Metadata Document: an authorization server that supports them fetches it to learn who
 * Toolscope is (name, redirect URI) instead of asking it to register. Its client_id is its own URL.
 */
export function GET(req: Request) {
  const cfg = config();
  const origin = publicOrigin(req.headers, cfg);
  const clientId = clientMetadataUrlFor(origin, cfg) ?? new URL("/oauth/client-metadata.json", origin).toString();
  return Response.json(toolscopeClientMetadata(origin, clientId), {
    headers: { "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}
