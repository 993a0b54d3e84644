import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { DEPRECATIONS, serverDeprecations } from "@/lib/mcp/deprecations";
import { DeprecationNotes } from "./DeprecationNotes";

afterEach(cleanup);

test("one closed line naming the features; opened, each sentence with its removal date and the specification's page", () => {
  render(<DeprecationNotes items={serverDeprecations({ capabilities: { logging: {} }, transport: "sse" })} />);
  const box = screen.getByTestId("deprecations") as HTMLDetailsElement;
  assert.equal(box.open, false, "closed: informed, not nagged");
  assert.match(box.querySelector("summary")?.textContent ?? "", /^Deprecated: Logging, HTTP\+SSE transport/);
  fireEvent.click(box.querySelector("summary")!);
  const items = [...box.querySelectorAll("li")];
  assert.deepEqual(
    items.map((li) => li.getAttribute("data-deprecation")),
    ["logging", "http-sse"],
  );
  assert.match(items[0].textContent ?? "", /OpenTelemetry.*2027-07-28/);
  assert.equal(items[1].querySelector("a")?.getAttribute("href"), DEPRECATIONS["http-sse"].href);
  assert.equal(items[1].querySelector("a")?.getAttribute("rel"), "noopener noreferrer");
});

test("nothing deprecated, nothing shown", () => {
  const { container } = render(<DeprecationNotes items={[]} />);
  assert.equal(container.innerHTML, "");
});
