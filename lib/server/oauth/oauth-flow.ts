import "server-only";
import { randomBytes } from "node:crypto";
import {
  auth,
  type OAuthClientInformationContext,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAuthAuthorizeRequest, OAuthAuthorizeResponse, OAuthFlowState, OAuthStep } from "@/lib/mcp/oauth-contract";
import type { Config } from "../platform/config.ts";
import { guardedFetch } from "@/lib/upstream/policy";
import { clientMetadataUrlFor, redirectUriFor, toolscopeClientMetadata } from "./oauth-client-metadata.ts";
import { createOAuthRecorder } from "./oauth-recorder.ts";
import { describeSteps, failureText, oauthFailure } from "./oauth-steps.ts";

export interface OAuthRunContext {
  config: Config;
  /** Our public origin: the redirect URI and the Client ID Metadata Document live under it. */
  origin: string;
  signal: AbortSignal;
}

/** Client information that belongs to another authorization server is not shown to this one (SEP-2352). */
function sameIssuer(stamped: string | undefined, ctx: OAuthClientInformationContext | undefined): boolean {
  return !stamped || !ctx?.issuer || stamped.replace(/\/+$/, "") === ctx.issuer.replace(/\/+$/, "");
}

/**
 * The SDK's OAuthClientProvider over the browser's flow state: it reads what the browser sent and writes what the
 * SDK saves back into that state, which goes back to the browser. Nothing outlives the request.
 */
class BrowserHeldProvider implements OAuthClientProvider {
  authorizationUrl?: string;
  /** How the client identity was obtained in this run, for the debugger. */
  identity?: OAuthAuthorizeResponse["clientIdentity"];
  readonly clientMetadataUrl?: string;

  constructor(
    readonly flow: OAuthFlowState,
    private readonly redirectUri: string,
    private readonly origin: string,
    clientMetadataUrl: string | undefined,
    private readonly preregistered: OAuthAuthorizeRequest["preregistered"],
  ) {
    // The user's own client wins over the metadata document: they chose it.
    this.clientMetadataUrl = preregistered ? undefined : clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirectUri;
  }

  get clientMetadata() {
    return toolscopeClientMetadata(this.origin);
  }

  state(): string {
    return (this.flow.oauthState = randomBytes(24).toString("base64url"));
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    if (this.preregistered) {
      this.identity = "preregistered";
      const { clientId, clientSecret, authMethod } = this.preregistered;
      return {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        ...(authMethod ? { token_endpoint_auth_method: authMethod } : {}),
        ...(ctx?.issuer ? { issuer: ctx.issuer } : {}),
      } as StoredOAuthClientInformation;
    }
    const client = this.flow.client;
    if (!client || !sameIssuer(client.issuer, ctx)) return undefined;
    this.identity ??= "stored";
    return client as StoredOAuthClientInformation;
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    // A pre-registered client is the user's to keep (its secret stays in their browser, not in this state).
    if (this.preregistered) return;
    if (this.identity !== "stored")
      this.identity = info.client_id === this.clientMetadataUrl ? "client-metadata-document" : "dynamic-registration";
    this.flow.client = { ...(info as OAuthFlowState["client"] & object), issuer: info.issuer ?? ctx?.issuer };
  }

  tokens(ctx?: OAuthClientInformationContext): StoredOAuthTokens | undefined {
    const tokens = this.flow.tokens;
    return tokens && sameIssuer(tokens.issuer, ctx) ? (tokens as StoredOAuthTokens) : undefined;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.flow.tokens = tokens as OAuthFlowState["tokens"];
    this.flow.obtainedAt = Date.now();
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url.toString();
  }

  saveCodeVerifier(verifier: string): void {
    this.flow.codeVerifier = verifier;
  }

  codeVerifier(): string {
    if (!this.flow.codeVerifier) throw new Error("No PKCE verifier in the state: start the sign-in again from the beginning.");
    return this.flow.codeVerifier;
  }

  saveDiscoveryState(discovery: OAuthDiscoveryState): void {
    this.flow.discovery = discovery as unknown as Record<string, unknown>;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.flow.discovery as OAuthDiscoveryState | undefined;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    forget(this.flow, scope);
  }
}

/** Drop a part of the flow state (the SDK asks when a server rejects a client or a grant; the browser, after a repeated 401). */
function forget(flow: OAuthFlowState, scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
  if (scope === "all" || scope === "client") delete flow.client;
  if (scope === "all" || scope === "tokens") {
    delete flow.tokens;
    delete flow.obtainedAt;
  }
  if (scope === "all" || scope === "verifier") {
    delete flow.codeVerifier;
    delete flow.oauthState;
  }
  if (scope === "all" || scope === "discovery") delete flow.discovery;
}

/**
 * One step of the MCP authorization flow for the browser (POST /api/oauth/authorize): discovery, client identity,
 * then either the authorization URL to send the user to, or (after the callback, or with a refresh token) tokens.
 * The SDK's `auth()` does the protocol work; this supplies its state, records each exchange for the debugger, and
 * turns a failure into words naming the step.
 */
export async function authorize(req: OAuthAuthorizeRequest, ctx: OAuthRunContext): Promise<OAuthAuthorizeResponse> {
  const flow: OAuthFlowState = structuredClone(req.state ?? {});
  for (const part of req.invalidate ?? []) forget(flow, part);
  const redirectUri = redirectUriFor(ctx.origin);
  const recorder = createOAuthRecorder(guardedFetch(ctx.config), ctx.config.requestTimeoutMs, ctx.signal);
  const provider = new BrowserHeldProvider(flow, redirectUri, ctx.origin, clientMetadataUrlFor(ctx.origin, ctx.config), req.preregistered);
  const callbackChecks: string[] = [];
  if (req.callback) {
    // The browser checks too; this is the check that holds whatever the browser does.
    if (!flow.oauthState || req.callback.state !== flow.oauthState) {
      throw oauthFailure(
        "callback",
        "The sign-in came back with a state that does not match the one sent: it may not be the answer to this sign-in (a forged or stale redirect).",
        "Start the sign-in again.",
        describeSteps(recorder.exchanges, [], req),
      );
    }
    callbackChecks.push("state matches the authorization request");
  }
  if (req.scope) flow.requestedScope = req.scope;
  let outcome: "AUTHORIZED" | "REDIRECT";
  try {
    outcome = await auth(provider, {
      serverUrl: req.url,
      ...(req.callback ? { authorizationCode: req.callback.code, iss: req.callback.iss } : {}),
      ...(req.scope ? { scope: req.scope } : {}),
      ...(req.resourceMetadataUrl ? { resourceMetadataUrl: new URL(req.resourceMetadataUrl) } : {}),
      ...(req.forceReauthorization ? { forceReauthorization: true } : {}),
      fetchFn: recorder.fetch,
    });
  } catch (err) {
    const text = failureText(err, recorder.exchanges, ctx.config.requestTimeoutMs);
    throw oauthFailure(undefined, text, undefined, describeSteps(recorder.exchanges, callbackChecks, req), err, req);
  }
  const steps: OAuthStep[] = describeSteps(recorder.exchanges, callbackChecks, req, provider.authorizationUrl);
  if (outcome === "REDIRECT" && provider.authorizationUrl) {
    // What was asked for, whoever chose it (the challenge, the resource's scopes_supported): a step-up adds to it.
    const asked = new URL(provider.authorizationUrl).searchParams.get("scope");
    if (asked) flow.requestedScope = asked;
    else delete flow.requestedScope;
  }
  if (outcome === "AUTHORIZED") {
    // The flow is over: the next one discovers afresh (the resource may move to another authorization server).
    forget(flow, "verifier");
    forget(flow, "discovery");
  }
  return {
    outcome: outcome === "AUTHORIZED" ? "authorized" : "redirect",
    ...(provider.authorizationUrl && outcome === "REDIRECT" ? { authorizationUrl: provider.authorizationUrl } : {}),
    redirectUri,
    state: flow,
    steps,
    ...(provider.identity ? { clientIdentity: provider.identity } : {}),
  };
}
