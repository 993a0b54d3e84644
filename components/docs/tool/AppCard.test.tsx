import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, render, screen } from "@testing-library/react";
import { AppCard } from "./AppCard";

afterEach(cleanup);

test("a tool with an app: its ui:// resource and who may call it, the specification's default marked as one", () => {
  render(<AppCard tool={{ _meta: { ui: { resourceUri: "ui://get-time/mcp-app.html" } } }} />);
  assert.equal(screen.getByTestId("tool-app-resource").textContent, "ui://get-time/mcp-app.html");
  const who = screen.getByTestId("tool-app-visibility");
  assert.match(who.textContent ?? "", /agent \(default\).*its app \(default\)/);
});

test("declared visibility is shown as declared; the deprecated key is named; nobody is said plainly", () => {
  render(<AppCard tool={{ _meta: { "ui/resourceUri": "ui://old/view.html", ui: { visibility: ["app"] } } }} />);
  assert.match(screen.getByTestId("tool-app").textContent ?? "", /deprecated _meta\["ui\/resourceUri"\]/);
  const who = screen.getByTestId("tool-app-visibility").textContent ?? "";
  assert.match(who, /its app/);
  assert.doesNotMatch(who, /agent|default/);
  cleanup();
  render(<AppCard tool={{ _meta: { ui: { resourceUri: "ui://x/y.html", visibility: [] } } }} />);
  assert.match(screen.getByTestId("tool-app-visibility").textContent ?? "", /nobody/);
});

test("a tool without an app shows nothing", () => {
  const { container } = render(<AppCard tool={{ _meta: { other: true } }} />);
  assert.equal(container.innerHTML, "");
});
