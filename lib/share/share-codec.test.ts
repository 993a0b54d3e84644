import { test } from "node:test";
import assert from "node:assert/strict";
import { deflateSync } from "fflate";
import {
  decodeShare,
  encodeShare,
  isShareFragment,
  MAX_SHARE_DECODED_BYTES,
  shareableServerUrl,
  ShareLinkError,
  shareUrl,
  type SharedExperiment,
} from "./share-codec.ts";

const REQUEST = JSON.stringify(
  {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "search_issues", arguments: { query: "café ✓ \u{1F600}", status: "open" } },
  },
  null,
  2,
);

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

function rejects(fragment: string, reason: string, message?: RegExp) {
  assert.throws(
    () => decodeShare(fragment),
    (err: unknown) => {
      assert.ok(err instanceof ShareLinkError, String(err));
      assert.equal(err.reason, reason, err.message);
      if (message) assert.match(err.message, message);
      return true;
    },
  );
}

test("round trips: request only, with era and server, with a response (unicode intact)", () => {
  const cases: SharedExperiment[] = [
    { server: "builtin:demo", request: REQUEST },
    { server: "https://mcp.example.com/mcp", era: "legacy", request: "{}" },
    {
      server: "http://127.0.0.1:8080/mcp",
      era: "modern",
      request: REQUEST,
      response: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "ünïcödé" }], n: [1, 2.5, null, true] } },
    },
  ];
  for (const exp of cases) {
    const encoded = encodeShare(exp);
    assert.match(encoded, /^v1\.[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeShare(`#${encoded}`), exp);
    assert.deepEqual(decodeShare(encoded), exp);
  }
});

test("only non-defaults are written: the demo server is implied, and the link is short", () => {
  const withDemo = encodeShare({ server: "builtin:demo", request: "{}" });
  const withOther = encodeShare({ server: "https://a.example/mcp", request: "{}" });
  assert.ok(withDemo.length < withOther.length);
  assert.ok(encodeShare({ server: "builtin:demo", request: REQUEST }).length < 260);
  assert.equal(
    shareUrl("https://toolscope.dev/", { server: "builtin:demo", request: "{}" }),
    `https://toolscope.dev/playground#${withDemo}`,
  );
});

test("never carries credentials in the server URL", () => {
  assert.equal(
    shareableServerUrl("https://user:pw@mcp.example.com/mcp?api_key=SECRET&region=eu&token=T&sig=x#frag"),
    "https://mcp.example.com/mcp?region=eu",
  );
  const decoded = decodeShare(encodeShare({ server: "https://u:p@h.example/mcp?access_token=abc", request: "{}" }));
  assert.equal(decoded.server, "https://h.example/mcp");
  assert.ok(!JSON.stringify(decoded).includes("abc"));
  // The shared rule (lib/mcp/secrets.ts): more spellings, and credentials in values and path segments.
  assert.equal(
    shareableServerUrl("https://h.example/mcp?x-api-key=1&clientSecret=2&jwt=3&api%5Fkey=4&q=a%20b"),
    "https://h.example/mcp?q=a%20b",
  );
  assert.equal(shareableServerUrl("https://h.example/mcp?cursor=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig"), "https://h.example/mcp");
  assert.equal(
    shareableServerUrl("https://mcp.zapier.com/api/mcp/s/NzU4ZTk2YjQtYzM2Zi00YmZhLWE4NzUtOWU3MDQ1ZGUxYTFjOjE2Mzk=/mcp"),
    "https://mcp.zapier.com/api/mcp/s/REDACTED/mcp",
  );
  assert.equal(shareableServerUrl("HTTPS://H.Example"), "https://h.example/", "still normalised");
  assert.throws(() => shareableServerUrl("javascript:alert(1)"), ShareLinkError);
  assert.throws(() => shareableServerUrl("file:///etc/passwd"), ShareLinkError);
});

test("rejects junk, unknown versions, damage and bombs with clear errors", () => {
  rejects("#hello", "not-a-share", /not a Toolscope share link/);
  rejects("", "not-a-share");
  rejects("#v2.abc", "unknown-version", /format v2/);
  rejects("#v10.abc", "unknown-version");
  rejects("#v1.", "corrupt", /no data/);
  rejects("#v1.abc$def", "corrupt", /characters/);
  rejects("#v1.a", "corrupt");
  rejects(`#v1.${b64url(new Uint8Array([1, 2, 3, 4, 5, 6]))}`, "corrupt");
  const good = encodeShare({ server: "builtin:demo", request: REQUEST });
  rejects(good.slice(0, good.length - 12), "corrupt");
  rejects(`#v1.${b64url(deflateSync(new TextEncoder().encode("not json")))}`, "corrupt", /not valid JSON/);
  rejects(`#v1.${b64url(deflateSync(new TextEncoder().encode("[1]")))}`, "invalid");
  rejects(`#v1.${b64url(deflateSync(new TextEncoder().encode('{"s":"builtin:demo"}')))}`, "invalid", /no request/);
  rejects(`#v1.${b64url(deflateSync(new TextEncoder().encode('{"r":"{}","e":"future"}')))}`, "invalid", /era/);
  rejects(`#v1.${b64url(deflateSync(new TextEncoder().encode('{"r":"{}","s":"javascript:alert(1)"}')))}`, "invalid");
  // A zip bomb: 20 MB of zeros in a few KB; refused once the output passes the cap, quickly.
  const bomb = b64url(deflateSync(new Uint8Array(20_000_000), { level: 9 }));
  const started = performance.now();
  rejects(`#v1.${bomb}`, "too-large");
  assert.ok(performance.now() - started < 1000, "the bomb is not expanded in full");
  rejects(`#v1.${"A".repeat(200_000)}`, "too-large");
});

test("encoding refuses an experiment larger than a link may carry, and says to drop the response", () => {
  assert.throws(
    () => encodeShare({ server: "builtin:demo", request: "{}", response: { big: "x".repeat(MAX_SHARE_DECODED_BYTES) } }),
    (err: unknown) => err instanceof ShareLinkError && err.reason === "too-large" && /without the response/.test(err.message),
  );
});

test("isShareFragment", () => {
  assert.equal(isShareFragment("#v1.abc"), true);
  assert.equal(isShareFragment("#v3.abc"), true);
  assert.equal(isShareFragment("#section"), false);
});
