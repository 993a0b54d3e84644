import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { activeContent, renderMarkdown } from "../../scripts/markdown-render-check.ts";
import { HOSTILE_PAYLOADS } from "./testing/export-fixture.ts";
import {
  isSafeImageSrc,
  markdownCodeSpan,
  neutralizeMarkdown,
  neutralizeMarkdownBlock,
  remarkHtmlAsText,
  safeHref,
} from "./markdown-safety.ts";

test("safeHref keeps http/https/mailto only", () => {
  assert.equal(safeHref("https://example.com/a?b=1"), "https://example.com/a?b=1");
  assert.equal(safeHref("http://example.com"), "http://example.com/");
  assert.equal(safeHref("mailto:a@example.com"), "mailto:a@example.com");
  for (const bad of [
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,x",
    "/relative",
    "#top",
    "file:///etc/passwd",
    "vbscript:x",
    "",
    5,
    "https://",
  ]) {
    assert.equal(safeHref(bad), undefined, String(bad));
  }
});

test("isSafeImageSrc allows https and data:image only", () => {
  assert.equal(isSafeImageSrc("https://example.com/i.png"), true);
  assert.equal(isSafeImageSrc("data:image/png;base64,iVBORw0KGgo="), true);
  assert.equal(isSafeImageSrc("data:image/svg+xml;utf8,<svg/>"), true);
  for (const bad of [
    "http://example.com/i.png",
    "data:text/html;base64,PHNjcmlwdD4=",
    "javascript:x",
    "//example.com/i.png",
    "/icon.png",
    null,
  ]) {
    assert.equal(isSafeImageSrc(bad), false, String(bad));
  }
});

test("remarkHtmlAsText turns html nodes into text", () => {
  const tree = {
    type: "root",
    children: [
      {
        type: "paragraph",
        children: [
          { type: "html", value: "<!-- x -->" },
          { type: "text", value: "y" },
        ],
      },
      { type: "html", value: "<IMPORTANT>" },
    ],
  };
  remarkHtmlAsText()(tree);
  assert.deepEqual(JSON.stringify(tree).match(/"type":"html"/g), null);
  assert.equal(tree.children[1].type, "text");
});

describe("neutralizeMarkdown: literal text", () => {
  test("every Markdown and HTML character is inert, entities shown as typed", () => {
    assert.equal(
      neutralizeMarkdown("[a](javascript:x) <b> *i* _u_ ~s~ `c` | \\ &#58; Q&A"),
      "\\[a\\](javascript:x) &lt;b&gt; \\*i\\* \\_u\\_ \\~s\\~ \\`c\\` \\| \\\\ &amp;#58; Q&A",
    );
  });
  test("controls become U+FFFD; cells are one line", () => {
    assert.equal(neutralizeMarkdown("a\u0000b\u001bc\u007f"), "a\uFFFDb\uFFFDc\uFFFD");
    assert.equal(neutralizeMarkdown("a\nb\r\nc", { cell: true }), "a b c");
  });
  test("a non-string from a sloppy server does not throw", () => {
    assert.equal(neutralizeMarkdown(42 as unknown as string), "42");
  });
});

describe("neutralizeMarkdown: Markdown kept", () => {
  const md = (text: string, cell = false) => neutralizeMarkdown(text, { markdown: true, cell });

  test("http(s)/mailto links are re-emitted from the checked URL; titles dropped; images become links", () => {
    assert.equal(md('[docs](https://example.com/a_b?x=1&y=(2) "t")'), "[docs](https://example.com/a_b?x=1\\&y=\\(2\\))");
    assert.equal(
      md("[mail](mailto:a@example.com) <https://example.com> <a@example.com>"),
      "[mail](mailto:a@example.com) [https://example.com](https://example.com/) [a@example.com](mailto:a@example.com)",
    );
    assert.equal(md("![logo](https://example.com/l.png)"), "[logo](https://example.com/l.png)");
    assert.equal(md("!<https://example.com/l.png>"), "\\![https://example.com/l.png](https://example.com/l.png)");
    assert.equal(md("[`code` *em*](https://example.com)"), "[`code` *em*](https://example.com/)");
    assert.equal(md("[](https://example.com)"), "[https://example.com/](https://example.com/)");
  });

  test("every other link, reference, footnote, autolink or tag stays text", () => {
    assert.equal(md("[a](javascript\\:alert(1))"), "\\[a\\](javascript\\:alert(1))");
    assert.equal(md("[a](/relative) [b](#frag) [c][r] [^1]"), "\\[a\\](/relative) \\[b\\](#frag) \\[c\\]\\[r\\] \\[^1\\]");
    assert.equal(md("[r]: https://example.com"), "\\[r\\]: https://example.com");
    assert.equal(md("<javascript:alert(1)> <a href=x>"), "&lt;javascript:alert(1)&gt; &lt;a href=x&gt;");
    assert.equal(md("[a](https&#58;//example.com)"), "\\[a\\](https&amp;#58;//example.com)");
    assert.equal(md("[[x](javascript:1)](https://example.com)"), "\\[\\[x\\](javascript:1)\\](https://example.com)");
  });

  test("code spans are re-emitted as CommonMark reads them (escaped openers, lengths, edge spaces)", () => {
    assert.equal(md("`<b>` and <b>"), "`<b>` and &lt;b&gt;");
    assert.equal(md("\\`[x](javascript:1)`"), "\\`\\[x\\](javascript:1)\\`");
    assert.equal(md("`` a`b `` and ` x `"), "``a`b`` and `x`");
    assert.equal(md("`unclosed [a](javascript:1)"), "\\`unclosed \\[a\\](javascript:1)");
    assert.equal(md("``` x ` y"), "\\`\\`\\` x \\` y");
  });

  test("pipes: escaped in cells, and inside spans whenever a table could form", () => {
    assert.equal(md("`a | b` x | y"), "`a | b` x | y");
    assert.equal(md("`a | b` x | y", true), "`a \\| b` x \\| y");
    assert.equal(md("h | h\n--|--\n`a | b` | c"), "h | h\n--|--\n`a \\| b` | c");
  });

  test("a lone backslash is doubled, so it cannot escape what we emit next; the server's escapes are kept", () => {
    assert.equal(md("a\\"), "a\\\\");
    assert.equal(md("\\*not em\\* \\\\ \\x"), "\\*not em\\* \\\\ \\\\x");
  });
});

test("markdownCodeSpan survives any content", () => {
  assert.equal(markdownCodeSpan("a`b"), "``a`b``");
  assert.equal(markdownCodeSpan("`x"), "`` `x ``");
  assert.equal(markdownCodeSpan(""), "` `");
  assert.equal(markdownCodeSpan(" a "), "`  a  `");
  assert.equal(markdownCodeSpan("a|b"), "`a\\|b`");
  assert.equal(markdownCodeSpan("a|b", false), "`a|b`");
});

describe("neutralizeMarkdownBlock", () => {
  test("headings demoted, setext underlines kept as text, blank lines collapsed outside code", () => {
    assert.equal(neutralizeMarkdownBlock("# Top\n\n\n\ntext\n---\nmore\n===", { minHeading: 4 }), "#### Top\n\ntext\n\\---\nmore\n\\===");
  });

  test("fences are our own: longer than any backtick run inside, plain info string only, closed at the end", () => {
    assert.equal(neutralizeMarkdownBlock("```js\nx\n\n\ny\n```"), "```js\nx\n\n\ny\n```");
    assert.equal(neutralizeMarkdownBlock('~~~ evil"<x>\n```\n[a](javascript:1)\n~~~'), "````\n```\n[a](javascript:1)\n````");
    assert.equal(neutralizeMarkdownBlock("  ```\n  indented\n    more"), "```\nindented\n  more\n```");
    assert.equal(neutralizeMarkdownBlock("``` a`b\n[x](javascript:1)\n```"), "\\`\\`\\` a\\`b\n\\[x\\](javascript:1)\n```\n```");
  });
});

describe("neutralised text rendered by real renderers has no live URL", () => {
  const docs = HOSTILE_PAYLOADS.flatMap((p) => [
    `# Doc\n\n${neutralizeMarkdown(p.text)}\n\n${neutralizeMarkdown(p.text, { markdown: true })}`,
    `| a | b |\n|---|---|\n| ${neutralizeMarkdown(p.text, { cell: true })} | ${neutralizeMarkdown(p.text, { markdown: true, cell: true })} |`,
    `# Doc\n\n${neutralizeMarkdownBlock(p.text)}\n\ntail [x](`,
  ]);
  const rendered = renderMarkdown(docs);
  HOSTILE_PAYLOADS.forEach((p, i) => {
    test(p.name, () => {
      for (const r of rendered.slice(i * 3, i * 3 + 3)) {
        for (const html of [r.reactMarkdown, r.reactMarkdownUnfiltered, r.marked ?? ""])
          assert.deepEqual(activeContent(html), [], html.slice(0, 300));
      }
    });
  });
  test(
    "marked took part (a second, unsanitising parser)",
    { skip: rendered[0].marked === undefined ? "marked is not installed" : false },
    () => {
      assert.ok(rendered[0].marked?.includes("<h1>Doc</h1>"));
    },
  );
});

test("hostile inputs of 1 MB are handled in linear time", () => {
  let runs = "";
  for (let i = 0; runs.length < 1_000_000; i += 1) runs += "`".repeat(1 + (i % 40)) + "x";
  const inputs = [
    runs,
    "[a](".repeat(250_000),
    " ".repeat(1_000_000) + "x",
    ("[a](" + "\\!".repeat(1000) + " x").repeat(300),
    "<".repeat(500_000),
    "&a".repeat(300_000),
  ];
  for (const text of inputs) {
    const started = performance.now();
    neutralizeMarkdownBlock(text);
    neutralizeMarkdown(text, { markdown: true, cell: true });
    assert.ok(performance.now() - started < 5000, `${text.slice(0, 20)}… took ${Math.round(performance.now() - started)} ms`);
  }
});
