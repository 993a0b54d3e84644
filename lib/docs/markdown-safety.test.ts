import { test } from "node:test";
import assert from "node:assert/strict";
import { isSafeImageSrc, remarkHtmlAsText, safeHref } from "./markdown-safety.ts";

test("safeHref keeps http/https/mailto only", () => {
  assert.equal(safeHref("https://example.com/a?b=1"), "https://example.com/a?b=1");
  assert.equal(safeHref("http://example.com"), "http://example.com/");
  assert.equal(safeHref("mailto:a@example.com"), "mailto:a@example.com");
  for (const bad of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)", "data:text/html,x", "/relative", "#top", "file:///etc/passwd", "vbscript:x", "", 5, "https://"]) {
    assert.equal(safeHref(bad), undefined, String(bad));
  }
});

test("isSafeImageSrc allows https and data:image only", () => {
  assert.equal(isSafeImageSrc("https://example.com/i.png"), true);
  assert.equal(isSafeImageSrc("data:image/png;base64,iVBORw0KGgo="), true);
  assert.equal(isSafeImageSrc("data:image/svg+xml;utf8,<svg/>"), true);
  for (const bad of ["http://example.com/i.png", "data:text/html;base64,PHNjcmlwdD4=", "javascript:x", "//example.com/i.png", "/icon.png", null]) {
    assert.equal(isSafeImageSrc(bad), false, String(bad));
  }
});

test("remarkHtmlAsText turns html nodes into text", () => {
  const tree = { type: "root", children: [{ type: "paragraph", children: [{ type: "html", value: "<!-- x -->" }, { type: "text", value: "y" }] }, { type: "html", value: "<IMPORTANT>" }] };
  remarkHtmlAsText()(tree);
  assert.deepEqual(JSON.stringify(tree).match(/"type":"html"/g), null);
  assert.equal(tree.children[1].type, "text");
});
