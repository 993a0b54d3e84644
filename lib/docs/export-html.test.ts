import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { exportHtml } from "./export-html.ts";
import { input } from "./export-fixture.ts";

describe("HTML export", () => {
  const html = exportHtml(input);

  test("self-contained: no script, no external resources, a CSP that forbids them", () => {
    assert.doesNotMatch(html, /<script|<img|<link|<iframe|<object|\ssrc="|@import|url\(/i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'/);
    assert.match(html, /<style>/);
  });

  test("every server string is escaped", () => {
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.doesNotMatch(html, /href="javascript/);
    assert.match(html, /<code>evil\|tool<\/code>/);
  });

  test("index, tool sections, parameters, badges with defaults, raw JSON", () => {
    assert.match(html, /<h1>Issue tracker<\/h1>/);
    assert.match(html, /<a href="#tool-0"><code>search_issues<\/code><\/a>/);
    assert.match(html, /<section id="tool-1">/);
    assert.match(html, /<td><code>filters\.labels<\/code><\/td><td>array&lt;string&gt;<\/td>/);
    assert.match(html, /read-only<\/span>/);
    assert.match(html, /open world \(default\)<\/span>/);
    assert.match(html, /<summary>Definition \(JSON\)<\/summary><pre>\{\n  &quot;name&quot;: &quot;search_issues&quot;/);
  });
});
