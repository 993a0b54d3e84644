/*
 * The OAuth part of Toolscope's API (MCP authorization, 2025-03-26 … 2026-07-28). Toolscope's server runs each step
 * of the flow for the browser (it can reach authorization servers that browsers cannot call cross-origin), but keeps
 * nothing between requests: the browser holds the flow's state (client registration, PKCE verifier, tokens) and sends
 * it with each step. Tokens and client secrets pass through the server's memory only; they are never stored or
 * logged, and every recorded exchange masks them.
 */
import type { HttpExchange } from "./http-exchange.ts";

/** What an MCP server said when it refused a request for want of (enough) authorization. */
export interface OAuthChallenge {
  /** The upstream status: 401 (no or bad token) or 403 (`insufficient_scope`). */
  status: 401 | 403;
  /** The challenge's scheme, e.g. `Bearer` or `DPoP`; absent when the server sent no `WWW-Authenticate`. */
  scheme?: string;
  /** RFC 9728 `resource_metadata`: where the Protected Resource Metadata is. */
  resourceMetadataUrl?: string;
  /** The scope the server asks for (the spec's first choice for the authorization request). */
  scope?: string;
  /** RFC 6750 `error`, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
  errorDescription?: string;
}

/** How a client authenticates at the token endpoint. */
export type OAuthClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

/** A client the user registered with the authorization server beforehand. */
export interface OAuthPreregisteredClient {
  clientId: string;
  /** For a confidential client (local use): sent to the token endpoint only, never stored by the server. */
  clientSecret?: string;
  /** Defaults to what the authorization server supports (basic, then post, then none). */
  authMethod?: OAuthClientAuthMethod;
}

/**
 * The flow's state, kept by the browser (session storage by default) and sent with every step. The objects are the
 * SDK's shapes (`@modelcontextprotocol/client` `StoredOAuthClientInformation`, `StoredOAuthTokens`,
 * `OAuthDiscoveryState`); the browser treats them as opaque apart from the fields named here.
 */
export interface OAuthFlowState {
  /** The registered client (DCR, CIMD or pre-registered), stamped with the issuer it belongs to (SEP-2352). */
  client?: { client_id: string; client_secret?: string; issuer?: string; [k: string]: unknown };
  /** The current tokens, stamped with their issuer. */
  tokens?: {
    access_token: string;
    token_type?: string;
    refresh_token?: string;
    expires_in?: number;
    scope?: string;
    issuer?: string;
    [k: string]: unknown;
  };
  /** When `tokens` arrived (ms since the epoch): with `expires_in` it tells when to refresh. */
  obtainedAt?: number;
  /** PKCE verifier of the authorization request under way (S256). */
  codeVerifier?: string;
  /** The `state` parameter of the authorization request under way: the callback must return it. */
  oauthState?: string;
  /** Discovery results of the flow under way (survives the redirect so the code is redeemed where it was issued). */
  discovery?: Record<string, unknown>;
  /** The scope asked for last (a step-up asks for this plus the challenge's). */
  requestedScope?: string;
}

/** POST /api/oauth/authorize: run the flow as far as it goes without the user. */
export interface OAuthAuthorizeRequest {
  /** The MCP server (the protected resource). */
  url: string;
  state?: OAuthFlowState;
  preregistered?: OAuthPreregisteredClient;
  /** Scope to ask for; else the spec's choice: the challenge's, else the resource's `scopes_supported`, else none. */
  scope?: string;
  /** From the challenge's `resource_metadata`. */
  resourceMetadataUrl?: string;
  /** Set after the redirect: what the authorization server sent to our callback. */
  callback?: { code: string; state?: string; iss?: string };
  /** A step-up whose scope a refresh cannot widen: ask the user again. */
  forceReauthorization?: boolean;
  /** Forget these parts of `state` first (e.g. `discovery` after a repeated 401: the server may have moved). */
  invalidate?: ("all" | "client" | "tokens" | "discovery")[];
}

/** One step of the flow as the debugger shows it. */
export interface OAuthStep {
  kind:
    | "challenge"
    | "resource-metadata"
    | "authorization-server-metadata"
    | "client-metadata-document"
    | "registration"
    | "authorization-request"
    | "callback"
    | "token"
    | "refresh"
    | "revocation"
    | "other";
  /** One line: what was asked and what came back. */
  title: string;
  /** The HTTP exchange, tokens, codes and secrets masked. */
  exchange?: HttpExchange;
  /** What Toolscope checked at this step, in words. */
  checks: string[];
  ok: boolean;
}

/** Each step's name as people read it: the heading of its entry in the debugger, the start of its title. */
export const OAUTH_STEP_TITLES: Record<OAuthStep["kind"], string> = {
  challenge: "Challenge",
  "resource-metadata": "Protected resource metadata",
  "authorization-server-metadata": "Authorization server metadata",
  "client-metadata-document": "Client ID Metadata Document",
  registration: "Client registration",
  "authorization-request": "Authorization request",
  callback: "Callback",
  token: "Token request",
  refresh: "Token refresh",
  revocation: "Token revocation",
  other: "Request to the authorization server",
};

export interface OAuthAuthorizeResponse {
  /** `authorized`: `state.tokens` is ready to use; `redirect`: send the user to `authorizationUrl`. */
  outcome: "authorized" | "redirect";
  authorizationUrl?: string;
  /** Where the authorization server sends the user back: this Toolscope's `/oauth/callback`. */
  redirectUri: string;
  state: OAuthFlowState;
  steps: OAuthStep[];
  /** The client identity used: a Client ID Metadata Document URL, a registration, or the user's client. */
  clientIdentity?: "client-metadata-document" | "dynamic-registration" | "preregistered" | "stored";
}

/** POST /api/oauth/revoke: revoke the tokens of `state` (RFC 7009) where the authorization server supports it. */
export interface OAuthRevokeRequest {
  url: string;
  state: OAuthFlowState;
  /** The user's own client, when the tokens were issued to it (its secret authenticates the revocation). */
  preregistered?: OAuthPreregisteredClient;
}

export interface OAuthRevokeResponse {
  /** False when the authorization server has no revocation endpoint (the tokens are simply forgotten). */
  revoked: boolean;
  steps: OAuthStep[];
}

/** What an `oauth-flow` error carries besides its message: the steps up to the one that failed. */
export interface OAuthFailureDetail {
  failedStep: OAuthStep["kind"];
  steps: OAuthStep[];
}
