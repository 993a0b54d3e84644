import type { UserHeaders } from "../../mcp/contract.ts";
import type { OAuthClientAuthMethod, OAuthFlowState, OAuthPreregisteredClient } from "../../mcp/oauth-contract.ts";
import type { OAuthFlowLog } from "./oauth-flow-log.ts";

/**
 * Browser-side memory of OAuth sign-ins, one per MCP server (key: the server URL). The flow state (client, tokens,
 * PKCE verifier) lives in sessionStorage, so it dies with the tab, unless the user ticked "Remember on this device"
 * (then localStorage). It lives under its own keys only: tabs, history, saved requests, share links, recent servers
 * and exports never see it, and the token reaches requests as a header merged at send time ({@link withOAuthHeader}),
 * never written back into the user's own headers (session-store.ts).
 */
const SESSIONS = "toolscope.oauth.v1";
/** The user's own client secret: sessionStorage only, even for a remembered session (like typed headers). */
const SECRETS = "toolscope.oauth-secrets.v1";
/** A sign-in waiting for its callback (the PKCE verifier, the state to compare, where to come back). */
const PENDING = "toolscope.oauth-pending.v1";
/** What /oauth/callback received, for the playground when the sign-in left the page (redirect mode). */
const CALLBACK = "toolscope.oauth-callback.v1";
/** How long a pending sign-in or a callback result waits to be picked up. */
export const OAUTH_PENDING_TTL_MS = 10 * 60_000;

export interface OAuthSession {
  state: OAuthFlowState;
  /** Kept in localStorage ("Remember on this device") rather than sessionStorage. */
  remember: boolean;
  /** The user's own client, when they gave one ("Use my client"); its secret is kept apart (sessionStorage). */
  client?: { clientId: string; authMethod?: OAuthClientAuthMethod };
  /** The authorization server that issued the tokens, for the "Signed in to …" chip. */
  issuer?: string;
}

/** The user's own client with its secret put back from sessionStorage. */
export function preregisteredClient(
  server: string,
  session: Pick<OAuthSession, "client"> | null | undefined,
): OAuthPreregisteredClient | undefined {
  if (!session?.client) return undefined;
  const secret = read<Record<string, string>>(storage("session"), SECRETS, {})[server];
  return {
    clientId: session.client.clientId,
    ...(secret ? { clientSecret: secret } : {}),
    ...(session.client.authMethod ? { authMethod: session.client.authMethod } : {}),
  };
}

type Where = "session" | "local";

function storage(where: Where): Storage | undefined {
  try {
    return where === "session" ? globalThis.sessionStorage : globalThis.localStorage;
  } catch {
    return undefined; // storage disabled: the sign-in lasts as long as the page
  }
}

function read<T>(s: Storage | undefined, key: string, fallback: T): T {
  try {
    const raw = s?.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(s: Storage | undefined, key: string, value: unknown): void {
  try {
    s?.setItem(key, JSON.stringify(value));
  } catch {
    // Full or disabled storage: the session stays in the page's memory only.
  }
}

function update<T>(where: Where, key: string, f: (all: Record<string, T>) => void): void {
  const s = storage(where);
  const all = read<Record<string, T>>(s, key, {});
  f(all);
  // An empty map is no map: a device where nobody ticked "Remember" keeps no OAuth key at all.
  if (Object.keys(all).length) write(s, key, all);
  else s?.removeItem(key);
}

/** The session for `server`: this tab's, else the one remembered on this device. */
export function loadOAuthSession(server: string): OAuthSession | null {
  return (
    read<Record<string, OAuthSession>>(storage("session"), SESSIONS, {})[server] ??
    read<Record<string, OAuthSession>>(storage("local"), SESSIONS, {})[server] ??
    null
  );
}

/** Keep `session` where its `remember` says (and only there); `clientSecret` goes to sessionStorage apart. */
export function saveOAuthSession(server: string, session: OAuthSession, clientSecret?: string): void {
  const here: Where = session.remember ? "local" : "session";
  const there: Where = session.remember ? "session" : "local";
  update<OAuthSession>(there, SESSIONS, (all) => delete all[server]);
  update<OAuthSession>(here, SESSIONS, (all) => {
    all[server] = session;
  });
  if (clientSecret !== undefined)
    update<string>("session", SECRETS, (all) => {
      if (clientSecret) all[server] = clientSecret;
      else delete all[server];
    });
}

/** Forget everything about `server`'s sign-in, in both storages. */
export function forgetOAuthSession(server: string): void {
  for (const where of ["session", "local"] as const) update<OAuthSession>(where, SESSIONS, (all) => delete all[server]);
  update<string>("session", SECRETS, (all) => delete all[server]);
}

/**
 * The headers to send: the user's own, with `Authorization: Bearer <token>` over them when signed in (any
 * `authorization` the user typed, in whatever case, gives way: two would be ambiguous to the server).
 */
export function withOAuthHeader(headers: UserHeaders, state: OAuthFlowState | undefined): UserHeaders {
  const token = state?.tokens?.access_token;
  if (!token) return headers;
  const out: UserHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() !== "authorization") out[k] = v;
  out.Authorization = `Bearer ${token}`;
  return out;
}

/** A sign-in that left for the authorization server and waits for the callback. */
export interface PendingSignIn {
  server: string;
  state: OAuthFlowState;
  remember: boolean;
  client?: OAuthSession["client"];
  /** The playground address to come back to after a full-page redirect. */
  returnUrl: string;
  startedAt: number;
  /** The user's client secret, for redeeming the code after the page comes back (sessionStorage, like the rest). */
  clientSecret?: string;
  /** The debugger's record so far, so a full-page redirect does not lose it (masked: nothing secret in it). */
  log?: OAuthFlowLog;
}

export function savePendingSignIn(p: PendingSignIn): void {
  write(storage("session"), PENDING, p);
}

/** The pending sign-in, if one is under way and not older than {@link OAUTH_PENDING_TTL_MS}. */
export function loadPendingSignIn(now = Date.now()): PendingSignIn | null {
  const p = read<PendingSignIn | null>(storage("session"), PENDING, null);
  return p && typeof p.server === "string" && typeof p.startedAt === "number" && now - p.startedAt <= OAUTH_PENDING_TTL_MS ? p : null;
}

export function clearPendingSignIn(): void {
  storage("session")?.removeItem(PENDING);
}

/** The BroadcastChannel the callback page publishes on (a popup whose opener was cut off, e.g. by COOP, still reaches us). */
export const OAUTH_CHANNEL = "toolscope-oauth";
/** The `type` of the callback page's message (postMessage to the opener, and on {@link OAUTH_CHANNEL}). */
export const OAUTH_CALLBACK_MESSAGE = "toolscope-oauth-callback";

/** What the authorization server sent to /oauth/callback (its query, minus anything else). */
export interface OAuthCallbackResult {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

/** Read the callback's query parameters. */
export function parseCallbackQuery(search: string): OAuthCallbackResult {
  const q = new URLSearchParams(search);
  const out: OAuthCallbackResult = {};
  const pick = (name: string, key: keyof OAuthCallbackResult) => {
    const v = q.get(name);
    if (v !== null) out[key] = v;
  };
  pick("code", "code");
  pick("state", "state");
  pick("iss", "iss");
  pick("error", "error");
  pick("error_description", "errorDescription");
  return out;
}

/** The callback page's message, checked (any page of our origin may post on the channel). */
export function callbackFromMessage(data: unknown): OAuthCallbackResult | null {
  if (typeof data !== "object" || data === null || (data as { type?: unknown }).type !== OAUTH_CALLBACK_MESSAGE) return null;
  const d = data as Record<string, unknown>;
  const out: OAuthCallbackResult = {};
  for (const key of ["code", "state", "iss", "error", "errorDescription"] as const) if (typeof d[key] === "string") out[key] = d[key];
  return out;
}

/** Redirect mode: the callback page leaves the result here for the playground it returns to. */
export function saveCallbackResult(result: OAuthCallbackResult, now = Date.now()): void {
  write(storage("session"), CALLBACK, { ...result, at: now });
}

/** Take (read and remove) the callback result left by a redirect, if fresh. */
export function takeCallbackResult(now = Date.now()): OAuthCallbackResult | null {
  const r = read<(OAuthCallbackResult & { at?: number }) | null>(storage("session"), CALLBACK, null);
  storage("session")?.removeItem(CALLBACK);
  if (!r || typeof r.at !== "number" || now - r.at > OAUTH_PENDING_TTL_MS) return null;
  const { at: _at, ...result } = r;
  return result;
}
