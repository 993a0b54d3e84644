import type { UserHeaders } from "@/lib/mcp/contract";
import { ContractError, parseServerUrl, parseUserHeaders, type HeaderLimits } from "@/lib/mcp/contract-guards";
import { handleApi } from "@/lib/server/api/api-route";
import { clientIdentity } from "@/lib/server/limits/client-identity";
import { freshDocsSnapshot } from "@/lib/server/docs/docs-snapshot";
import { requestOrigin } from "@/lib/server/platform/request-origin";
import { snapshotDefinitions, snapshotStore } from "@/lib/server/snapshots/snapshot-store";
import { guardedRoute } from "@/lib/server/api/guarded-route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function parseShareRequest(body: unknown, limits: HeaderLimits): { server: string; headers: UserHeaders } {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ContractError('Send a JSON object: { "server": "<url or builtin:demo>" }.');
  const server = (body as { server?: unknown }).server;
  if (typeof server !== "string") throw new ContractError('"server" is required: the MCP server URL or builtin:demo.');
  // A protected server's definitions are fetched with the signed-in user's headers, once; they are never stored.
  return { server: parseServerUrl(server), headers: parseUserHeaders((body as { headers?: unknown }).headers, limits) };
}

/**
 * Share: store the server's public definitions and answer `{ id, url, fetchedAt }`. The server loads the docs
 * itself (as the live docs page does, without credentials); the browser never sends definitions. The list is
 * fetched now, past every cache: a snapshot is a permanent record, so it must not be a list fetched minutes ago
 * (`fetchedAt` says when it was fetched).
 */
export const POST = guardedRoute(function POST(req: Request) {
  return handleApi(
    req,
    parseShareRequest,
    async ({ server, headers }, ctx) => {
      // The origin as the browser sees it (as on the live docs page), so builtin servers get the same display URL.
      const origin = await requestOrigin();
      const snap = await freshDocsSnapshot(server, origin, headers);
      // The sharer (address or IPv6 /64, as the rate limits see it) for its share of the store; stored only as a keyed hash.
      const id = await snapshotStore().put(snapshotDefinitions(server, snap), clientIdentity(req.headers, ctx.config.trustProxy));
      return { id, url: `${origin}/s/${id}`, fetchedAt: snap.list.fetchedAt };
    },
    (i) => i.server,
  );
});
