"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ProxyErrorBody, UserHeaders } from "@/lib/mcp/contract";
import type {
  OAuthAuthorizeRequest,
  OAuthAuthorizeResponse,
  OAuthChallenge,
  OAuthClientAuthMethod,
  OAuthFlowState,
} from "@/lib/mcp/oauth-contract";
import { api, ApiError } from "@/lib/client/api-client";
import { maskCode, startFlowLog, withFlowFailure, type OAuthFlowLog } from "@/lib/playground/oauth/oauth-flow-log";
import {
  afterDecision,
  decideOnRefusal,
  issuerOf,
  needsRefresh,
  SIGN_IN_REASONS,
  type AuthAttempts,
  type AuthorizeOptions,
} from "@/lib/playground/oauth/oauth-policy";
import {
  callbackFromMessage,
  clearPendingSignIn,
  forgetOAuthSession,
  loadOAuthSession,
  loadPendingSignIn,
  OAUTH_CHANNEL,
  preregisteredClient,
  saveOAuthSession,
  savePendingSignIn,
  takeCallbackResult,
  withOAuthHeader,
  type OAuthCallbackResult,
  type OAuthSession,
  type PendingSignIn,
} from "@/lib/playground/oauth/oauth-session";

/** What the sign-in panel's form holds. */
export interface SignInFields {
  clientId: string;
  clientSecret: string;
  authMethod: OAuthClientAuthMethod | "";
  scope: string;
  remember: boolean;
}

/** Why sign-in is asked for, and what the authorize request should say. */
export interface SignInPrompt {
  challenge: OAuthChallenge;
  reason: string;
  request: AuthorizeOptions;
}

export type OAuthPhase =
  { kind: "idle"; note?: string } | { kind: "working"; what: string } | { kind: "waiting" } | { kind: "failed"; message: string };

/** A refusal overcome: the state to send with, and the attempts it took. */
export type Resolution = { state: OAuthFlowState; attempts: AuthAttempts } | null;

const POPUP_NAME = "toolscope-oauth";
const POPUP_FEATURES = "popup,width=520,height=720";

function toProxyError(err: unknown): ProxyErrorBody["error"] {
  return err instanceof ApiError ? err.body : { kind: "internal", message: (err as Error).message };
}

/** `obtainedAt` for new tokens when the server did not stamp it: expiry is counted from it. */
function stamped(next: OAuthFlowState, previous: OAuthFlowState | undefined, now: number): OAuthFlowState {
  const fresh = next.tokens?.access_token && next.tokens.access_token !== previous?.tokens?.access_token;
  return fresh && next.obtainedAt === undefined ? { ...next, obtainedAt: now } : next;
}

/** Wait for the callback page's answer: a postMessage from our popup, or the channel (state must match there). */
function waitForCallback(popup: Window, expectedState: string | undefined, onCancel: (cancel: () => void) => void) {
  return new Promise<OAuthCallbackResult | null>((resolve) => {
    let done = false;
    const channel = typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel(OAUTH_CHANNEL);
    const finish = (r: OAuthCallbackResult | null) => {
      if (done) return;
      done = true;
      channel?.close();
      window.removeEventListener("message", onMessage);
      resolve(r);
    };
    // From our own popup: taken whatever its state (a mismatch is then reported, not ignored).
    const onMessage = (e: MessageEvent) => {
      if (e.origin !== window.location.origin || e.source !== popup) return;
      const r = callbackFromMessage(e.data);
      if (r) finish(r);
    };
    // The channel reaches every tab of ours: another tab's sign-in has another state, and is not ours to take.
    if (channel)
      channel.onmessage = (e) => {
        const r = callbackFromMessage(e.data);
        if (r && r.state === expectedState) finish(r);
      };
    window.addEventListener("message", onMessage);
    onCancel(() => finish(null));
  });
}

/**
 * The OAuth sign-in of one server: its session (tokens in session or local storage, lib/playground/oauth/oauth-session.ts),
 * the decision on a refusal (lib/playground/oauth/oauth-policy.ts), the popup (or full-page redirect) flow through
 * POST /api/oauth/authorize, sign-out, and the debugger's record of the latest flow.
 */
export function useOAuth(server: string) {
  const [session, setSession] = useState<OAuthSession | null>(() => (typeof window === "undefined" ? null : loadOAuthSession(server)));
  const [prompt, setPrompt] = useState<SignInPrompt | null>(null);
  const [phase, setPhase] = useState<OAuthPhase>({ kind: "idle" });
  const [log, setLogState] = useState<OAuthFlowLog | null>(null);
  const sessionRef = useRef(session);
  const logRef = useRef<OAuthFlowLog | null>(null);
  /** The refused request waiting for the user's sign-in. */
  const waiterRef = useRef<((state: OAuthFlowState | null) => void) | null>(null);
  const cancelWaitRef = useRef<(() => void) | null>(null);
  /** A sign-in finishing after a full-page redirect: refusals meanwhile wait for it. */
  const completingRef = useRef<Promise<unknown> | null>(null);

  const keep = useCallback(
    (next: OAuthSession | null, clientSecret?: string) => {
      sessionRef.current = next;
      setSession(next);
      if (next) saveOAuthSession(server, next, clientSecret);
      else forgetOAuthSession(server);
    },
    [server],
  );
  const setLog = useCallback((next: OAuthFlowLog) => {
    logRef.current = next;
    setLogState(next);
  }, []);
  const updateLog = useCallback(
    (f: (l: OAuthFlowLog) => OAuthFlowLog) => setLog(f(logRef.current ?? startFlowLog(server, Date.now()))),
    [server, setLog],
  );

  /** POST /api/oauth/authorize, its steps into the log; a failure is logged and thrown as its message. */
  const authorize = useCallback(
    async (body: OAuthAuthorizeRequest): Promise<OAuthAuthorizeResponse> => {
      try {
        const res = await api.oauthAuthorize(body);
        updateLog((l) => ({ ...l, steps: [...l.steps, ...res.steps] }));
        return res;
      } catch (err) {
        const e = toProxyError(err);
        updateLog((l) => withFlowFailure(l, e));
        throw new Error(e.hint ? `${e.message} ${e.hint}` : e.message);
      }
    },
    [updateLog],
  );

  /** Signed in: keep the session, close the panel, and let the refused request go again. */
  const complete = useCallback(
    (state: OAuthFlowState, pending: Pick<PendingSignIn, "remember" | "client">, clientSecret?: string) => {
      const next: OAuthSession = {
        state: stamped(state, sessionRef.current?.state, Date.now()),
        remember: pending.remember,
        ...(pending.client ? { client: pending.client } : {}),
        ...(issuerOf(state) ? { issuer: issuerOf(state) } : {}),
      };
      // A sign-in states the client anew: no secret given means none is kept.
      keep(next, clientSecret ?? "");
      setPrompt(null);
      setPhase({ kind: "idle" });
      waiterRef.current?.(next.state);
      waiterRef.current = null;
    },
    [keep],
  );

  /** Redeem the callback's code (after checking its state here too); false when it could not be. */
  const redeem = useCallback(
    async (pending: PendingSignIn, cb: OAuthCallbackResult, clientSecret?: string): Promise<boolean> => {
      const stateMatched = cb.state !== undefined && cb.state === pending.state.oauthState;
      updateLog((l) => ({
        ...l,
        callbackAt: l.steps.length,
        callback: {
          ...(cb.code ? { code: maskCode(cb.code) } : {}),
          stateMatched,
          ...(cb.iss ? { iss: cb.iss } : {}),
          ...(cb.error ? { error: cb.error } : {}),
          ...(cb.errorDescription ? { errorDescription: cb.errorDescription } : {}),
        },
      }));
      const fail = (step: NonNullable<OAuthFlowLog["failure"]>["step"], message: string) => {
        updateLog((l) => ({ ...l, failure: { step, message } }));
        setPhase({ kind: "failed", message });
        return false;
      };
      if (cb.error === "invalid_scope" && !pending.client) {
        // A strict authorization server holds a registered client to the scope it registered with (the first
        // challenge's); a step-up asks for more. Registering anew with the wider scope is the way past it.
        const s = sessionRef.current;
        if (s?.state.client) keep({ ...s, state: { ...s.state, client: undefined } });
        return fail(
          "consent",
          `The authorization server refused the scope for Toolscope's registration (invalid_scope${cb.errorDescription ? `: ${cb.errorDescription}` : ""}): it was registered for a narrower one. Sign in again: Toolscope registers anew with the wider scope.`,
        );
      }
      if (cb.error)
        return fail(
          "consent",
          cb.error === "access_denied"
            ? `Sign-in was refused: the authorization server answered access_denied${cb.errorDescription ? ` (${cb.errorDescription})` : ""}, e.g. consent was denied. You are not signed in.`
            : `The authorization server answered ${cb.error}${cb.errorDescription ? `: ${cb.errorDescription}` : ""}. You are not signed in.`,
        );
      if (!stateMatched)
        return fail(
          "state-check",
          "The callback's state does not match the sign-in under way, so its code was not redeemed (it may come from another sign-in, or be forged).",
        );
      if (!cb.code) return fail("callback", "The callback came without an authorization code.");
      setPhase({ kind: "working", what: "Redeeming the authorization code…" });
      const preregistered = pending.client ? { ...pending.client, ...(clientSecret ? { clientSecret } : {}) } : undefined;
      try {
        const res = await authorize({
          url: server,
          state: pending.state,
          ...(preregistered ? { preregistered } : {}),
          callback: { code: cb.code, ...(cb.state ? { state: cb.state } : {}), ...(cb.iss ? { iss: cb.iss } : {}) },
        });
        if (res.outcome !== "authorized" || !res.state.tokens?.access_token)
          return fail("token", "The authorization server gave no access token for the code.");
        complete(res.state, pending, clientSecret);
        return true;
      } catch (err) {
        setPhase({ kind: "failed", message: (err as Error).message });
        return false;
      }
    },
    [server, authorize, complete, keep, updateLog],
  );

  // Back from a full-page redirect (the popup was blocked): finish the sign-in this page started.
  useEffect(() => {
    const pending = loadPendingSignIn();
    if (!pending || pending.server !== server) return;
    const cb = takeCallbackResult();
    clearPendingSignIn();
    if (!cb) return;
    // The record so far; redeem() publishes it with the callback.
    if (pending.log) logRef.current = pending.log;
    // Started after this effect (a microtask): its state updates belong to no render pass.
    completingRef.current = Promise.resolve()
      .then(() => redeem(pending, cb, pending.clientSecret))
      .finally(() => {
        completingRef.current = null;
      });
  }, [server, redeem]);

  /** Refresh without the user; null when it cannot (no refresh token, refused, or the server wants the user). */
  const refresh = useCallback(async (): Promise<OAuthFlowState | null> => {
    const s = sessionRef.current;
    if (!s?.state.tokens?.refresh_token) return null;
    setPhase({ kind: "working", what: "Refreshing the token…" });
    try {
      const pre = preregisteredClient(server, s);
      const res = await authorize({ url: server, state: s.state, ...(pre ? { preregistered: pre } : {}) });
      setPhase({ kind: "idle" });
      if (res.outcome !== "authorized" || !res.state.tokens?.access_token) return null;
      const next = { ...s, state: stamped(res.state, s.state, Date.now()) };
      keep(next);
      return next.state;
    } catch {
      setPhase({ kind: "idle" });
      return null;
    }
  }, [server, authorize, keep]);

  /** The state to send with now: refreshed first when the token expires within the margin. */
  const ensureFresh = useCallback(async (): Promise<OAuthFlowState | undefined> => {
    if (completingRef.current) await completingRef.current;
    const s = sessionRef.current;
    if (s && needsRefresh(s.state)) {
      setLog(startFlowLog(server, Date.now()));
      return (await refresh()) ?? s.state;
    }
    return s?.state;
  }, [server, refresh, setLog]);

  /**
   * A request was refused (`upstream-auth`): refresh, or ask the user to sign in (resolves once they did), or give up
   * (null). `sent` is the headers it went with: a newer token than that one is simply tried.
   */
  const resolveRefusal = useCallback(
    async (error: ProxyErrorBody["error"], attempts: AuthAttempts, sent: UserHeaders): Promise<Resolution> => {
      if (completingRef.current) await completingRef.current;
      const current = sessionRef.current?.state;
      const token = current?.tokens?.access_token;
      if (token && sent.Authorization !== `Bearer ${token}`) return { state: current, attempts };
      const challenge: OAuthChallenge = error.auth ?? { status: 401 };
      setLog(startFlowLog(server, Date.now(), error));
      let decision = decideOnRefusal(challenge, current, attempts);
      let next = afterDecision(attempts, decision);
      if (decision.kind === "refresh") {
        const state = await refresh();
        if (state) return { state, attempts: next };
        // Refused or not possible: the user signs in again (the tokens are forgotten for that).
        decision = decideOnRefusal(
          challenge,
          current && { ...current, tokens: { ...current.tokens!, refresh_token: undefined } },
          attempts,
        );
        next = afterDecision(next, decision);
      }
      if (decision.kind === "give-up") {
        const message = decision.message;
        updateLog((l) => ({ ...l, failure: { step: "retry", message } }));
        setPhase({ kind: "failed", message });
        return null;
      }
      if (decision.kind !== "sign-in") return null;
      setPhase({ kind: "idle" });
      setPrompt({ challenge, reason: SIGN_IN_REASONS[decision.reason], request: decision.request });
      waiterRef.current?.(null);
      const state = await new Promise<OAuthFlowState | null>((resolve) => {
        waiterRef.current = resolve;
      });
      return state ? { state, attempts: next } : null;
    },
    [server, refresh, setLog, updateLog],
  );

  /** Sign in (the panel's button): call it in the click, so the popup opens as the user's own act. */
  const signIn = useCallback(
    (fields: SignInFields) => {
      const p = prompt ?? { challenge: { status: 401 as const }, reason: "", request: {} };
      // Opened now, in the click: a window opened after an await may be blocked as unrequested.
      const popup = window.open("about:blank", POPUP_NAME, POPUP_FEATURES);
      void (async () => {
        const clientId = fields.clientId.trim();
        const client = clientId ? { clientId, ...(fields.authMethod ? { authMethod: fields.authMethod } : {}) } : undefined;
        const clientSecret = clientId ? fields.clientSecret : undefined;
        const scope = fields.scope.trim();
        const base = sessionRef.current?.state ?? {};
        // Another client than the one registered before: its registration is not ours to reuse.
        const otherClient = client && base.client?.client_id !== client.clientId;
        const invalidate = [...(p.request.invalidate ?? []), ...(otherClient ? (["client"] as const) : [])];
        setPhase({ kind: "working", what: "Asking the authorization server…" });
        let res: OAuthAuthorizeResponse;
        try {
          res = await authorize({
            url: server,
            state: base,
            ...(client ? { preregistered: { ...client, ...(clientSecret ? { clientSecret } : {}) } } : {}),
            ...(scope ? { scope } : {}),
            ...(p.request.resourceMetadataUrl ? { resourceMetadataUrl: p.request.resourceMetadataUrl } : {}),
            ...(invalidate.length ? { invalidate } : {}),
            ...(p.request.forceReauthorization ? { forceReauthorization: true } : {}),
          });
        } catch (err) {
          popup?.close();
          setPhase({ kind: "failed", message: (err as Error).message });
          return;
        }
        const state = scope && !res.state.requestedScope ? { ...res.state, requestedScope: scope } : res.state;
        const pending: PendingSignIn = {
          server,
          state,
          remember: fields.remember,
          ...(client ? { client } : {}),
          returnUrl: window.location.href,
          startedAt: Date.now(),
        };
        if (res.outcome === "authorized") {
          popup?.close();
          complete(state, pending, clientSecret);
          return;
        }
        const url = res.authorizationUrl;
        if (!url) {
          popup?.close();
          setPhase({ kind: "failed", message: "The server gave no authorization URL to send you to." });
          return;
        }
        updateLog((l) => ({ ...l, authorizationUrl: url, authorizationAt: l.steps.length }));
        if (!popup || popup.closed) {
          // Popup blocked: the whole page goes, and /oauth/callback brings it back here (redirect mode).
          savePendingSignIn({ ...pending, ...(clientSecret ? { clientSecret } : {}), ...(logRef.current ? { log: logRef.current } : {}) });
          window.location.assign(url);
          return;
        }
        popup.location.href = url;
        setPhase({ kind: "waiting" });
        const cb = await waitForCallback(popup, state.oauthState, (cancel) => {
          cancelWaitRef.current = cancel;
        });
        cancelWaitRef.current = null;
        if (!cb) {
          setPhase({ kind: "idle", note: "Sign-in cancelled." });
          return;
        }
        await redeem(pending, cb, clientSecret);
      })();
    },
    [server, prompt, authorize, complete, redeem, updateLog],
  );

  /** Stop waiting for the popup (closed, or given up on). */
  const cancelSignIn = useCallback(() => cancelWaitRef.current?.(), []);

  /** Give up on the refused request: it fails as it was. */
  const dismiss = useCallback(() => {
    cancelWaitRef.current?.();
    setPrompt(null);
    waiterRef.current?.(null);
    waiterRef.current = null;
  }, []);

  /** Revoke the tokens (where the authorization server can), then forget them. */
  const signOut = useCallback(async () => {
    const s = sessionRef.current;
    if (!s) return;
    setLog(startFlowLog(server, Date.now()));
    setPhase({ kind: "working", what: "Signing out…" });
    let note = "Signed out: the tokens are forgotten.";
    try {
      const pre = preregisteredClient(server, s);
      const res = await api.oauthRevoke({ url: server, state: s.state, ...(pre ? { preregistered: pre } : {}) });
      updateLog((l) => ({ ...l, steps: [...l.steps, ...res.steps] }));
      note = res.revoked
        ? "Signed out: the tokens are revoked and forgotten."
        : "Signed out: the authorization server offers no revocation, so the tokens are only forgotten here.";
    } catch (err) {
      const e = toProxyError(err);
      updateLog((l) => withFlowFailure(l, e));
      note = `Signed out here, but revoking the tokens failed (${e.message}); they stay valid until they expire.`;
    }
    keep(null);
    setPhase({ kind: "idle", note });
  }, [server, keep, setLog, updateLog]);

  /** The debugger's last line: the MCP request sent again with the token. */
  const noteRetry = useCallback(
    (retried: NonNullable<OAuthFlowLog["retried"]>) => {
      if (logRef.current) setLog({ ...logRef.current, retried });
    },
    [setLog],
  );

  const token = session?.state.tokens?.access_token;
  const headersFor = useCallback((user: UserHeaders) => withOAuthHeader(user, sessionRef.current?.state), []);
  const signedIn = useMemo(() => (token ? { issuer: session?.issuer } : null), [token, session?.issuer]);
  return {
    session,
    signedIn,
    prompt,
    phase,
    log,
    signIn,
    cancelSignIn,
    dismiss,
    signOut,
    resolveRefusal,
    ensureFresh,
    noteRetry,
    headersFor,
  };
}

export type OAuthController = ReturnType<typeof useOAuth>;
