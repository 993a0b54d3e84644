import "server-only";
import { DEPRECATIONS, deprecationSentence } from "@/lib/mcp/deprecations";
import type { HttpExchange } from "@/lib/mcp/contract";
import { OAUTH_STEP_TITLES, type OAuthAuthorizeRequest, type OAuthStep } from "@/lib/mcp/oauth-contract";
import { classifyError, ProxyError } from "@/lib/upstream/policy";
import { stepKindOf } from "./oauth-recorder.ts";

/** The steps' names in the debugger's words. */
export const STEP_LABELS: Record<OAuthStep["kind"], string> = {
  challenge: "the server's challenge",
  "resource-metadata": "Protected Resource Metadata",
  "authorization-server-metadata": "authorization server metadata",
  "client-metadata-document": "the Client ID Metadata Document",
  registration: "client registration",
  "authorization-request": "the authorization request",
  callback: "the redirect back to Toolscope",
  token: "the token request",
  refresh: "the token refresh",
  revocation: "token revocation",
  other: "a request to the authorization server",
};

/** What to change when a step fails. */
const STEP_HINTS: Partial<Record<OAuthStep["kind"], string>> = {
  "resource-metadata":
    "The server's Protected Resource Metadata (RFC 9728) is missing or does not name this server: check its /.well-known/oauth-protected-resource document and its resource field.",
  "authorization-server-metadata":
    "The authorization server's metadata (RFC 8414 or OpenID discovery) is missing or invalid: its issuer must equal the URL it was fetched for.",
  registration: "The authorization server refused to register Toolscope: enter a client id registered with it beforehand (Use my client).",
  callback: "Start the sign-in again; if it keeps failing, the authorization server's iss or state does not match its metadata.",
  token: "The authorization server refused the code: check the client's credentials and authentication method, then sign in again.",
  refresh: "Sign in again: the refresh token was refused.",
};

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function list(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : String(value);
}

/** What the debugger says about one exchange: the fields that decided the next step. */
function checksFor(kind: OAuthStep["kind"], x: HttpExchange): string[] {
  const status = x.response?.status;
  if (x.error) return [`No answer: ${x.error}`];
  if (status === undefined) return [];
  if (status === 404 && (kind === "resource-metadata" || kind === "authorization-server-metadata"))
    return ["Not found here (404): the next location in the spec's order is tried."];
  const body = parseJson(x.response?.body);
  const out: string[] = [];
  if (status >= 400) {
    out.push(
      `HTTP ${status}${body?.error ? `: ${String(body.error)}${body.error_description ? ` (${String(body.error_description)})` : ""}` : ""}`,
    );
    return out;
  }
  if (!body) return out;
  if (kind === "resource-metadata") {
    if (body.resource !== undefined) out.push(`resource: ${String(body.resource)}`);
    if (body.authorization_servers !== undefined) out.push(`authorization_servers: ${list(body.authorization_servers)}`);
    if (body.scopes_supported !== undefined) out.push(`scopes_supported: ${list(body.scopes_supported)}`);
  } else if (kind === "authorization-server-metadata") {
    if (body.issuer !== undefined) out.push(`issuer: ${String(body.issuer)}`);
    const pkce = Array.isArray(body.code_challenge_methods_supported) && body.code_challenge_methods_supported.includes("S256");
    out.push(pkce ? "PKCE S256 supported" : "code_challenge_methods_supported does not list S256 (PKCE is used anyway)");
    out.push(body.registration_endpoint ? "Dynamic Client Registration offered" : "No registration endpoint");
    if (body.client_id_metadata_document_supported === true) out.push("Client ID Metadata Documents supported");
    if (body.authorization_response_iss_parameter_supported === true) out.push("Returns iss in the authorization response (RFC 9207)");
    if (body.revocation_endpoint) out.push("Token revocation supported");
  } else if (kind === "registration") {
    if (body.client_id !== undefined) out.push(`Registered as client_id ${String(body.client_id)}`);
    out.push(body.client_secret ? "Confidential client (a secret was issued, kept in your browser only)" : "Public client (no secret)");
    // Said on the step that used it, once per sign-in; Toolscope itself prefers a Client ID Metadata Document.
    out.push(deprecationSentence(DEPRECATIONS["dynamic-client-registration"]));
  } else if (kind === "token" || kind === "refresh") {
    out.push(`token_type: ${String(body.token_type ?? "(none)")}`);
    if (body.expires_in !== undefined) out.push(`expires in ${String(body.expires_in)} s`);
    if (body.scope !== undefined) out.push(`granted scope: ${String(body.scope)}`);
    out.push(body.refresh_token ? "A refresh token was issued" : "No refresh token");
  }
  return out;
}

function titleOf(kind: OAuthStep["kind"], x: HttpExchange): string {
  const answer = x.response ? `HTTP ${x.response.status}` : (x.error ?? "no answer");
  return `${OAUTH_STEP_TITLES[kind]}: ${x.request.method} ${x.request.url} → ${answer}`;
}

function exchangeStep(x: HttpExchange): OAuthStep {
  const kind = stepKindOf(x);
  const status = x.response?.status;
  const ok = !x.error && status !== undefined && (status < 400 || (status === 404 && kind.endsWith("metadata")));
  return { kind, title: titleOf(kind, x), exchange: x, checks: checksFor(kind, x), ok };
}

/** The authorization request as the debugger shows it: the parameters, none of them secret (the challenge is a hash). */
function authorizationRequestStep(authorizationUrl: string): OAuthStep {
  const url = new URL(authorizationUrl);
  const p = url.searchParams;
  const checks = [
    `client_id: ${p.get("client_id") ?? "(none)"}`,
    `PKCE: code_challenge_method ${p.get("code_challenge_method") ?? "(none)"}`,
    `resource (RFC 8707): ${p.get("resource") ?? "(none: the server published no resource metadata)"}`,
    `scope: ${p.get("scope") ?? "(none: the authorization server picks its default)"}`,
    p.get("state") ? "state: set, checked on the way back" : "state: none",
  ];
  return {
    kind: "authorization-request",
    title: `${OAUTH_STEP_TITLES["authorization-request"]}: send the user to ${url.origin}${url.pathname}`,
    checks,
    ok: true,
  };
}

function callbackStep(req: OAuthAuthorizeRequest, checks: string[]): OAuthStep {
  const iss = req.callback?.iss;
  return {
    kind: "callback",
    title: `${OAUTH_STEP_TITLES.callback}: back at Toolscope with an authorization code`,
    checks: [...checks, iss === undefined ? "iss: not sent" : `iss: ${iss} (compared with the issuer discovered)`],
    ok: true,
  };
}

/** The steps of one run, in order: each exchange, the callback before the token request, the authorization request last. */
export function describeSteps(
  exchanges: HttpExchange[],
  callbackChecks: string[],
  req: OAuthAuthorizeRequest,
  authorizationUrl?: string,
): OAuthStep[] {
  const steps = exchanges.map(exchangeStep);
  if (req.callback) {
    const at = steps.findIndex((s) => s.kind === "token");
    steps.splice(at < 0 ? steps.length : at, 0, callbackStep(req, callbackChecks));
  }
  if (authorizationUrl) steps.push(authorizationRequestStep(authorizationUrl));
  return steps;
}

/** The step a failure belongs to: the one whose answer was refused, else the one the message is about. */
function failedStepOf(steps: OAuthStep[], message: string, req: OAuthAuthorizeRequest): OAuthStep["kind"] {
  const refused = [...steps].reverse().find((s) => !s.ok);
  if (refused) return refused.kind;
  if (/\biss\b|issuer/i.test(message)) return req.callback ? "callback" : "authorization-server-metadata";
  if (/resource/i.test(message)) return "resource-metadata";
  if (/regist/i.test(message)) return "registration";
  return steps.at(-1)?.kind ?? "resource-metadata";
}

/**
 * What went wrong, in words: a network failure (fetch's bare "fetch failed") is described like one with an MCP
 * server (refused, DNS, TLS, timeout, blocked by the egress guard), naming the authorization-server URL it hit.
 */
export function failureText(err: unknown, exchanges: readonly HttpExchange[], timeoutMs: number): string {
  const message = err instanceof Error ? err.message : String(err);
  const url = exchanges.at(-1)?.request.url;
  if (!url || !(err instanceof Error) || (err.cause === undefined && err.name !== "TimeoutError" && err.name !== "BlockedTargetError"))
    return message;
  return classifyError(err, url, timeoutMs).message;
}

/** A failed run as our API's `oauth-flow` error: which step failed and why, in words, with the steps up to it. */
export function oauthFailure(
  failedStep: OAuthStep["kind"] | undefined,
  message: string,
  hint: string | undefined,
  steps: OAuthStep[],
  cause?: unknown,
  req?: OAuthAuthorizeRequest,
): ProxyError {
  const step = failedStep ?? failedStepOf(steps, message, req ?? { url: "" });
  const err = new ProxyError(
    "oauth-flow",
    `Sign-in failed at ${STEP_LABELS[step]}: ${message.replace(/\s+/g, " ").slice(0, 600)}`,
    hint ?? STEP_HINTS[step] ?? "Open the OAuth debugger: each step shows what was sent and what came back.",
    undefined,
    undefined,
    { oauth: { failedStep: step, steps } },
  );
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause;
  return err;
}
