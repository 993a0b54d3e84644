import type { HttpExchange, ProxyErrorBody } from "../../mcp/contract.ts";
import { OAUTH_STEP_TITLES, type OAuthChallenge, type OAuthStep } from "../../mcp/oauth-contract.ts";

/**
 * The latest OAuth flow of a server as the debugger shows it, in order: the refusal that started it (with the failed
 * call's exchanges), the server's steps, the authorization request, the callback, and the request retried with the
 * token. Everything here is safe to show: the server masks tokens and secrets in its steps, and the callback's code is
 * masked here before it is kept.
 */
export interface OAuthFlowLog {
  server: string;
  startedAt: number;
  /** The refusal that started the flow, and the HTTP exchanges of the call that got it. */
  challenge?: OAuthChallenge;
  challengeExchanges?: HttpExchange[];
  /** Every step the server reported, in order, across the flow's requests (authorize, callback, refresh, revoke). */
  steps: OAuthStep[];
  /** Where the user was sent (its query holds no secret: PKCE sends the challenge, never the verifier). */
  authorizationUrl?: string;
  /** How many `steps` came before the user was sent away, and before the callback: where the debugger lists them. */
  authorizationAt?: number;
  callbackAt?: number;
  callback?: { code?: string; stateMatched: boolean; iss?: string; error?: string; errorDescription?: string };
  /** Why the flow stopped, in words, and at which step. */
  failure?: { step: OAuthStep["kind"] | "popup" | "state-check" | "consent" | "retry"; message: string };
  /** The MCP request sent again with the token. */
  retried?: { what: string; ok: boolean; summary: string; exchanges?: HttpExchange[] };
}

/** At most this many characters of a code are shown: enough to tell two apart, not enough to redeem one. */
const CODE_SHOWN = 4;

/** `abcd…` (length n): an authorization code as the debugger shows it. */
export function maskCode(code: string): string {
  return code.length <= CODE_SHOWN * 2
    ? `${"•".repeat(code.length)} (${code.length} characters)`
    : `${code.slice(0, CODE_SHOWN)}… (${code.length} characters)`;
}

export function startFlowLog(server: string, now: number, refusal?: ProxyErrorBody["error"]): OAuthFlowLog {
  return {
    server,
    startedAt: now,
    steps: [],
    ...(refusal?.auth ? { challenge: refusal.auth } : {}),
    ...(refusal?.exchanges?.length ? { challengeExchanges: refusal.exchanges } : {}),
  };
}

/** The steps of a failed flow request (kind `oauth-flow`), and the failure said in words. */
export function withFlowFailure(log: OAuthFlowLog, error: ProxyErrorBody["error"]): OAuthFlowLog {
  const detail = error.oauth;
  return {
    ...log,
    steps: detail ? [...log.steps, ...detail.steps] : log.steps,
    failure: { step: detail?.failedStep ?? "other", message: error.hint ? `${error.message} ${error.hint}` : error.message },
  };
}

/** The steps' names, as the server's titles start with them (one table for both sides). */
export const STEP_KIND_LABELS = OAUTH_STEP_TITLES;

/** The query of an authorization URL as name/value rows, for reading (nothing in it is secret). */
export function queryRows(url: string): [string, string][] {
  try {
    return [...new URL(url).searchParams.entries()];
  } catch {
    return [];
  }
}
