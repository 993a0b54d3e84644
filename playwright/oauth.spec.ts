import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { startApp, type AppInstance } from "./fixtures/app-instance";
import { spawnOAuthFixture, type SpawnedOAuthFixture } from "./fixtures/oauth/spawn";
import type { OAuthFixtureOptions } from "./fixtures/oauth/oauth-fixture";
import { expectEditor, send, setRequest, shootSizes } from "./helpers";
import { expect, test as base } from "./test";

/**
 * Sign-in to a real OAuth-protected MCP server from the playground: an oidc-provider authorization server and an
 * SDK MCP server behind bearer auth (playwright/fixtures/oauth), a Toolscope of its own whose log and data folder
 * are searched afterwards for every token the authorization server issued.
 *
 * Toolscope's Client ID Metadata Document URL must be https; the e2e app is http. Its CIMD URL is set to an https
 * name, and the authorization server is told to fetch that origin's documents from the app (`cimdFetchFrom`), the
 * way a DNS entry would: the document it reads is the app's own /oauth/client-metadata.json.
 */
const CIMD_ORIGIN = "https://toolscope.test";
/** Where the DCR test saves screenshots of the sign-in panel and the debugger ($OAUTH_SHOTS_DIR). */
const SHOTS = process.env.OAUTH_SHOTS_DIR ?? "test-results/oauth";
const CIMD_URL = `${CIMD_ORIGIN}/oauth/client-metadata.json`;

interface OAuthWorld {
  app: AppInstance;
  /** Starts an authorization server + protected MCP server pair; stopped after the test. */
  startServer(options?: OAuthFixtureOptions): Promise<SpawnedOAuthFixture>;
}

const test = base.extend<{ oauth: OAuthWorld }>({
  oauth: async ({}, provide, testInfo) => {
    const dataDir = mkdtempSync(join(tmpdir(), "toolscope-oauth-"));
    const app = await startApp(
      { TOOLSCOPE_MODE: "local", TOOLSCOPE_DATA_DIR: dataDir, TOOLSCOPE_OAUTH_CLIENT_METADATA_URL: CIMD_URL },
      { publicUrlIsSelf: true },
    );
    const servers: SpawnedOAuthFixture[] = [];
    try {
      await provide({
        app,
        startServer: async (options = {}) => {
          const server = await spawnOAuthFixture({ cimdFetchFrom: { [CIMD_ORIGIN]: app.url }, ...options });
          servers.push(server);
          return server;
        },
      });
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await app.stop();
    }
    // Kept beside the test's other results (trace, screenshot): what both servers saw, and Toolscope's log.
    servers.forEach((s, i) => writeFileSync(testInfo.outputPath(`oauth-fixture-${i}-events.json`), JSON.stringify(s.events(), null, 1)));
    writeFileSync(testInfo.outputPath("toolscope.log"), app.log());
    for (const s of servers) expect(s.eventsOf("error"), "errors in the OAuth fixture").toEqual([]);
    // No token the authorization server issued is in Toolscope's log or its data folder (snapshots, WAL).
    const tokens = servers.flatMap((s) => s.issuedTokens());
    const log = app.log();
    for (const token of tokens) expect(log.includes(token), "a token in Toolscope's log").toBe(false);
    for (const f of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, f)).toString("latin1");
      for (const token of tokens) expect(bytes.includes(token), `a token in ${f}`).toBe(false);
    }
    rmSync(dataDir, { recursive: true, force: true });
    // The search looked at a real log: the sign-in went through Toolscope's server.
    if (tokens.length) expect(log).toMatch(/route=\/api\/oauth\/authorize status=200/);
  },
});

/** Open the playground on the protected server: the sign-in panel comes up instead of a connection. */
async function openProtected(page: Page, app: AppInstance, server: SpawnedOAuthFixture) {
  await page.goto(`${app.url}/playground?${new URLSearchParams({ server: server.mcpUrl })}`);
  await expect(page.getByRole("heading", { name: "This server needs sign-in" })).toBeVisible({ timeout: 30_000 });
}

/** Sign in, press a button on the authorization server's page in the popup, and return that popup. */
async function signInWithPopup(page: Page, button: "Approve" | "Deny") {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const popup = await popupOpened;
  await expect(popup.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await popup.getByRole("button", { name: button }).click();
  return popup;
}

async function approveAndWaitClosed(page: Page) {
  const popup = await signInWithPopup(page, "Approve");
  const closed = popup.waitForEvent("close");
  await expect(popup.getByRole("heading", { name: /Signed in/ })).toBeVisible();
  await closed;
  return popup;
}

async function callTool(page: Page, name: string, args: Record<string, unknown> = {}) {
  await expectEditor(page);
  await setRequest(page, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }));
  await send(page);
}

/** tools/list straight to the MCP server with a given token (not through Toolscope). */
function rawToolsList(server: SpawnedOAuthFixture, token: string) {
  return fetch(server.mcpUrl, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
}

const result = (page: Page) => page.getByTestId("rendered-result");

test("CIMD: the authorization server reads Toolscope's client metadata document; sign in through the popup, then whoami", async ({
  page,
  oauth,
}) => {
  const server = await oauth.startServer({ cimd: true });
  await openProtected(page, oauth.app, server);
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const popup = await popupOpened;
  // The consent page names the client: Toolscope's CIMD URL, with the name from the document.
  await expect(popup.getByTestId("client-id")).toHaveText(CIMD_URL);
  await expect(popup.getByRole("heading", { name: "Authorize Toolscope" })).toBeVisible();
  await expect(popup.getByTestId("resource")).toHaveText(server.mcpUrl);
  const closed = popup.waitForEvent("close");
  await popup.getByRole("button", { name: "Approve" }).click();
  await expect(popup.getByRole("heading", { name: /Signed in/ })).toBeVisible();
  await closed;

  await callTool(page, "whoami");
  await expect(result(page)).toContainText("sub=alice");
  await expect(result(page)).toContainText(`client_id=${CIMD_URL}`);
  expect(server.eventsOf("registration"), "no dynamic registration").toEqual([]);
  // The fixture fetches the document at each look-up of the client (it keeps no cache): every fetch read it well.
  const documents = server.eventsOf("client-metadata-document").filter((e) => e.status !== 0);
  expect(documents.length).toBeGreaterThan(0);
  expect(new Set(documents.map((e) => JSON.stringify([e.url, e.status, e.error ?? null])))).toEqual(
    new Set([JSON.stringify([CIMD_URL, 200, null])]),
  );
  expect(server.eventsOf("tokens").map((e) => [e.grantType, e.clientId])).toEqual([["authorization_code", CIMD_URL]]);
});

test("DCR: without CIMD Toolscope registers, signs in, calls whoami; the OAuth debugger lists the steps", async ({ page, oauth }) => {
  const server = await oauth.startServer();
  await openProtected(page, oauth.app, server);
  await shootSizes(page, SHOTS, "sign-in-panel");
  await approveAndWaitClosed(page);
  await callTool(page, "whoami");
  await expect(result(page)).toContainText("sub=alice");
  await shootSizes(page, SHOTS, "signed-in");
  const registrations = server.eventsOf("registration");
  expect(registrations).toHaveLength(1);
  expect(registrations[0].metadata.redirect_uris).toEqual([`${oauth.app.url}/oauth/callback`]);
  expect(server.eventsOf("client-metadata-document")).toEqual([]);
  // The token asked for the challenge's scope and this server as its resource.
  const consent = server.eventsOf("consent");
  expect(consent.map((c) => [c.decision, c.resource])).toEqual([["approve", server.mcpUrl]]);
  expect(consent[0].scope.split(" ")).toContain("mcp:read");
  expect(consent[0].scope.split(" ")).not.toContain("mcp:write");

  await page.getByRole("button", { name: "OAuth debugger" }).click();
  const dialog = page.getByRole("dialog", { name: "OAuth debugger" });
  await expect(dialog).toBeVisible();
  await shootSizes(page, SHOTS, "debugger");
  for (const step of [
    "Protected resource metadata",
    "Authorization server metadata",
    "Client registration",
    "Authorization request",
    "Callback",
    "Token request",
  ])
    await expect(dialog.getByText(new RegExp(`^${step}: `)).first()).toBeVisible();
  // Masked: no token in the debugger.
  const text = await dialog.innerText();
  for (const token of server.issuedTokens()) expect(text).not.toContain(token);
});

test("refresh: after the access token expires a call still works, through a refresh the debugger shows", async ({ page, oauth }) => {
  // 3 s tokens: well inside Toolscope's refresh margin (60 s), so it refreshes before sending once a token is old.
  const server = await oauth.startServer({ accessTokenTtl: 3 });
  await openProtected(page, oauth.app, server);
  await approveAndWaitClosed(page);
  const [first] = server.eventsOf("tokens");
  expect(first.grantType).toBe("authorization_code");
  expect(first.refreshToken).toBeTruthy();
  await page.waitForTimeout(4_000);
  // The first access token has expired for real: the MCP server refuses it now.
  expect((await rawToolsList(server, first.accessToken)).status).toBe(401);
  await callTool(page, "whoami");
  await expect(result(page)).toContainText("sub=alice");
  const grants = server.eventsOf("tokens").map((e) => e.grantType);
  expect(grants[0]).toBe("authorization_code");
  expect(grants.slice(1).length).toBeGreaterThan(0);
  expect(new Set(grants.slice(1))).toEqual(new Set(["refresh_token"]));
  // The call that worked carried a refreshed token.
  const refreshed = server.eventsOf("tokens").at(-1)!.accessToken;
  const lastCall = server
    .eventsOf("request")
    .filter((e) => e.server === "mcp" && e.headers.authorization)
    .at(-1);
  expect(lastCall?.headers.authorization).toBe(`Bearer ${refreshed}`);
  await page.getByRole("button", { name: "OAuth debugger" }).click();
  await expect(
    page
      .getByRole("dialog", { name: "OAuth debugger" })
      .getByText(/^Token refresh: /)
      .first(),
  ).toBeVisible();
});

test("step-up: write_note is refused for mcp:read, sign-in again asks for mcp:write, then it works", async ({ page, oauth }) => {
  const server = await oauth.startServer();
  await openProtected(page, oauth.app, server);
  await approveAndWaitClosed(page);
  await callTool(page, "write_note", { text: "from the playground" });
  // 403 insufficient_scope: sign-in again, with the wider scope the challenge named.
  await expect(page.getByRole("heading", { name: "This server needs sign-in" })).toBeVisible();
  await expect(page.getByTestId("oauth-challenge")).toContainText("insufficient_scope");
  await expect(page.getByRole("textbox", { name: "Scope" })).toHaveValue(/mcp:write/);
  await approveAndWaitClosed(page);
  await expect(result(page)).toContainText("Saved note: from the playground");
  const consents = server.eventsOf("consent");
  expect(consents).toHaveLength(2);
  expect(consents[1].scope.split(" ")).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
  const denied = server.eventsOf("response").filter((e) => e.server === "mcp" && e.status === 403);
  expect(denied.length).toBeGreaterThan(0);
});

test("denied consent: access_denied is shown and nothing is signed in", async ({ page, oauth }) => {
  const server = await oauth.startServer();
  await openProtected(page, oauth.app, server);
  const popup = await signInWithPopup(page, "Deny");
  await expect(popup.getByRole("heading", { name: "Sign-in failed" })).toBeVisible();
  await expect(popup.getByText("access_denied")).toBeVisible();
  await expect(page.getByText(/access_denied/).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
  expect(server.eventsOf("tokens")).toEqual([]);
  expect(server.eventsOf("consent").map((c) => c.decision)).toEqual(["deny"]);
});

test("Sign out revokes the token at the authorization server and forgets it", async ({ page, oauth }) => {
  const server = await oauth.startServer();
  await openProtected(page, oauth.app, server);
  await approveAndWaitClosed(page);
  await callTool(page, "whoami");
  await expect(result(page)).toContainText("sub=alice");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  await expect.poll(() => server.eventsOf("revocation").length).toBeGreaterThan(0);
  const issued = server.issuedTokens();
  for (const r of server.eventsOf("revocation")) {
    expect(r.status).toBe(200);
    expect(issued).toContain(r.token);
  }
  // The revoked token no longer works at the MCP server.
  const [{ accessToken }] = server.eventsOf("tokens");
  expect((await rawToolsList(server, accessToken)).status).toBe(401);
});
