import "server-only";
import type { OAuthClientMetadata } from "@modelcontextprotocol/client";
import type { Config } from "../platform/config.ts";

/** Where Toolscope serves its Client ID Metadata Document, under its public origin. */
export const CLIENT_METADATA_PATH = "/oauth/client-metadata.json";
/** Where authorization servers send the user back. */
export const OAUTH_CALLBACK_PATH = "/oauth/callback";

export function redirectUriFor(origin: string): string {
  return new URL(OAUTH_CALLBACK_PATH, origin).toString();
}

/**
 * The URL that is Toolscope's client_id at authorization servers that support Client ID Metadata Documents: the
 * configured one (TOOLSCOPE_OAUTH_CLIENT_METADATA_URL), else the document we serve ourselves when our public origin
 * is https (the spec requires an https client_id; a plain-http local instance registers instead).
 */
export function clientMetadataUrlFor(origin: string, cfg: Pick<Config, "oauthClientMetadataUrl">): string | undefined {
  if (cfg.oauthClientMetadataUrl) return cfg.oauthClientMetadataUrl;
  return origin.startsWith("https://") ? new URL(CLIENT_METADATA_PATH, origin).toString() : undefined;
}

/**
 * Toolscope as an OAuth client: a public client (no secret: it runs for anyone, and the browser keeps the tokens)
 * using authorization code + PKCE, asking for refresh tokens. The same document is registered by DCR and served
 * as the CIMD, so an authorization server sees one identity whichever way it learns it.
 */
export function toolscopeClientMetadata(origin: string, clientId?: string): OAuthClientMetadata & { client_id?: string } {
  return {
    ...(clientId ? { client_id: clientId } : {}),
    client_name: "Toolscope",
    client_uri: origin,
    redirect_uris: [redirectUriFor(origin)],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    application_type: "web",
  } as OAuthClientMetadata & { client_id?: string };
}
