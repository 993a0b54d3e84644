import { test } from "node:test";
import assert from "node:assert/strict";
import { isSecretHeader, isSecretParamName, looksLikeSecretValue, maskHeaders, redactServerUrl } from "./secrets.ts";

test("credentials are masked, keeping only the scheme and length", () => {
  const out = maskHeaders([
    ["Authorization", "Bearer abc123"],
    ["Mcp-Method", "tools/call"],
    ["X-My-Token", "t"],
  ]);
  assert.deepEqual(out, [
    ["Authorization", "Bearer •••• (6 chars hidden)"],
    ["Mcp-Method", "tools/call"],
    ["X-My-Token", "•••• (1 chars hidden)"],
  ]);
  assert.ok(!JSON.stringify(out).includes("abc123"));
});

test("user-declared secret header names are masked too", () => {
  assert.equal(isSecretHeader("X-Tenant", ["x-tenant"]), true);
  assert.equal(isSecretHeader("Mcp-Session-Id"), false);
});

const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

test("redactServerUrl drops credentials: user:password, fragment, secret-named parameters", () => {
  assert.equal(
    redactServerUrl("https://user:pw@mcp.example.com/mcp?api_key=SECRET&region=eu&token=T&sig=x#frag"),
    "https://mcp.example.com/mcp?region=eu",
  );
  assert.equal(redactServerUrl("https://mcp.example.com/mcp#access_token=abc"), "https://mcp.example.com/mcp");
  assert.equal(redactServerUrl("https://:pw@mcp.example.com/mcp"), "https://mcp.example.com/mcp");
});

test("redactServerUrl: names that hide a credential, however spelled", () => {
  const names = [
    "access_token",
    "x-api-key",
    "apiKey",
    "API_KEY",
    "client_secret",
    "clientSecret",
    "sig",
    "X-Amz-Signature",
    "X-Amz-Credential",
    "jwt",
    "bearer",
    "pass",
    "passwd",
    "private",
    "private_token",
    "sessionId",
    "sid",
    "code",
    "auth",
    "SAMLResponse",
    "ticket",
    "subscription-key",
    "api%5Fkey",
    "%2574oken",
    "ｔｏｋｅｎ",
    "a%20pi-key",
  ];
  for (const name of names) {
    assert.equal(isSecretParamName(name), true, name);
    assert.equal(redactServerUrl(`https://h.example/mcp?${name}=v4lue&region=eu`), "https://h.example/mcp?region=eu", name);
  }
  for (const name of ["region", "q", "page", "limit", "format", "lang", "cursor", "side", "ssid", "version", "tenant"])
    assert.equal(isSecretParamName(name), false, name);
});

test("redactServerUrl: values that are credentials whatever the name, in the query or the path", () => {
  for (const value of [
    JWT,
    "sk-proj-abcDEF123456ghiJKL7890",
    "sk_live_51HqLyjWDarjtT1zdp7dc",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    "AKIAIOSFODNN7EXAMPLE",
    "xoxb-1234-5678-abcdefghij",
    "d41d8cd98f00b204e9800998ecf8427e",
    "k9Fh2LmQ8vXz1PbN3RtY",
  ]) {
    assert.equal(looksLikeSecretValue(value), true, value);
    assert.equal(
      redactServerUrl(`https://h.example/mcp?region=eu&v=${encodeURIComponent(value)}`),
      "https://h.example/mcp?region=eu",
      value,
    );
    assert.equal(redactServerUrl(`https://h.example/mcp?${value}`), "https://h.example/mcp", `nameless ${value}`);
  }
  assert.equal(
    redactServerUrl("https://mcp.zapier.com/api/mcp/s/NzU4ZTk2YjQtYzM2Zi00YmZhLWE4NzUtOWU3MDQ1ZGUxYTFjOjE2Mzk=/mcp"),
    "https://mcp.zapier.com/api/mcp/s/REDACTED/mcp",
  );
  assert.equal(redactServerUrl(`https://h.example/${JWT}/sse`), "https://h.example/REDACTED/sse");
  // Identifiers, versions, slugs and words are not secrets.
  for (const value of [
    "123e4567-e89b-12d3-a456-426614174000",
    "2025-06-18",
    "release-2024-01-02-notes-and-more-things",
    "myServerVersion2Release",
    "sk-learn-tutorial-basics",
    "eu-west-1",
    "v1",
    "mcp",
  ]) {
    assert.equal(looksLikeSecretValue(value), false, value);
  }
  assert.equal(
    redactServerUrl("https://h.example/t/123e4567-e89b-12d3-a456-426614174000/mcp?since=2025-06-18"),
    "https://h.example/t/123e4567-e89b-12d3-a456-426614174000/mcp?since=2025-06-18",
  );
});

test("redactServerUrl keeps harmless parameters byte for byte, and unchanged URLs exactly as given", () => {
  assert.equal(
    redactServerUrl("https://h.example/mcp?q=a%20b+c&token=x&tags=a,b&empty="),
    "https://h.example/mcp?q=a%20b+c&tags=a,b&empty=",
  );
  assert.equal(redactServerUrl("https://h.example/mcp?a=1;token=x;b=2"), "https://h.example/mcp?a=1&b=2");
  for (const url of [
    "HTTPS://Example.COM",
    "https://h.example/mcp?region=eu",
    "http://127.0.0.1:8080/mcp",
    "builtin:demo",
    "stdio:my.server_2",
    "",
  ])
    assert.equal(redactServerUrl(url), url);
});

test("redactServerUrl cleans text that is not a URL with a host, as far as it has URL parts", () => {
  assert.equal(redactServerUrl("mcp.example.com/mcp?token=x&a=1#f"), "mcp.example.com/mcp?a=1");
  assert.equal(redactServerUrl("user:pw@mcp.example.com/mcp"), "mcp.example.com/mcp");
  assert.equal(redactServerUrl("localhost:3000/mcp?api_key=x"), "localhost:3000/mcp");
  assert.equal(redactServerUrl("stdio:name?token=x"), "stdio:name");
});
