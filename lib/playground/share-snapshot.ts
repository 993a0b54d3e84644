import type { UserHeaders } from "../mcp/contract.ts";
import { rememberMySnapshot } from "./stores/my-snapshots.ts";
import { api, ApiError } from "../client/api-client.ts";

/**
 * Share: store a snapshot of the server's definitions, remember it in this browser for the diff page, and give its
 * link as this browser reaches Toolscope (the API's `url` follows the Host header, which a proxy may rewrite). One
 * implementation for the docs pages' Share and the playground's signed-in snapshot. Fails with the API's message.
 */
export async function shareSnapshot(
  server: string,
  headers?: UserHeaders,
): Promise<{ ok: true; id: string; url: string; fetchedAt?: string } | { ok: false; message: string }> {
  try {
    const body = await api.snapshot({ server, ...(headers ? { headers } : {}) });
    rememberMySnapshot(globalThis.localStorage, { id: body.id, server, at: new Date().toISOString() });
    return { ok: true, id: body.id, url: new URL(`/s/${body.id}`, window.location.origin).href, fetchedAt: body.fetchedAt };
  } catch (err) {
    return { ok: false, message: err instanceof ApiError ? err.message : `Sharing failed: ${(err as Error).message}` };
  }
}
