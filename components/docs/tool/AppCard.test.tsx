import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { AppCard } from "./AppCard";

afterEach(cleanup);

test("a tool with an app: its ui:// resource and who may call it, the specification's default marked as one", () => {
  render(<AppCard tool={{ _meta: { ui: { resourceUri: "ui://get-time/mcp-app.html" } } }} runner="try-it" />);
  assert.equal(screen.getByTestId("tool-app-resource").textContent, "ui://get-time/mcp-app.html");
  const who = screen.getByTestId("tool-app-visibility");
  assert.match(who.textContent ?? "", /agent \(default\).*its app \(default\)/);
});

test("declared visibility is shown as declared; the deprecated key is named; nobody is said plainly", () => {
  render(<AppCard tool={{ _meta: { "ui/resourceUri": "ui://old/view.html", ui: { visibility: ["app"] } } }} runner="try-it" />);
  assert.match(screen.getByTestId("tool-app").textContent ?? "", /deprecated _meta\["ui\/resourceUri"\]/);
  const who = screen.getByTestId("tool-app-visibility").textContent ?? "";
  assert.match(who, /its app/);
  assert.doesNotMatch(who, /agent|default/);
  cleanup();
  render(<AppCard tool={{ _meta: { ui: { resourceUri: "ui://x/y.html", visibility: [] } } }} runner="try-it" />);
  assert.match(screen.getByTestId("tool-app-visibility").textContent ?? "", /nobody/);
});

test("a tool without an app shows nothing", () => {
  const { container } = render(<AppCard tool={{ _meta: { other: true } }} runner="try-it" />);
  assert.equal(container.innerHTML, "");
});

test("how to run the app is said for the page it is on: Try it, the playground, or not here (a static copy)", () => {
  const tool = { _meta: { ui: { resourceUri: "ui://x/y.html" } } };
  const texts = (["try-it", "playground", null] as const).map((runner) => {
    const { container } = render(<AppCard tool={tool} runner={runner} />);
    const text = container.textContent ?? "";
    cleanup();
    return text;
  });
  assert.match(texts[0], /Send in Try it calls the tool/);
  assert.match(texts[1], /Open in playground calls the tool on the live server/);
  assert.match(texts[2], /This static copy fetches and runs nothing/);
  assert.doesNotMatch(texts[2], /Try it|playground/);
});
