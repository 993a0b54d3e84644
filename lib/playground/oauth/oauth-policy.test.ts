import { test } from "node:test";
import assert from "node:assert/strict";
import type { OAuthChallenge, OAuthFlowState } from "../../mcp/oauth-contract.ts";
import {
  afterDecision,
  decideOnRefusal,
  MAX_STEP_UP_ATTEMPTS,
  needsRefresh,
  NO_ATTEMPTS,
  REFRESH_MARGIN_MS,
  scopeUnion,
  tokenExpiresAt,
  type AuthAttempts,
} from "./oauth-policy.ts";

const signedIn = (extra: Partial<NonNullable<OAuthFlowState["tokens"]>> = {}, rest: Partial<OAuthFlowState> = {}): OAuthFlowState => ({
  tokens: { access_token: "at-1", refresh_token: "rt-1", expires_in: 3600, ...extra },
  obtainedAt: 1_000_000,
  ...rest,
});
const unauthorized: OAuthChallenge = {
  status: 401,
  scheme: "Bearer",
  resourceMetadataUrl: "https://mcp.example/.well-known/oauth-protected-resource",
};

test("expiry: obtainedAt + expires_in; refresh within the margin only, and only with a refresh token", () => {
  const s = signedIn();
  assert.equal(tokenExpiresAt(s), 1_000_000 + 3_600_000);
  const expiry = tokenExpiresAt(s)!;
  assert.equal(needsRefresh(s, expiry - REFRESH_MARGIN_MS - 1), false);
  assert.equal(needsRefresh(s, expiry - REFRESH_MARGIN_MS), true);
  assert.equal(needsRefresh(s, expiry + 5), true);
  assert.equal(needsRefresh(signedIn({ refresh_token: undefined }), expiry), false, "nothing to refresh with");
  assert.equal(needsRefresh(signedIn({ expires_in: undefined }), expiry), false, "no lifetime: never refreshed ahead");
  assert.equal(needsRefresh(undefined), false);
});

test("a short-lived token is refreshed in the second half of its life, not right after sign-in", () => {
  const s = signedIn({ expires_in: 10 });
  const expiry = tokenExpiresAt(s)!;
  assert.equal(needsRefresh(s, 1_000_000), false, "fresh from the token endpoint");
  assert.equal(needsRefresh(s, expiry - 5_001), false);
  assert.equal(needsRefresh(s, expiry - 5_000), true);
});

test("scope union keeps the first order and drops duplicates", () => {
  assert.equal(scopeUnion("read write", "write admin"), "read write admin");
  assert.equal(scopeUnion(undefined, "  admin  "), "admin");
  assert.equal(scopeUnion(undefined, ""), undefined);
});

test("no token: sign in with the challenge's scope, else none (the server picks)", () => {
  const d = decideOnRefusal({ ...unauthorized, scope: "mcp:tools" }, undefined, NO_ATTEMPTS);
  assert.deepEqual(d, {
    kind: "sign-in",
    reason: "no-session",
    request: { resourceMetadataUrl: unauthorized.resourceMetadataUrl, scope: "mcp:tools" },
  });
  const none = decideOnRefusal({ status: 401 }, undefined, NO_ATTEMPTS);
  assert.deepEqual(none, { kind: "sign-in", reason: "no-session", request: {} });
});

test("401 with a token: refresh once, then sign in afresh forgetting discovery, then give up", () => {
  let attempts: AuthAttempts = NO_ATTEMPTS;
  const first = decideOnRefusal(unauthorized, signedIn(), attempts);
  assert.deepEqual(first, { kind: "refresh" });
  attempts = afterDecision(attempts, first);
  const second = decideOnRefusal(unauthorized, signedIn(), attempts);
  assert.equal(second.kind, "sign-in");
  assert.ok(second.kind === "sign-in" && second.reason === "rejected-again");
  assert.deepEqual(second.kind === "sign-in" && second.request.invalidate, ["discovery", "tokens"]);
  attempts = afterDecision(attempts, second);
  assert.equal(decideOnRefusal(unauthorized, signedIn(), attempts).kind, "give-up");
});

test("a 401 right after a first sign-in is not refreshed: the token is fresh, so re-authorize with discovery forgotten", () => {
  const signIn = decideOnRefusal(unauthorized, undefined, NO_ATTEMPTS);
  const attempts = afterDecision(NO_ATTEMPTS, signIn);
  const next = decideOnRefusal(unauthorized, signedIn(), attempts);
  assert.ok(next.kind === "sign-in" && next.reason === "rejected-again");
});

test("401 with a token but no refresh token: sign in again (tokens forgotten)", () => {
  const d = decideOnRefusal(unauthorized, signedIn({ refresh_token: undefined }), NO_ATTEMPTS);
  assert.ok(d.kind === "sign-in" && d.reason === "no-refresh");
  assert.deepEqual(d.kind === "sign-in" && d.request.invalidate, ["tokens"]);
});

test("403 insufficient_scope: step up with the union of the scope asked for and the challenge's, at most MAX_STEP_UP_ATTEMPTS times", () => {
  const challenge: OAuthChallenge = { status: 403, scheme: "Bearer", error: "insufficient_scope", scope: "files:write" };
  let attempts: AuthAttempts = NO_ATTEMPTS;
  const state = signedIn({ scope: "files:read" }, { requestedScope: "files:read profile" });
  for (let i = 0; i < MAX_STEP_UP_ATTEMPTS; i++) {
    const d = decideOnRefusal(challenge, state, attempts);
    assert.equal(d.kind, "sign-in");
    if (d.kind !== "sign-in") return;
    assert.equal(d.reason, "step-up");
    assert.equal(d.request.scope, "files:read profile files:write");
    assert.equal(d.request.forceReauthorization, true);
    attempts = afterDecision(attempts, d);
  }
  const last = decideOnRefusal(challenge, state, attempts);
  assert.equal(last.kind, "give-up");
  assert.match(last.kind === "give-up" ? last.message : "", /MAX_STEP_UP_ATTEMPTS/);
});

test("403 step-up falls back to the granted scope when none was recorded as asked for", () => {
  const d = decideOnRefusal({ status: 403, error: "insufficient_scope", scope: "b" }, signedIn({ scope: "a" }), NO_ATTEMPTS);
  assert.ok(d.kind === "sign-in" && d.request.scope === "a b");
});
