/**
 * OAuth for machines through the command line, against the project's own OAuth fixture (oidc-provider as the
 * authorization server, an SDK MCP server that introspects every bearer) with its client credentials clients: one
 * proving itself with a secret (client_secret_basic), one with a key (private_key_jwt). `bin/toolscope.mjs` runs as a
 * child process, as a pipeline runs it, and the fixture's events show what reached either server: the token issued by
 * the client_credentials grant for the MCP server, and that token as the bearer of the MCP requests.
 *
 * Every run is asynchronous (execFile, not execFileSync): the fixture's process must keep answering meanwhile.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createPrivateKey } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lintServer } from "@/lib/docs/lints";
import type { OAuthFixtureEvent } from "@/playwright/fixtures/oauth/oauth-fixture";
import { spawnOAuthFixture, type SpawnedOAuthFixture } from "@/playwright/fixtures/oauth/spawn";
import { EXIT } from "./exit-codes.ts";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The fixture's events during the run. */
  events: OAuthFixtureEvent[];
}

let fixture: SpawnedOAuthFixture;
let dir: string;

before(async () => {
  fixture = await spawnOAuthFixture({ clientCredentials: true });
  dir = mkdtempSync(join(tmpdir(), "toolscope-cli-oauth-"));
});
after(async () => {
  await fixture?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const clients = () => {
  assert.ok(fixture.clientCredentials, "the fixture was started with its client credentials clients");
  return fixture.clientCredentials;
};

/** Every secret of the run so far: the client secret, the private key's base64 lines, each token issued. */
function secrets(): string[] {
  const { basic, privateKeyJwt } = clients();
  const keyLines = privateKeyJwt.privateKeyPem.split("\n").filter((l) => l && !l.startsWith("-----"));
  return [basic.clientSecret, ...keyLines, ...fixture.issuedTokens()];
}

async function toolscope(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const from = fixture.events().length;
  const run = await new Promise<Omit<Run, "events">>((resolve) => {
    execFile(
      process.execPath,
      ["bin/toolscope.mjs", ...args],
      { env: { ...process.env, NODE_OPTIONS: "", NO_COLOR: "1", ...env }, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
  // No secret of the run, nor any token the authorization server issued, is ever printed.
  for (const secret of secrets())
    assert.ok(!`${run.stdout}\n${run.stderr}`.includes(secret), `a secret in the output of toolscope ${args.join(" ")}`);
  return { ...run, events: fixture.events().slice(from) };
}

const ofType = <T extends OAuthFixtureEvent["type"]>(run: Run, type: T) =>
  run.events.filter((e): e is Extract<OAuthFixtureEvent, { type: T }> => e.type === type);

/** The run's one client_credentials token for `clientId`, checked to be for the MCP server. */
function issuedToken(run: Run, clientId: string): string {
  const issued = ofType(run, "tokens");
  assert.equal(issued.length, 1, `one token request answered: ${JSON.stringify(issued)}`);
  const [t] = issued;
  assert.equal(t.grantType, "client_credentials");
  assert.equal(t.clientId, clientId);
  assert.equal(t.resource, fixture.mcpUrl, "the token is for the MCP server (RFC 8707)");
  assert.equal(t.scope, "mcp:read", "the scope of the server's challenge");
  assert.equal(t.refreshToken, undefined, "no refresh token for a machine");
  return t.accessToken;
}

/** The MCP server got `token` as the bearer, and accepted it (introspected active, answered 200). */
function assertBearerReached(run: Run, token: string, clientId: string) {
  const mcpRequests = ofType(run, "request").filter((e) => e.server === "mcp" && e.url === fixture.mcpUrl);
  assert.ok(
    mcpRequests.some((e) => e.headers.authorization === `Bearer ${token}`),
    `the MCP server received the bearer:\n${fixture.mcpLog()}`,
  );
  for (const e of mcpRequests) assert.ok(!e.headers.authorization || e.headers.authorization === `Bearer ${token}`, "no other credential");
  assert.ok(ofType(run, "introspection").some((e) => e.active && e.clientId === clientId));
  assert.ok(ofType(run, "response").some((e) => e.server === "mcp" && e.url === fixture.mcpUrl && e.status === 200));
}

const tokenRequests = (run: Run) => ofType(run, "request").filter((e) => e.server === "as" && new URL(e.url).pathname === "/token");

const toolNames = (snapshotJson: string): string[] => JSON.parse(snapshotJson).list.tools.map((t: { name: string }) => t.name);

/** The text of a `call` result. */
const resultText = (stdout: string): string => JSON.parse(stdout).result.content[0].text;

describe("toolscope with client credentials against the OAuth fixture", () => {
  test("client_secret_basic: snapshot, lint and call whoami; the token then works as --bearer-env", { timeout: 180_000 }, async () => {
    const { basic } = clients();
    const flags = ["--client-id", basic.clientId, "--client-secret-env", "TOOLSCOPE_TEST_CC_SECRET"];
    const env = { TOOLSCOPE_TEST_CC_SECRET: basic.clientSecret };

    const snap = await toolscope(["snapshot", fixture.mcpUrl, ...flags], env);
    assert.equal(snap.code, EXIT.ok, snap.stderr);
    assert.deepEqual(toolNames(snap.stdout), ["whoami", "write_note"]);
    assert.match(snap.stderr, /the server wants a token: client credentials grant for machine-basic/);
    // Unpinned, the command says which authorization server got the credentials and the flag that pins it.
    assert.match(snap.stderr, new RegExp(`pass --auth-issuer ${fixture.issuer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} `));
    assert.doesNotMatch(snap.stderr, /\[mcp-sdk\]/, "the SDK's console warnings pass through the command's output");
    const token = issuedToken(snap, basic.clientId);
    assertBearerReached(snap, token, basic.clientId);
    // Basic authentication at the token endpoint, the secret in no URL.
    const [tokenRequest] = tokenRequests(snap);
    assert.match(tokenRequest.headers.authorization ?? "", /^Basic /);

    const lint = await toolscope(["lint", fixture.mcpUrl, ...flags, "--format", "json", "-q"], env);
    assert.equal(lint.code, EXIT.ok, lint.stderr);
    assert.equal(lint.stderr, "", "--quiet: nothing on stderr, the grant's notes included");
    // The docs' lints of what the snapshot saw, with the list's cache hints as the command passes them.
    const saw = JSON.parse(snap.stdout);
    const expected = lintServer(saw.list.tools, { ttlMs: saw.list.ttlMs, cacheScope: saw.list.cacheScope, era: saw.server.era });
    assert.deepEqual(JSON.parse(lint.stdout).summary, expected.summary);
    assertBearerReached(lint, issuedToken(lint, basic.clientId), basic.clientId);

    const call = await toolscope(["call", fixture.mcpUrl, "--tool", "whoami", ...flags, "-q"], env);
    assert.equal(call.code, EXIT.ok, call.stderr);
    assert.match(resultText(call.stdout), /client_id=machine-basic scopes=mcp:read/);
    assertBearerReached(call, issuedToken(call, basic.clientId), basic.clientId);

    // The first run's token, given as a pipeline would give one it got elsewhere: no grant this time.
    const bearer = await toolscope(["call", fixture.mcpUrl, "--tool", "whoami", "--bearer-env", "TOOLSCOPE_TEST_BEARER", "-q"], {
      TOOLSCOPE_TEST_BEARER: token,
    });
    assert.equal(bearer.code, EXIT.ok, bearer.stderr);
    assert.match(resultText(bearer.stdout), /client_id=machine-basic/);
    assert.deepEqual(ofType(bearer, "tokens"), [], "no token request");
    assertBearerReached(bearer, token, basic.clientId);
  });

  test("private_key_jwt: the key from a file and, as SEC1, from the environment", { timeout: 180_000 }, async () => {
    const { privateKeyJwt } = clients();
    const keyFile = join(dir, "machine-key.pem");
    writeFileSync(keyFile, privateKeyJwt.privateKeyPem, { mode: 0o600 });

    const snap = await toolscope(["snapshot", fixture.mcpUrl, "--client-id", privateKeyJwt.clientId, "--private-key-file", keyFile, "-q"]);
    assert.equal(snap.code, EXIT.ok, snap.stderr);
    assert.equal(snap.stderr, "");
    assert.deepEqual(toolNames(snap.stdout), ["whoami", "write_note"]);
    const token = issuedToken(snap, privateKeyJwt.clientId);
    assertBearerReached(snap, token, privateKeyJwt.clientId);
    // The client proves itself with a signed assertion in the body, not with Basic.
    assert.equal(tokenRequests(snap)[0].headers.authorization, undefined);

    const lint = await toolscope(["lint", fixture.mcpUrl, "--client-id", privateKeyJwt.clientId, "--private-key-file", keyFile, "-q"]);
    assert.equal(lint.code, EXIT.ok, lint.stderr);
    assertBearerReached(lint, issuedToken(lint, privateKeyJwt.clientId), privateKeyJwt.clientId);

    // The same key as a SEC1 PEM ("EC PRIVATE KEY"), which the flag's usage error accepts, with the algorithm named.
    const sec1 = createPrivateKey(privateKeyJwt.privateKeyPem).export({ format: "pem", type: "sec1" }).toString();
    const call = await toolscope(
      [
        ...["call", fixture.mcpUrl, "--tool", "whoami", "--client-id", privateKeyJwt.clientId],
        ...["--private-key-env", "TOOLSCOPE_TEST_KEY", "--signing-alg", privateKeyJwt.algorithm],
      ],
      { TOOLSCOPE_TEST_KEY: sec1 },
    );
    assert.equal(call.code, EXIT.ok, call.stderr);
    assert.match(resultText(call.stdout), /client_id=machine-jwt scopes=mcp:read/);
    assertBearerReached(call, issuedToken(call, privateKeyJwt.clientId), privateKeyJwt.clientId);
    for (const line of sec1.split("\n").filter((l) => l && !l.startsWith("-----")))
      assert.ok(!(call.stdout + call.stderr).includes(line), "the key never printed");
  });

  test("a wrong secret exits 4 with one line saying what to change; nothing reaches the MCP server", { timeout: 60_000 }, async () => {
    const { basic } = clients();
    const wrong = "not-the-client-secret-4f1e";
    const run = await toolscope(
      ["snapshot", fixture.mcpUrl, "--client-id", basic.clientId, "--client-secret-env", "TOOLSCOPE_TEST_CC_SECRET", "-q"],
      { TOOLSCOPE_TEST_CC_SECRET: wrong },
    );
    assert.equal(run.code, EXIT.auth, run.stderr);
    assert.equal(run.stdout, "");
    const lines = run.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2, `the error and its hint, nothing else:\n${run.stderr}`);
    assert.match(lines[0], /^toolscope: error: The client credentials grant for machine-basic failed: .*client authentication failed/);
    assert.match(lines[1], /^ {2}Check the client id and its secret or key/);
    assert.ok(!run.stderr.includes(wrong), "the wrong secret is masked too");
    assert.deepEqual(ofType(run, "tokens"), [], "no token issued");
    assert.ok(tokenRequests(run).length > 0, "the token endpoint was asked");
    assert.ok(
      ofType(run, "request").every((e) => e.server !== "mcp" || !e.headers.authorization),
      "the MCP server never got a credential",
    );
  });

  test("--auth-issuer: the fixture's issuer is accepted; another is refused before the secret is sent", { timeout: 60_000 }, async () => {
    const { basic } = clients();
    const flags = ["--client-id", basic.clientId, "--client-secret-env", "TOOLSCOPE_TEST_CC_SECRET"];
    const env = { TOOLSCOPE_TEST_CC_SECRET: basic.clientSecret };

    const pinned = await toolscope(["call", fixture.mcpUrl, "--tool", "whoami", ...flags, "--auth-issuer", fixture.issuer], env);
    assert.equal(pinned.code, EXIT.ok, pinned.stderr);
    assert.doesNotMatch(pinned.stderr, /pass --auth-issuer/, "already pinned");
    assertBearerReached(pinned, issuedToken(pinned, basic.clientId), basic.clientId);

    const other = "http://127.0.0.1:9";
    const refused = await toolscope(["snapshot", fixture.mcpUrl, ...flags, "--auth-issuer", other, "-q"], env);
    assert.equal(refused.code, EXIT.auth, refused.stderr);
    assert.equal(refused.stdout, "");
    const lines = refused.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 2, refused.stderr);
    assert.match(lines[0], /^toolscope: error: The client credentials grant for machine-basic failed: .*mismatch/i);
    assert.match(lines[1], /other than --auth-issuer http:\/\/127\.0\.0\.1:9, so the credentials were not sent\. Check --auth-issuer\./);
    assert.deepEqual(tokenRequests(refused), [], "the token endpoint was never asked");
    assert.deepEqual(ofType(refused, "tokens"), []);
  });
});
