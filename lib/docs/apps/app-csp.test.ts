import { test } from "node:test";
import assert from "node:assert/strict";
import { appCsp, MAX_CSP_SOURCES } from "./app-csp.ts";

const LOCAL = { denyOrigins: ["http://localhost:3000", "http://127.0.0.1:3000"], refusePrivate: false };
const HOSTED = { denyOrigins: ["https://toolscope.example", "https://sandbox.toolscope-apps.example"], refusePrivate: true };
const directive = (policy: string, name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `));

test("nothing declared: deny-all, inline scripts and styles only, no network, no frames, no base, no forms", () => {
  const { policy, granted, dropped } = appCsp(undefined, LOCAL);
  assert.equal(directive(policy, "default-src"), "default-src 'none'");
  assert.equal(directive(policy, "script-src"), "script-src 'unsafe-inline'");
  assert.equal(directive(policy, "connect-src"), "connect-src 'none'");
  assert.equal(directive(policy, "frame-src"), "frame-src 'none'");
  assert.equal(directive(policy, "base-uri"), "base-uri 'none'");
  assert.equal(directive(policy, "form-action"), "form-action 'none'");
  assert.doesNotMatch(policy, /'self'|\*/, "never 'self' (the host's origin) and never a wildcard");
  assert.deepEqual(granted, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  assert.deepEqual(dropped, []);
});

test("declared origins are granted where declared, normalised and once", () => {
  const { policy, granted } = appCsp(
    {
      connectDomains: ["https://api.example.com", "wss://rt.example.com:8443", "https://API.example.com/"],
      resourceDomains: ["https://cdn.example.com", "https://*.cdn.example.net"],
      frameDomains: ["https://www.youtube.com"],
    },
    HOSTED,
  );
  assert.deepEqual(granted.connectDomains, ["https://api.example.com", "wss://rt.example.com:8443"]);
  assert.equal(directive(policy, "connect-src"), "connect-src https://api.example.com wss://rt.example.com:8443");
  assert.equal(directive(policy, "script-src"), "script-src 'unsafe-inline' https://cdn.example.com https://*.cdn.example.net");
  assert.equal(directive(policy, "img-src"), "img-src data: blob: https://cdn.example.com https://*.cdn.example.net");
  assert.equal(directive(policy, "frame-src"), "frame-src https://www.youtube.com");
});

test("an injection, keywords, other schemes, paths and whole-web wildcards are dropped, each with its reason", () => {
  const { policy, granted, dropped } = appCsp(
    {
      connectDomains: [
        "https://a.com; script-src *",
        "'unsafe-eval'",
        "*",
        "https://*",
        "data:",
        "javascript:alert(1)",
        "https://a.com/path",
        42,
      ],
    },
    LOCAL,
  );
  assert.deepEqual(granted.connectDomains, []);
  assert.equal(dropped.length, 8);
  assert.equal(directive(policy, "connect-src"), "connect-src 'none'");
  assert.equal(policy.split("; ").filter((d) => d.startsWith("script-src")).length, 1, "no second script-src smuggled in");
  assert.match(dropped.find((d) => d.value === "*")!.reason, /whole web/);
  assert.match(dropped.find((d) => d.value === "42")!.reason, /not a string/);
});

test("Toolscope's own origins are never granted, nor their WebSocket twins, nor a wildcard that covers them", () => {
  const { granted, dropped } = appCsp(
    {
      connectDomains: [
        "https://toolscope.example",
        "https://toolscope.example:443",
        "wss://toolscope.example",
        "https://sandbox.toolscope-apps.example",
        "https://*.toolscope-apps.example",
        "https://other.example",
      ],
    },
    HOSTED,
  );
  assert.deepEqual(granted.connectDomains, ["https://other.example"]);
  assert.equal(dropped.length, 5);
  assert.ok(dropped.every((d) => /Toolscope's own origin/.test(d.reason)));
  const local = appCsp({ connectDomains: ["http://localhost:3000", "ws://127.0.0.1:3000", "http://localhost:8080"] }, LOCAL);
  assert.deepEqual(local.granted.connectDomains, ["http://localhost:8080"], "another local port is another origin");
});

test("hosted mode refuses loopback and private hosts; local mode allows them", () => {
  const declared = {
    connectDomains: [
      "http://localhost:8080",
      "http://127.0.0.1:9",
      "https://10.0.0.5",
      "https://[::1]:8443",
      "https://db.internal",
      "https://api.example.com",
    ],
  };
  assert.deepEqual(appCsp(declared, HOSTED).granted.connectDomains, ["https://api.example.com"]);
  assert.equal(appCsp(declared, LOCAL).granted.connectDomains.length, 6);
});

test("lists are bounded: values past the cap are dropped as too many", () => {
  const many = Array.from({ length: MAX_CSP_SOURCES + 3 }, (_, i) => `https://h${i}.example.com`);
  const { granted, dropped } = appCsp({ resourceDomains: many }, LOCAL);
  assert.equal(granted.resourceDomains.length, MAX_CSP_SOURCES);
  assert.equal(dropped.length, 3);
  assert.match(dropped[0].reason, /more than 64/);
});
