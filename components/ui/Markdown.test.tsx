import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { renderToStaticMarkup } from "react-dom/server";
import { cleanup, render, screen } from "@testing-library/react";
import { Markdown, markdownElements } from "./Markdown";

afterEach(cleanup);

test("one description is parsed once: the same source gives the same element tree, another source its own", () => {
  const source = `A **tool** with a [link](https://example.com) and ${Math.random()}`;
  const first = markdownElements(source);
  assert.equal(markdownElements(source), first);
  assert.notEqual(markdownElements(`${source} more`), first);
});

test("a cached tree renders as a fresh one would, and the safety rules still hold on the second view", () => {
  const source = `# Heading ${Math.random()}\n\n[bad](javascript:alert(1)) <b>raw</b> ![img](https://example.com/x.png)`;
  const views = [1, 2].map(() => renderToStaticMarkup(<Markdown source={source} />));
  assert.equal(views[0], views[1]);
  render(<Markdown source={source} testId="md" />);
  const md = screen.getByTestId("md");
  assert.equal(md.querySelector("a[href^='javascript']"), null);
  assert.ok(md.textContent?.includes("<b>raw</b>"), "raw HTML is shown as text");
  assert.ok(screen.getByTestId("md-dropped-link"));
  assert.ok(screen.getByTestId("md-image-placeholder"));
  assert.equal(md.querySelector("h1"), null, "headings become paragraphs");
});
