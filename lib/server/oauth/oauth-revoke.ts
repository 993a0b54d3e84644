import "server-only";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/client";
import type { OAuthRevokeRequest, OAuthRevokeResponse } from "@/lib/mcp/oauth-contract";
import type { OAuthRunContext } from "./oauth-flow.ts";
import { guardedFetch } from "@/lib/upstream/policy";
import { createOAuthRecorder } from "./oauth-recorder.ts";
import { describeSteps, failureText, oauthFailure } from "./oauth-steps.ts";

/** The client's credentials on a revocation request (RFC 7009 §2.1: the client authenticates as at the token endpoint). */
function clientAuth(
  req: OAuthRevokeRequest,
  methods: readonly string[] | undefined,
): { headers: Record<string, string>; params: Record<string, string> } {
  const clientId = req.preregistered?.clientId ?? req.state.client?.client_id;
  const secret = req.preregistered?.clientSecret ?? req.state.client?.client_secret;
  if (!clientId) return { headers: {}, params: {} };
  if (!secret) return { headers: {}, params: { client_id: clientId } };
  const usePost =
    req.preregistered?.authMethod === "client_secret_post" ||
    (methods && !methods.includes("client_secret_basic") && methods.includes("client_secret_post"));
  if (usePost) return { headers: {}, params: { client_id: clientId, client_secret: secret } };
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64");
  return { headers: { authorization: `Basic ${basic}` }, params: {} };
}

/**
 * Sign out (POST /api/oauth/revoke): revoke the refresh token, then the access token, at the authorization
 * server's revocation endpoint when it has one. Without one the browser simply forgets them; the answer says so.
 */
export async function revoke(req: OAuthRevokeRequest, ctx: OAuthRunContext): Promise<OAuthRevokeResponse> {
  const recorder = createOAuthRecorder(guardedFetch(ctx.config), ctx.config.requestTimeoutMs, ctx.signal);
  const steps = () => describeSteps(recorder.exchanges, [], { url: req.url });
  try {
    const info = await discoverOAuthServerInfo(req.url, { fetchFn: recorder.fetch });
    const metadata = info.authorizationServerMetadata as unknown as
      (Record<string, unknown> & { revocation_endpoint?: string; revocation_endpoint_auth_methods_supported?: string[] }) | undefined;
    const endpoint = metadata?.revocation_endpoint;
    if (!endpoint) return { revoked: false, steps: steps() };
    const auth = clientAuth(req, metadata?.revocation_endpoint_auth_methods_supported as string[] | undefined);
    const tokens = req.state.tokens;
    const toRevoke: [string, string][] = [];
    if (tokens?.refresh_token) toRevoke.push([tokens.refresh_token, "refresh_token"]);
    if (tokens?.access_token) toRevoke.push([tokens.access_token, "access_token"]);
    let revoked = toRevoke.length > 0;
    for (const [token, hint] of toRevoke) {
      const res = await recorder.fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json", ...auth.headers },
        body: new URLSearchParams({ token, token_type_hint: hint, ...auth.params }).toString(),
      });
      // RFC 7009: 200 whether or not the token was valid; anything else means it may still be live.
      if (res.status !== 200) revoked = false;
    }
    return { revoked, steps: steps() };
  } catch (err) {
    throw oauthFailure(
      "revocation",
      failureText(err, recorder.exchanges, ctx.config.requestTimeoutMs),
      "The tokens are forgotten in this browser; they expire on their own.",
      steps(),
      err,
    );
  }
}
