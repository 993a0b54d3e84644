import { test } from "node:test";
import assert from "node:assert/strict";
import type { HttpExchange } from "@/lib/mcp/contract";
import { isSecretHeader, maskHeaders } from "@/lib/mcp/secrets";
import { challengeFrom } from "./oauth-challenge.ts";
import { classifyError } from "./proxy-error.ts";

const RM = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

test("a 401's challenge: scheme, resource_metadata, scope, error and description", () => {
  const c = challengeFrom(401, [
    [
      "WWW-Authenticate",
      `Bearer resource_metadata="${RM}", scope="files:read files:write", error="invalid_token", error_description="expired"`,
    ],
  ]);
  assert.deepEqual(c, {
    status: 401,
    scheme: "Bearer",
    resourceMetadataUrl: RM,
    scope: "files:read files:write",
    error: "invalid_token",
    errorDescription: "expired",
  });
});

test("a 401 without WWW-Authenticate still asks for a sign-in (discovery starts at the well-known places)", () => {
  assert.deepEqual(challengeFrom(401, [["content-type", "application/json"]]), { status: 401 });
});

test("a 403 is a step-up only when it says insufficient_scope; other statuses are no challenge", () => {
  assert.equal(challengeFrom(403, [["www-authenticate", 'Bearer error="invalid_token"']]), undefined);
  assert.equal(challengeFrom(403, []), undefined);
  assert.equal(challengeFrom(500, [["www-authenticate", "Bearer"]]), undefined);
  assert.equal(challengeFrom(403, [["www-authenticate", 'Bearer error="insufficient_scope", scope="a b"']])?.scope, "a b");
});

test("the DPoP scheme's parameters are read too", () => {
  assert.equal(challengeFrom(401, [["www-authenticate", `DPoP resource_metadata="${RM}"`]])?.scheme, "DPoP");
});

test("WWW-Authenticate is shown (it carries no credential); Authorization stays masked", () => {
  assert.equal(isSecretHeader("WWW-Authenticate"), false);
  const masked = maskHeaders([
    ["www-authenticate", `Bearer resource_metadata="${RM}"`],
    ["authorization", "Bearer abcdefghijkl"],
  ]);
  assert.equal(masked[0][1], `Bearer resource_metadata="${RM}"`);
  assert.doesNotMatch(masked[1][1], /abcdefghijkl/);
});

function exchange(status: number, headers: [string, string][]): HttpExchange {
  return {
    request: { method: "POST", url: "https://mcp.example.com/mcp", headers: [] },
    response: { status, statusText: "", headers, sseEvents: [], body: '{"error":"invalid_token"}' },
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
  };
}

test("a refusal with a challenge becomes upstream-auth with the challenge, whatever error the SDK raised", () => {
  const err = classifyError(new Error("Insufficient scope: required mcp:write"), "https://mcp.example.com/mcp", 1000, [
    exchange(403, [["www-authenticate", 'Bearer error="insufficient_scope", scope="mcp:write"']]),
  ]);
  assert.equal(err.kind, "upstream-auth");
  assert.deepEqual(err.detail?.auth, { status: 403, scheme: "Bearer", scope: "mcp:write", error: "insufficient_scope" });
  assert.match(err.message, /more scope/);
  const plain = classifyError(new Error("boom"), "https://mcp.example.com/mcp", 1000, [exchange(403, [])]);
  assert.notEqual(plain.kind, "upstream-auth");
});
