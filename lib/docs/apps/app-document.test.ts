import { test } from "node:test";
import assert from "node:assert/strict";
import { appDocument } from "./app-document.ts";
import { appCsp } from "./app-csp.ts";

const POLICY = appCsp({ connectDomains: ["https://api.example.com"] }, { denyOrigins: [], refusePrivate: false }).policy;
const META = `<meta http-equiv="Content-Security-Policy" content="${POLICY}">`;

test("the policy comes first, before anything of the app's, behind one doctype", () => {
  const doc = appDocument("<!DOCTYPE html>\n<html><head><title>t</title></head><body>x</body></html>", POLICY);
  assert.ok(doc.startsWith(`<!doctype html>${META}<html>`), doc.slice(0, 200));
  assert.equal(doc.match(/<!doctype/gi)?.length, 1);
});

test("a script placed before <html> still comes after the policy; so do leading comments and a byte-order mark", () => {
  const doc = appDocument("\uFEFF<!-- hi --><!doctype html><script>fetch('https://evil.example')</script><html></html>", POLICY);
  assert.ok(doc.indexOf(META) < doc.indexOf("<script>"));
  assert.ok(doc.startsWith(`<!doctype html>${META}<script>`));
  const bare = appDocument("<script>1</script>", POLICY);
  assert.ok(bare.startsWith(`<!doctype html>${META}<script>`));
});

test("the policy cannot break out of its attribute", () => {
  const doc = appDocument("<p>x</p>", `default-src 'none'"><script>alert(1)</script>`);
  assert.doesNotMatch(doc, /"><script>/);
  assert.match(doc, /content="default-src 'none'&quot;>&lt;script>/);
});
