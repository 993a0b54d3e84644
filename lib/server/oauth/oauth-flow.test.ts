import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import net from "node:net";
import { spawnOAuthFixture, type SpawnedOAuthFixture } from "../../../playwright/fixtures/oauth/spawn.ts";
import { signInOverHttp } from "../../../playwright/fixtures/oauth/sign-in-driver.ts";
import type { OAuthAuthorizeRequest, OAuthAuthorizeResponse } from "@/lib/mcp/oauth-contract";
import { config } from "../platform/config.ts";
import { authorize, type OAuthRunContext } from "./oauth-flow.ts";
import { revoke } from "./oauth-revoke.ts";
import { ProxyError } from "../../upstream/errors/proxy-error.ts";

process.env.TOOLSCOPE_MODE = "local";

/** A loopback port nothing listens on (taken, then freed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * POST /api/oauth/authorize's core against a real authorization server (oidc-provider, the e2e fixture) and a
 * protected SDK server: discovery, registration, the authorization URL, the callback, the token exchange, refresh,
 * and the checks that must refuse (a foreign state).
 */
const ORIGIN = "http://127.0.0.1:9";
let fixture: SpawnedOAuthFixture;
const ctx = (): OAuthRunContext => ({ config: config(), origin: ORIGIN, signal: new AbortController().signal });

describe("the OAuth flow core", () => {
  before(async () => {
    fixture = await spawnOAuthFixture({});
  });
  after(async () => {
    await fixture?.stop();
  });

  async function signIn(req: OAuthAuthorizeRequest = { url: fixture.mcpUrl, scope: "mcp:read" }): Promise<OAuthAuthorizeResponse> {
    const start = await authorize(req, ctx());
    assert.equal(start.outcome, "redirect");
    const { callback } = await signInOverHttp(new URL(start.authorizationUrl!), start.redirectUri, "Approve");
    const q = callback.searchParams;
    return authorize(
      {
        url: fixture.mcpUrl,
        state: start.state,
        callback: { code: q.get("code")!, state: q.get("state")!, ...(q.has("iss") ? { iss: q.get("iss")! } : {}) },
      },
      ctx(),
    );
  }

  test("the first step discovers, registers and returns an authorization URL with PKCE S256, resource and state", async () => {
    const res = await authorize({ url: fixture.mcpUrl, scope: "mcp:read" }, ctx());
    assert.equal(res.outcome, "redirect");
    assert.equal(res.redirectUri, `${ORIGIN}/oauth/callback`);
    assert.equal(res.clientIdentity, "dynamic-registration");
    const url = new URL(res.authorizationUrl!);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.equal(url.searchParams.get("resource"), fixture.mcpUrl);
    // SEP-2207: offline_access is added when the authorization server offers it, for a refresh token.
    assert.equal(url.searchParams.get("scope"), "mcp:read offline_access");
    assert.equal(url.searchParams.get("state"), res.state.oauthState);
    assert.ok(res.state.codeVerifier && res.state.client?.client_id);
    assert.deepEqual(
      res.steps.map((s) => s.kind),
      ["resource-metadata", "authorization-server-metadata", "registration", "authorization-request"],
    );
    assert.ok(res.steps.every((s) => s.ok));
    // Dynamic Client Registration is deprecated in 2026-07-28: the step that used it says so, with the way out.
    const registration = res.steps.find((s) => s.kind === "registration")!;
    assert.ok(
      registration.checks.some((c) => /Dynamic Client Registration is deprecated since 2026-07-28 .*Client ID Metadata Documents/.test(c)),
      registration.checks.join("\n"),
    );
    assert.ok(!res.steps.find((s) => s.kind === "resource-metadata")!.checks.some((c) => /deprecated/.test(c)));
  });

  test("the callback step redeems the code: tokens in the state, none in the recorded steps", async () => {
    const done = await signIn();
    assert.equal(done.outcome, "authorized");
    const token = done.state.tokens!.access_token;
    assert.ok(fixture.issuedTokens().includes(token));
    assert.equal(done.state.codeVerifier, undefined, "the verifier is dropped once used");
    const recorded = JSON.stringify(done.steps);
    for (const secret of fixture.issuedTokens()) assert.ok(!recorded.includes(secret), "a token in the recorded steps");
    assert.ok(done.steps.some((s) => s.kind === "callback") && done.steps.some((s) => s.kind === "token"));
    const res = await fetch(fixture.mcpUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.notEqual(res.status, 401, "the token opens the protected server");
  });

  test("with a refresh token, the step refreshes without the user", async () => {
    const done = await signIn();
    assert.ok(done.state.tokens?.refresh_token, "the fixture issues refresh tokens");
    const again = await authorize({ url: fixture.mcpUrl, state: done.state }, ctx());
    assert.equal(again.outcome, "authorized");
    assert.notEqual(again.state.tokens!.access_token, done.state.tokens!.access_token);
    assert.ok(again.steps.some((s) => s.kind === "refresh" && s.ok));
  });

  test("a callback whose state is not the request's is refused at the callback step, before any token request", async () => {
    const start = await authorize({ url: fixture.mcpUrl, scope: "mcp:read" }, ctx());
    const before = fixture.eventsOf("tokens").length;
    await assert.rejects(
      authorize({ url: fixture.mcpUrl, state: start.state, callback: { code: "whatever", state: "forged" } }, ctx()),
      (err: unknown) => err instanceof ProxyError && err.kind === "oauth-flow" && err.detail?.oauth?.failedStep === "callback",
    );
    assert.equal(fixture.eventsOf("tokens").length, before);
  });

  test("an authorization server that cannot be reached is named, with the reason in words", async () => {
    const closed = await closedPort();
    await assert.rejects(authorize({ url: `http://127.0.0.1:${closed}/mcp` }, ctx()), (err: unknown) => {
      assert.ok(err instanceof ProxyError && err.kind === "oauth-flow");
      assert.match(
        err.message,
        new RegExp(`^Sign-in failed at Protected Resource Metadata: Nothing is listening at http://127\\.0\\.0\\.1:${closed}/`),
      );
      assert.equal(err.detail?.oauth?.failedStep, "resource-metadata");
      return true;
    });
  });

  test("sign out revokes the refresh and access tokens at the revocation endpoint", async () => {
    const done = await signIn();
    const res = await revoke({ url: fixture.mcpUrl, state: done.state }, ctx());
    assert.equal(res.revoked, true);
    const revoked = fixture.eventsOf("revocation").map((e) => e.token);
    assert.ok(revoked.includes(done.state.tokens!.access_token));
    assert.ok(res.steps.some((s) => s.kind === "revocation"));
  });
});
