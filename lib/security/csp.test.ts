import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { contentSecurityPolicy, newNonce, SECURITY_HEADERS, strictTransportSecurity } from "./csp.ts";

/** The policy as directive name → source list; fails on a directive given twice (browsers ignore the second). */
function parse(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    assert.equal(out.has(name.toLowerCase()), false, `directive ${name} appears twice`);
    out.set(name.toLowerCase(), sources);
  }
  return out;
}

const NONCE = "AAECAwQFBgcICQoLDA0ODw==";

describe("contentSecurityPolicy", () => {
  const csp = parse(contentSecurityPolicy({ nonce: NONCE }));

  test("default-src is 'self' only", () => {
    assert.deepEqual(csp.get("default-src"), ["'self'"]);
  });

  test("script-src carries the nonce, never 'unsafe-inline' or a scheme/host wildcard", () => {
    const scripts = csp.get("script-src");
    assert.ok(scripts, "script-src is set");
    assert.ok(scripts.includes(`'nonce-${NONCE}'`), scripts.join(" "));
    assert.ok(scripts.includes("'strict-dynamic'"));
    assert.ok(!scripts.includes("'unsafe-inline'"));
    for (const s of scripts) assert.doesNotMatch(s, /^(\*|https?:|data:|blob:)$/, `script source ${s}`);
  });

  test("img-src is 'self' and data: only (remote icons go through our proxy)", () => {
    assert.deepEqual(csp.get("img-src"), ["'self'", "data:"]);
    const imgs = csp.get("img-src") ?? [];
    assert.ok(!imgs.includes("https:") && !imgs.includes("*") && !imgs.includes("http:"));
  });

  test("connect-src is 'self' only", () => {
    assert.deepEqual(csp.get("connect-src"), ["'self'"]);
  });

  test("never framed, no plugins, no <base>, forms only to us; frames only of our own (the MCP App relay)", () => {
    assert.deepEqual(csp.get("frame-ancestors"), ["'none'"]);
    assert.deepEqual(csp.get("object-src"), ["'none'"]);
    assert.deepEqual(csp.get("base-uri"), ["'none'"]);
    assert.deepEqual(csp.get("form-action"), ["'self'"]);
    assert.deepEqual(csp.get("frame-src"), ["'self'"]);
  });

  test("frame-src adds the MCP App relay's sandbox origin when one is given, nothing else", () => {
    const withSandbox = parse(contentSecurityPolicy({ nonce: "abc", frameSources: ["https://sandbox.example.net"] }));
    assert.deepEqual(withSandbox.get("frame-src"), ["'self'", "https://sandbox.example.net"]);
    assert.deepEqual(withSandbox.get("frame-ancestors"), ["'none'"]);
  });

  test("no directive allows any host or all https:", () => {
    for (const [name, sources] of csp) {
      for (const s of sources) assert.ok(s !== "*" && s !== "https:" && s !== "http:", `${name} allows ${s}`);
    }
  });

  test("no report-uri unless asked; with one it is added last", () => {
    assert.equal(csp.has("report-uri"), false);
    const policy = contentSecurityPolicy({ nonce: NONCE, reportUri: "/api/csp-report" });
    assert.deepEqual(parse(policy).get("report-uri"), ["/api/csp-report"]);
    assert.match(policy, /; report-uri \/api\/csp-report$/);
  });

  test("the nonce given is the nonce used", () => {
    const other = parse(contentSecurityPolicy({ nonce: "b3RoZXI=" }));
    assert.ok(other.get("script-src")?.includes("'nonce-b3RoZXI='"));
    assert.ok(!other.get("script-src")?.includes(`'nonce-${NONCE}'`));
  });
});

describe("newNonce", () => {
  test("is base64 of at least 128 bits", () => {
    const nonce = newNonce();
    assert.match(nonce, /^[A-Za-z0-9+/]+={0,2}$/);
    assert.ok(Buffer.from(nonce, "base64").length >= 16, `${nonce} decodes to ${Buffer.from(nonce, "base64").length} bytes`);
    assert.equal(Buffer.from(nonce, "base64").toString("base64"), nonce, "canonical base64");
  });

  test("changes on every call", () => {
    const seen = new Set(Array.from({ length: 200 }, () => newNonce()));
    assert.equal(seen.size, 200);
  });
});

describe("SECURITY_HEADERS", () => {
  test("sniffing off, no referrer, never framed", () => {
    assert.equal(SECURITY_HEADERS["X-Content-Type-Options"], "nosniff");
    assert.equal(SECURITY_HEADERS["Referrer-Policy"], "no-referrer");
    assert.equal(SECURITY_HEADERS["X-Frame-Options"], "DENY");
  });

  test("a Permissions-Policy that turns off camera, microphone and geolocation", () => {
    const pp = SECURITY_HEADERS["Permissions-Policy"];
    assert.equal(typeof pp, "string");
    const features = new Map(pp.split(",").map((f) => f.trim().split("=") as [string, string]));
    for (const feature of ["camera", "microphone", "geolocation"]) assert.equal(features.get(feature), "()", feature);
  });

  test("header names are distinct regardless of case", () => {
    const names = Object.keys(SECURITY_HEADERS).map((k) => k.toLowerCase());
    assert.equal(new Set(names).size, names.length);
    assert.ok(!names.includes("content-security-policy"), "the CSP is set per response with its nonce");
  });
});

describe("strictTransportSecurity", () => {
  const year = 31_536_000;
  test("hosted on https: max-age only (includeSubDomains and preload are the operator's to add)", () => {
    assert.equal(
      strictTransportSecurity({ mode: "hosted", publicUrl: "https://toolscope.example.com", maxAgeSeconds: year }),
      `max-age=${year}`,
    );
  });
  test("none locally, on plain http, or with TOOLSCOPE_HSTS_MAX_AGE=0", () => {
    assert.equal(strictTransportSecurity({ mode: "local", publicUrl: "https://toolscope.example.com", maxAgeSeconds: year }), undefined);
    assert.equal(strictTransportSecurity({ mode: "hosted", publicUrl: "http://toolscope.example.com", maxAgeSeconds: year }), undefined);
    assert.equal(strictTransportSecurity({ mode: "hosted", publicUrl: "https://toolscope.example.com", maxAgeSeconds: 0 }), undefined);
    assert.equal(strictTransportSecurity({ mode: "hosted", maxAgeSeconds: year }), undefined);
  });
});
