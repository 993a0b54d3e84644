import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import type { OAuthFlowState } from "../../mcp/oauth-contract.ts";
import { encodeShare, decodeShare } from "../../share/share-codec.ts";
import {
  clearPendingSignIn,
  forgetOAuthSession,
  loadOAuthSession,
  loadPendingSignIn,
  OAUTH_PENDING_TTL_MS,
  parseCallbackQuery,
  preregisteredClient,
  saveCallbackResult,
  saveOAuthSession,
  savePendingSignIn,
  takeCallbackResult,
  withOAuthHeader,
} from "./oauth-session.ts";
import { loadHeaders, saveConnection, saveHeaders } from "../stores/session-store.ts";
import { rememberServer } from "../stores/recent-servers.ts";
import { saveTabs } from "../stores/tabs-store.ts";
import { exportSaved } from "../stores/saved-transfer.ts";
import { maskCode } from "./oauth-flow-log.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";

let session: MemoryStorage;
let local: MemoryStorage;
beforeEach(() => {
  session = new MemoryStorage();
  local = new MemoryStorage();
  Object.assign(globalThis, { sessionStorage: session, localStorage: local });
});

const SERVER = "https://mcp.example/mcp";
const TOKEN = "tok-SECRET-access-4711";
const REFRESH = "tok-SECRET-refresh-0815";
const CLIENT_SECRET = "cs-SECRET-42";
const state: OAuthFlowState = {
  client: { client_id: "client-1", issuer: "https://as.example" },
  tokens: { access_token: TOKEN, refresh_token: REFRESH, expires_in: 60, issuer: "https://as.example" },
  obtainedAt: 1,
};

test("a session lives in sessionStorage unless remembered, then in localStorage only", () => {
  saveOAuthSession(SERVER, { state, remember: false });
  assert.ok(session.getItem("toolscope.oauth.v1")?.includes(TOKEN));
  assert.equal(local.getItem("toolscope.oauth.v1"), null);
  saveOAuthSession(SERVER, { state, remember: true });
  assert.ok(!session.getItem("toolscope.oauth.v1")?.includes(TOKEN), "moved out of sessionStorage");
  assert.ok(local.getItem("toolscope.oauth.v1")?.includes(TOKEN));
  assert.equal(loadOAuthSession(SERVER)?.remember, true);
  forgetOAuthSession(SERVER);
  assert.equal(loadOAuthSession(SERVER), null);
  assert.ok(!local.getItem("toolscope.oauth.v1")?.includes(TOKEN));
});

test("the user's client secret stays in sessionStorage, even for a remembered session", () => {
  saveOAuthSession(SERVER, { state, remember: true, client: { clientId: "mine", authMethod: "client_secret_post" } }, CLIENT_SECRET);
  assert.ok(!local.getItem("toolscope.oauth.v1")?.includes(CLIENT_SECRET));
  assert.deepEqual(preregisteredClient(SERVER, loadOAuthSession(SERVER)), {
    clientId: "mine",
    clientSecret: CLIENT_SECRET,
    authMethod: "client_secret_post",
  });
  forgetOAuthSession(SERVER);
  assert.ok(!session.getItem("toolscope.oauth-secrets.v1")?.includes(CLIENT_SECRET));
});

test("the token is merged over the user's headers at send time, replacing any authorization they typed", () => {
  const user = { authorization: "Bearer typed", "X-Api": "1" };
  const sent = withOAuthHeader(user, state);
  assert.deepEqual(sent, { "X-Api": "1", Authorization: `Bearer ${TOKEN}` });
  assert.deepEqual(user, { authorization: "Bearer typed", "X-Api": "1" }, "the user's headers are not changed");
  assert.equal(withOAuthHeader(user, undefined), user);
});

test("after a sign-in, the token is stored under the OAuth keys only: never in headers, tabs, recent servers, saved exports or share links", () => {
  saveOAuthSession(SERVER, { state, remember: true, client: { clientId: "mine" } }, CLIENT_SECRET);
  saveHeaders(SERVER, { "X-Api": "1" });
  const sent = withOAuthHeader(loadHeaders(SERVER), loadOAuthSession(SERVER)?.state);
  assert.equal(sent.Authorization, `Bearer ${TOKEN}`);
  // What the playground keeps and hands out around a signed-in send (PlaygroundShell, ServerSwitcher, Save, Share).
  saveConnection(SERVER, {
    connection: { v: 1, url: SERVER, era: "modern", protocolVersion: "2026-07-28" },
    server: { era: "modern", protocolVersion: "2026-07-28", supportedVersions: [], capabilities: {}, displayUrl: SERVER },
  } as never);
  rememberServer(local, { url: SERVER, era: "auto", headers: loadHeaders(SERVER) });
  const request = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
  saveTabs(local, { tabs: [{ id: "t", server: SERVER, text: request, response: { result: { tools: [] } } }], activeId: "t" });
  const exported = exportSaved([{ id: "s", name: "n", server: SERVER, request, createdAt: 1, updatedAt: 1 }], new Date(0));
  const shared = decodeShare(encodeShare({ server: SERVER, request }));
  for (const [key, value] of [...session.items, ...local.items]) {
    if (key === "toolscope.oauth.v1" || key === "toolscope.oauth-secrets.v1") continue;
    for (const secret of [TOKEN, REFRESH, CLIENT_SECRET]) assert.ok(!value.includes(secret), `${secret} leaked into ${key}`);
  }
  for (const secret of [TOKEN, REFRESH, CLIENT_SECRET]) {
    assert.ok(!exported.includes(secret));
    assert.ok(!JSON.stringify(shared).includes(secret));
  }
});

test("a pending sign-in expires after OAUTH_PENDING_TTL_MS; a callback result is taken once", () => {
  savePendingSignIn({ server: SERVER, state: { oauthState: "s1" }, remember: false, returnUrl: "/playground", startedAt: 1000 });
  assert.equal(loadPendingSignIn(1000 + OAUTH_PENDING_TTL_MS)?.state.oauthState, "s1");
  assert.equal(loadPendingSignIn(1001 + OAUTH_PENDING_TTL_MS), null);
  clearPendingSignIn();
  assert.equal(loadPendingSignIn(1000), null);
  saveCallbackResult({ code: "c", state: "s1" }, 5);
  assert.deepEqual(takeCallbackResult(6), { code: "c", state: "s1" });
  assert.equal(takeCallbackResult(6), null);
  saveCallbackResult({ code: "c" }, 5);
  assert.equal(takeCallbackResult(6 + OAUTH_PENDING_TTL_MS), null, "stale");
});

test("the callback query: code, state, iss and the error pair", () => {
  assert.deepEqual(parseCallbackQuery("?code=abc&state=s&iss=https%3A%2F%2Fas.example&other=1"), {
    code: "abc",
    state: "s",
    iss: "https://as.example",
  });
  assert.deepEqual(parseCallbackQuery("?error=access_denied&error_description=User+said+no&state=s"), {
    state: "s",
    error: "access_denied",
    errorDescription: "User said no",
  });
});

test("an authorization code is shown masked", () => {
  assert.equal(maskCode("SplxlOBeZQQYbYS6WxSbIA"), "Splx… (22 characters)");
  assert.ok(!maskCode("short").includes("short"));
});
