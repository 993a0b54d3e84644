import { ContractError, parseServerUrl, requireObject } from "./contract-guards.ts";
import type {
  OAuthAuthorizeRequest,
  OAuthClientAuthMethod,
  OAuthFlowState,
  OAuthPreregisteredClient,
  OAuthRevokeRequest,
} from "./oauth-contract.ts";
import { isObject } from "../json/guards.ts";

const AUTH_METHODS: readonly OAuthClientAuthMethod[] = ["none", "client_secret_basic", "client_secret_post"];
const INVALIDATIONS = ["all", "client", "tokens", "discovery"] as const;
/** Longest single string we accept in a flow step (a client id, a code, a scope): far above real ones, far below abuse. */
const MAX_FIELD_CHARS = 8_192;

function optionalString(value: unknown, name: string, example: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new ContractError(`"${name}" must be a string, e.g. ${example}.`);
  if (value.length > MAX_FIELD_CHARS) throw new ContractError(`"${name}" is ${value.length} characters; the limit is ${MAX_FIELD_CHARS}.`);
  return value;
}

/** Only http(s) MCP servers have an OAuth flow: builtin and stdio servers are reached without one. */
function parseProtectedUrl(value: unknown): string {
  const url = parseServerUrl(value);
  if (!/^https?:/.test(url)) throw new ContractError(`${url} is not an http(s) server: only those are signed in to with OAuth.`);
  return url;
}

function parseState(value: unknown): OAuthFlowState | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new ContractError('"state" must be the object the previous step returned (or left out to start).');
  const s = value as OAuthFlowState;
  if (s.client !== undefined && (!isObject(s.client) || typeof s.client.client_id !== "string"))
    throw new ContractError('"state.client" must hold a "client_id": send back the state the previous step returned.');
  if (s.tokens !== undefined && (!isObject(s.tokens) || typeof s.tokens.access_token !== "string"))
    throw new ContractError('"state.tokens" must hold an "access_token": send back the state the previous step returned.');
  if (s.discovery !== undefined && !isObject(s.discovery)) throw new ContractError('"state.discovery" must be an object.');
  optionalString(s.codeVerifier, "state.codeVerifier", '"…" (the verifier the previous step returned)');
  optionalString(s.oauthState, "state.oauthState", '"…"');
  optionalString(s.requestedScope, "state.requestedScope", '"mcp:read"');
  if (s.obtainedAt !== undefined && typeof s.obtainedAt !== "number") throw new ContractError('"state.obtainedAt" must be a number (ms).');
  return s;
}

function parsePreregistered(value: unknown): OAuthPreregisteredClient | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) throw new ContractError('"preregistered" must be like {"clientId": "…", "clientSecret": "…"}.');
  const clientId = optionalString(value.clientId, "preregistered.clientId", '"my-client"');
  if (!clientId) throw new ContractError('"preregistered.clientId" is required: the client id the authorization server gave you.');
  const clientSecret = optionalString(value.clientSecret, "preregistered.clientSecret", '"…"');
  const authMethod = value.authMethod;
  if (authMethod !== undefined && !AUTH_METHODS.includes(authMethod as OAuthClientAuthMethod))
    throw new ContractError(`"preregistered.authMethod" must be one of ${AUTH_METHODS.join(", ")}.`);
  return {
    clientId,
    ...(clientSecret ? { clientSecret } : {}),
    ...(authMethod ? { authMethod: authMethod as OAuthClientAuthMethod } : {}),
  };
}

/** POST /api/oauth/authorize */
export function parseOAuthAuthorizeRequest(body: unknown): OAuthAuthorizeRequest {
  const b = requireObject(body, 'like {"url": "https://example.com/mcp"}');
  let callback: OAuthAuthorizeRequest["callback"];
  if (b.callback !== undefined) {
    if (!isObject(b.callback)) throw new ContractError('"callback" must be like {"code": "…", "state": "…", "iss": "…"}.');
    const code = optionalString(b.callback.code, "callback.code", '"…" (from the redirect to /oauth/callback)');
    if (!code) throw new ContractError('"callback.code" is required: the authorization code from the redirect.');
    const state = optionalString(b.callback.state, "callback.state", '"…"');
    const iss = optionalString(b.callback.iss, "callback.iss", '"https://auth.example.com"');
    callback = { code, ...(state ? { state } : {}), ...(iss !== undefined ? { iss } : {}) };
  }
  const invalidate = b.invalidate;
  if (invalidate !== undefined && (!Array.isArray(invalidate) || invalidate.some((i) => !INVALIDATIONS.includes(i))))
    throw new ContractError(`"invalidate" must be a list of ${INVALIDATIONS.join(", ")}.`);
  if (b.forceReauthorization !== undefined && typeof b.forceReauthorization !== "boolean")
    throw new ContractError('"forceReauthorization" must be true or false.');
  const scope = optionalString(b.scope, "scope", '"mcp:read mcp:write"');
  const resourceMetadataUrl = optionalString(
    b.resourceMetadataUrl,
    "resourceMetadataUrl",
    '"https://example.com/.well-known/oauth-protected-resource"',
  );
  const state = parseState(b.state);
  const preregistered = parsePreregistered(b.preregistered);
  return {
    url: parseProtectedUrl(b.url),
    ...(state ? { state } : {}),
    ...(preregistered ? { preregistered } : {}),
    ...(scope ? { scope } : {}),
    ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
    ...(callback ? { callback } : {}),
    ...(b.forceReauthorization ? { forceReauthorization: true } : {}),
    ...(invalidate ? { invalidate: invalidate as OAuthAuthorizeRequest["invalidate"] } : {}),
  };
}

/** POST /api/oauth/revoke */
export function parseOAuthRevokeRequest(body: unknown): OAuthRevokeRequest {
  const b = requireObject(body, 'like {"url": "https://example.com/mcp", "state": {…}}');
  const state = parseState(b.state);
  if (!state) throw new ContractError('"state" is required: the signed-in state whose tokens to revoke.');
  const preregistered = parsePreregistered(b.preregistered);
  return { url: parseProtectedUrl(b.url), state, ...(preregistered ? { preregistered } : {}) };
}
