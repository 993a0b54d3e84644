import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { RenderedResult } from "./RenderedResult";

afterEach(cleanup);

const b64 = (s: string) => Buffer.from(s).toString("base64");
const answer = (result: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, result });

test("resources/read: Markdown is rendered (sanitised), plain text kept as written, images and audio shown, other blobs downloaded", () => {
  render(
    <RenderedResult
      method="resources/read"
      response={answer({
        contents: [
          {
            uri: "file:///README.md",
            mimeType: "text/markdown",
            text: "# Title\n\nSome **bold** and <script>alert(1)</script> [x](javascript:alert(1))",
          },
          { uri: "test://plain", mimeType: "text/plain", text: "line 1\n  line 2" },
          { uri: "test://pixel.png", mimeType: "image/png", blob: "iVBORw0KGgo=" },
          { uri: "test://beep.wav", mimeType: "audio/wav", blob: "UklGRg==" },
          { uri: "test://logo.svg", mimeType: "image/svg+xml", blob: b64("<svg onload='alert(1)'/>") },
        ],
      })}
    />,
  );
  const md = screen.getByTestId("resource-markdown");
  assert.equal(md.querySelector("strong")?.textContent, "bold");
  assert.equal(md.querySelector("script"), null, "no script element from the server's Markdown");
  assert.equal(md.querySelector('a[href^="javascript:"]'), null, "no javascript: link");
  assert.equal(screen.getByTestId("resource-text").textContent, "line 1\n  line 2");
  assert.match(screen.getByTestId("resource-image").getAttribute("src") ?? "", /^data:image\/png;base64,/);
  assert.match(screen.getByTestId("resource-audio").getAttribute("src") ?? "", /^data:audio\/wav;base64,/);
  const svg = screen.getByTestId("resource-download");
  assert.match(svg.textContent ?? "", /^Download logo/, "an SVG is offered as a file, never shown inline");
  assert.equal(screen.queryAllByTestId("resource-image").length, 1);
});

test("prompts/get: the description, then each message under its role with its content rendered", () => {
  render(
    <RenderedResult
      method="prompts/get"
      response={answer({
        description: "A simple prompt",
        messages: [
          { role: "user", content: { type: "text", text: "Summarise issue 7." } },
          { role: "assistant", content: { type: "text", text: "Issue 7 is about login." } },
          {
            role: "user",
            content: { type: "resource", resource: { uri: "file:///notes.md", mimeType: "text/markdown", text: "*notes*" } },
          },
        ],
      })}
    />,
  );
  assert.match(screen.getByTestId("prompt-messages").textContent ?? "", /^A simple prompt/);
  const messages = screen.getAllByTestId("prompt-message");
  assert.deepEqual(
    messages.map((m) => m.getAttribute("data-role")),
    ["user", "assistant", "user"],
  );
  assert.match(messages[0].textContent ?? "", /Summarise issue 7\./);
  assert.equal(messages[2].querySelector("em")?.textContent, "notes", "an embedded Markdown resource is rendered too");
});
