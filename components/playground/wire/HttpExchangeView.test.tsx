import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { HeaderTable } from "./HttpExchangeView";

afterEach(cleanup);

test("a long header value is folded with its length, shown in full on request and copied whole", async () => {
  const long = `a=${"x".repeat(300)},b=${"y".repeat(298)}`;
  const copied: string[] = [];
  Object.defineProperty(navigator, "clipboard", {
    value: { writeText: async (t: string) => void copied.push(t) },
    configurable: true,
  });
  render(
    <HeaderTable
      headers={[
        ["accept", "application/json, text/event-stream"],
        ["x-long", long],
      ]}
    />,
  );
  const values = screen.getAllByTestId("header-value");
  assert.equal(values[0].textContent, "application/json, text/event-stream", "a short value is shown whole");
  assert.equal(values[1].textContent, `${long.slice(0, 160)}…`);
  const show = screen.getByRole("button", { name: `Show all ${long.length} characters` });
  assert.equal(show.getAttribute("aria-expanded"), "false");
  fireEvent.click(show);
  assert.equal(screen.getAllByTestId("header-value")[1].textContent, long);
  assert.equal(screen.getByRole("button", { name: "Show less" }).getAttribute("aria-expanded"), "true");
  await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copy" })));
  assert.deepEqual(copied, [long]);
  assert.ok(screen.getByRole("button", { name: "Copied" }));
});

test("values break after their separators, not inside words; MCP headers keep their marker", () => {
  const { container } = render(
    <HeaderTable
      headers={[
        ["access-control-expose-headers", "mcp-session-id,mcp-protocol-version,last-event-id"],
        ["mcp-method", "tools/call"],
      ]}
    />,
  );
  const first = screen.getAllByTestId("header-value")[0];
  assert.equal(first.querySelectorAll("wbr").length, 2, "a break opportunity after each comma");
  assert.equal(first.textContent, "mcp-session-id,mcp-protocol-version,last-event-id");
  assert.ok(container.querySelector('[data-mcp-header="mcp-method"]'));
});
