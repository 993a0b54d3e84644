import { test } from "node:test";
import assert from "node:assert/strict";
import { descriptionHtml, inlineMarkdownHtml } from "./markdown-html.ts";

test("code spans render as <code>, like the page: no raw backticks", () => {
  assert.equal(inlineMarkdownHtml("Returns up to `limit` issues."), "Returns up to <code>limit</code> issues.");
  assert.equal(inlineMarkdownHtml("``a ` b``"), "<code>a ` b</code>");
  assert.equal(inlineMarkdownHtml("an ` unmatched tick"), "an ` unmatched tick");
  assert.equal(inlineMarkdownHtml("`<b>` stays text"), "<code>&lt;b&gt;</code> stays text");
});

test("strong, emphasis and strikethrough; snake_case and escaped stars stay as written", () => {
  assert.equal(
    inlineMarkdownHtml("**Never** use *this* or _that_, ~~old~~"),
    "<strong>Never</strong> use <em>this</em> or <em>that</em>, <del>old</del>",
  );
  assert.equal(inlineMarkdownHtml("search_issues and list_all_items"), "search_issues and list_all_items");
  assert.equal(inlineMarkdownHtml("2 \\* 3 * 4"), "2 &#42; 3 * 4");
  assert.equal(inlineMarkdownHtml("`**not bold**`"), "<code>**not bold**</code>");
});

test("links keep their text and show a safe target as text; unsafe targets are dropped; nothing becomes an element", () => {
  assert.equal(
    inlineMarkdownHtml("[docs](https://example.com/a?b=1&c=2)"),
    'docs <span class="muted">(https://example.com/a?b=1&amp;c=2)</span>',
  );
  assert.equal(inlineMarkdownHtml("[x](javascript:alert(1))"), "x");
  const hostile = inlineMarkdownHtml('<img src=x onerror=alert(1)> **<script>alert(1)</script>** [a](" onmouseover="x)');
  assert.doesNotMatch(hostile, /<img|<script|onmouseover="/);
  assert.match(hostile, /<strong>&lt;script&gt;/);
});

test("fenced code blocks are preformatted, unrendered", () => {
  const html = descriptionHtml('Example:\n```json\n{"a": `1`}\n```\nAfter `x`.');
  assert.equal(html, "Example:\n<pre><code>{&quot;a&quot;: `1`}</code></pre>\nAfter <code>x</code>.");
  assert.equal(descriptionHtml("```\nnever closed"), "<pre><code>never closed</code></pre>");
});
