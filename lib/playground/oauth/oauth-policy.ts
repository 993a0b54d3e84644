import type { OAuthAuthorizeRequest, OAuthChallenge, OAuthFlowState } from "../../mcp/oauth-contract.ts";

/** Refresh a token this long before it expires, so a request never leaves with one about to lapse on the way. */
export const REFRESH_MARGIN_MS = 60_000;

/**
 * Step-ups (403 `insufficient_scope`, sign in again with a wider scope) allowed for one request. A server that keeps
 * asking for more after two widened grants is not going to be satisfied by a third: the playground stops and says so
 * instead of sending the user to the consent screen again and again.
 */
export const MAX_STEP_UP_ATTEMPTS = 2;

/** When the access token of `state` expires (ms since the epoch), or undefined when it did not say. */
export function tokenExpiresAt(state: OAuthFlowState | undefined): number | undefined {
  const t = state?.tokens;
  if (!t || typeof t.expires_in !== "number" || typeof state.obtainedAt !== "number") return undefined;
  return state.obtainedAt + t.expires_in * 1000;
}

/**
 * A token that expires within {@link REFRESH_MARGIN_MS} (and can be refreshed) is refreshed before sending. The
 * margin is at most half the token's lifetime: a token that lives a minute or less would otherwise be refreshed
 * before every request, the first one after sign-in included.
 */
export function needsRefresh(state: OAuthFlowState | undefined, now = Date.now()): boolean {
  const at = tokenExpiresAt(state);
  if (at === undefined || !state?.tokens?.refresh_token) return false;
  const margin = Math.min(REFRESH_MARGIN_MS, ((state.tokens.expires_in ?? 0) * 1000) / 2);
  return at - now <= margin;
}

/** The union of space-separated scopes, in first-seen order (RFC 6749 §3.3: order does not matter, duplicates do). */
export function scopeUnion(...scopes: (string | undefined)[]): string | undefined {
  const seen = new Set<string>();
  for (const s of scopes) for (const part of (s ?? "").split(/\s+/)) if (part) seen.add(part);
  return seen.size ? [...seen].join(" ") : undefined;
}

/** What one request has tried so far to get past the server's refusals (reset for each new request). */
export interface AuthAttempts {
  /** A refresh was tried after a 401. */
  refreshed: boolean;
  /** A fresh token (refreshed or newly granted) was sent and got a 401 anyway. */
  reauthorized: boolean;
  /** Step-ups (403 insufficient_scope) so far. */
  stepUps: number;
}

export const NO_ATTEMPTS: AuthAttempts = { refreshed: false, reauthorized: false, stepUps: 0 };

/**
 * What to do about a refusal. `refresh` runs without the user (POST /api/oauth/authorize with the stored state: the
 * server refreshes when there is a refresh token); `sign-in` needs the user (a popup needs their click), with the
 * request to make and a reason to show; `give-up` says why trying again is pointless.
 */
export type AuthDecision =
  | { kind: "refresh" }
  | { kind: "sign-in"; reason: "no-session" | "rejected-again" | "step-up" | "no-refresh"; request: AuthorizeOptions }
  | { kind: "give-up"; message: string };

/** The parts of an authorize request that the decision fixes (the URL, state and client are added by the caller). */
export type AuthorizeOptions = Pick<OAuthAuthorizeRequest, "scope" | "resourceMetadataUrl" | "invalidate" | "forceReauthorization">;

/**
 * The rules for one refusal of one request:
 * - no token yet: sign in (scope: the challenge's, else none, meaning the server picks per the spec);
 * - 403 `insufficient_scope`: step up with the union of the scope asked for last and the challenge's, at most
 *   {@link MAX_STEP_UP_ATTEMPTS} times per request;
 * - 401 with a token: refresh once (when there is a refresh token);
 * - 401 again after a fresh token: the server may have moved its authorization server, so sign in afresh, forgetting
 *   the discovery results and the tokens (`invalidate: ["discovery", "tokens"]`), once;
 * - anything past that: give up.
 */
export function decideOnRefusal(challenge: OAuthChallenge, state: OAuthFlowState | undefined, attempts: AuthAttempts): AuthDecision {
  const base: AuthorizeOptions = challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {};
  const hasToken = Boolean(state?.tokens?.access_token);
  if (challenge.status === 403 || challenge.error === "insufficient_scope") {
    if (attempts.stepUps >= MAX_STEP_UP_ATTEMPTS)
      return {
        kind: "give-up",
        message: `The server still refuses for want of scope after ${MAX_STEP_UP_ATTEMPTS} step-ups (MAX_STEP_UP_ATTEMPTS); the playground stops asking.${challenge.scope ? ` It asks for: ${challenge.scope}.` : ""}`,
      };
    const scope = scopeUnion(state?.requestedScope ?? state?.tokens?.scope, challenge.scope);
    return { kind: "sign-in", reason: "step-up", request: { ...base, ...(scope ? { scope } : {}), forceReauthorization: true } };
  }
  const scope = challenge.scope ? { scope: challenge.scope } : {};
  if (!hasToken) return { kind: "sign-in", reason: "no-session", request: { ...base, ...scope } };
  if (!attempts.refreshed && !attempts.reauthorized) {
    if (state?.tokens?.refresh_token) return { kind: "refresh" };
    return { kind: "sign-in", reason: "no-refresh", request: { ...base, ...scope, invalidate: ["tokens"] } };
  }
  if (!attempts.reauthorized)
    return { kind: "sign-in", reason: "rejected-again", request: { ...base, ...scope, invalidate: ["discovery", "tokens"] } };
  return {
    kind: "give-up",
    message:
      "The server refused a newly granted token too. Check the server's authorization settings (audience, issuer) in the OAuth debugger.",
  };
}

/** The attempts after acting on `decision`. */
export function afterDecision(attempts: AuthAttempts, decision: AuthDecision): AuthAttempts {
  if (decision.kind === "refresh") return { ...attempts, refreshed: true };
  if (decision.kind !== "sign-in") return attempts;
  if (decision.reason === "step-up") return { ...attempts, stepUps: attempts.stepUps + 1 };
  if (decision.reason === "rejected-again") return { ...attempts, reauthorized: true, refreshed: true };
  // A sign-in brings a fresh token: a 401 on it is not cured by refreshing it.
  return { ...attempts, refreshed: true };
}

/** Why the sign-in panel is shown, in words. */
export const SIGN_IN_REASONS: Record<Extract<AuthDecision, { kind: "sign-in" }>["reason"], string> = {
  "no-session":
    "It refused the request for want of a token. Sign in with its authorization server and the request goes again with the token.",
  "no-refresh": "The server refused the token, and there is no refresh token to get a new one: sign in again.",
  "rejected-again":
    "The server refused a fresh token too. Signing in again starts over, discovery included (the server may have moved its authorization server).",
  "step-up": "The server needs more scope for this request: sign in again to grant it.",
};

/** The issuer to name in "Signed in to …": the tokens', else the client's. */
export function issuerOf(state: OAuthFlowState | undefined): string | undefined {
  return state?.tokens?.issuer ?? state?.client?.issuer;
}
