import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createOAuthRecorder, maskOAuthBody, maskOAuthUrl, stepKindOf } from "./oauth-recorder.ts";

test("token responses keep their shape with every credential masked", () => {
  const masked = maskOAuthBody(
    JSON.stringify({
      access_token: "AT-secret-value",
      refresh_token: "RT-secret-value",
      token_type: "Bearer",
      expires_in: 60,
      scope: "a b",
    }),
  )!;
  assert.doesNotMatch(masked, /secret-value/);
  const parsed = JSON.parse(masked);
  assert.equal(parsed.token_type, "Bearer");
  assert.equal(parsed.expires_in, 60);
  assert.match(parsed.access_token, /15 chars hidden/);
});

test("form bodies mask the code, the verifier, the client secret and a revoked token", () => {
  const masked = maskOAuthBody(
    "grant_type=authorization_code&code=CODE123456&code_verifier=VERIFIER123&client_secret=S3CR3T&client_id=abc",
  )!;
  for (const secret of ["CODE123456", "VERIFIER123", "S3CR3T"]) assert.doesNotMatch(masked, new RegExp(secret));
  assert.match(masked, /grant_type=authorization_code/);
  assert.match(masked, /client_id=abc/);
  assert.doesNotMatch(maskOAuthBody("token=REVOKE-ME&token_type_hint=refresh_token")!, /REVOKE-ME/);
});

test("a callback URL's code is masked, the rest kept", () => {
  const url = maskOAuthUrl("https://toolscope.example/oauth/callback?code=XYZ987&state=s1&iss=https%3A%2F%2Fas");
  assert.doesNotMatch(url, /XYZ987/);
  assert.match(url, /state=s1/);
});

test("steps are named from the address and the body", () => {
  const x = (method: string, url: string, body?: string) => ({
    request: { method, url, headers: [], body },
    startedAt: "",
    durationMs: 0,
  });
  assert.equal(stepKindOf(x("GET", "https://m.example/.well-known/oauth-protected-resource/mcp")), "resource-metadata");
  assert.equal(stepKindOf(x("GET", "https://as.example/.well-known/openid-configuration")), "authorization-server-metadata");
  assert.equal(stepKindOf(x("POST", "https://as.example/token", "grant_type=refresh_token&refresh_token=••••")), "refresh");
  assert.equal(stepKindOf(x("POST", "https://as.example/token", "grant_type=authorization_code&code=••••")), "token");
  assert.equal(stepKindOf(x("POST", "https://as.example/register", '{"redirect_uris":["x"]}')), "registration");
  assert.equal(stepKindOf(x("POST", "https://as.example/revoke", "token=••••&token_type_hint=access_token")), "revocation");
});

test("the recorder records the masked exchange, hands the caller the real answer, and caps what it reads", async () => {
  const big = "x".repeat(1_100_000);
  const server = http.createServer((req, res) => {
    if (req.url === "/big") return res.end(big);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ access_token: "REAL-TOKEN-1234", token_type: "Bearer" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const rec = createOAuthRecorder(fetch, 5_000, new AbortController().signal);
    const res = await rec.fetch(`${base}/token`, { method: "POST", body: "grant_type=authorization_code&code=ONE-TIME-CODE" });
    assert.equal((await res.json()).access_token, "REAL-TOKEN-1234");
    const recorded = JSON.stringify(rec.exchanges);
    assert.doesNotMatch(recorded, /REAL-TOKEN-1234|ONE-TIME-CODE/);
    assert.equal(rec.exchanges[0].response?.status, 200);
    await assert.rejects(rec.fetch(`${base}/big`), /exceeded 1000000 bytes/);
    assert.match(rec.exchanges[1].error ?? "", /exceeded/);
  } finally {
    server.close();
  }
});
