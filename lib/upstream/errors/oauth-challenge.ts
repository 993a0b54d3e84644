import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import type { OAuthChallenge } from "@/lib/mcp/oauth-contract";

/** Longest parameter value kept from a challenge (a hostile server controls it; it is shown and stored in history). */
const MAX_CHALLENGE_VALUE_CHARS = 2_000;

function bounded(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.slice(0, MAX_CHALLENGE_VALUE_CHARS);
}

/**
 * The MCP server's authorization challenge, from a 401 (always: a 401 without `WWW-Authenticate` still means "sign
 * in", and discovery then starts from the well-known locations) or a 403 that says `insufficient_scope` (step-up).
 * Any other 403 is a plain refusal: undefined. The SDK parses the parameters (Bearer and DPoP schemes alike).
 */
export function challengeFrom(status: number, headers: readonly [string, string][]): OAuthChallenge | undefined {
  if (status !== 401 && status !== 403) return undefined;
  const header = headers.find(([n]) => n.toLowerCase() === "www-authenticate")?.[1];
  const params = header ? extractWWWAuthenticateParams(new Response(null, { headers: { "www-authenticate": header } })) : {};
  if (status === 403 && params.error !== "insufficient_scope") return undefined;
  const scheme = header ? /^\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)/.exec(header)?.[1] : undefined;
  return {
    status,
    ...(scheme ? { scheme } : {}),
    ...(params.resourceMetadataUrl ? { resourceMetadataUrl: bounded(params.resourceMetadataUrl.href) } : {}),
    ...(params.scope ? { scope: bounded(params.scope) } : {}),
    ...(params.error ? { error: bounded(params.error) } : {}),
    ...(params.errorDescription ? { errorDescription: bounded(params.errorDescription) } : {}),
  };
}
