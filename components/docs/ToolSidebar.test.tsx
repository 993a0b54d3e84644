import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { liveLinks } from "@/lib/docs/links";
import { toolListItem } from "@/lib/docs/tool-rows";
import { ToolSidebar } from "./ToolSidebar";

afterEach(cleanup);

const tools = [
  { name: "github_list_repos", title: "List repositories", inputSchema: {}, annotations: { readOnlyHint: true } },
  { name: "github_delete_repo", inputSchema: {} },
  { name: "jira.get_issue", inputSchema: {}, annotations: { readOnlyHint: true } },
  { name: "jira.create_issue", inputSchema: {}, annotations: { destructiveHint: false, idempotentHint: true } },
];

function renderSidebar(current?: string) {
  render(
    <ToolSidebar
      items={tools.map(toolListItem)}
      excluded={[{ name: "bad_header", display: "bad_header" }]}
      links={liveLinks("builtin:demo").data}
      {...(current ? { current } : {})}
    />,
  );
  return () => Array.from(document.querySelectorAll<HTMLAnchorElement>("a[data-sidebar-link]")).map((a) => a.textContent);
}

test("grouped like the page, the current tool marked, markers named, excluded tools apart", () => {
  const names = renderSidebar("jira.get_issue");
  assert.equal(screen.getAllByTestId("sidebar-group").length, 2);
  assert.equal(names().length, 5);
  const current = document.querySelector('a[aria-current="page"]');
  assert.equal(current?.getAttribute("href"), "/docs/tools/jira.get_issue?server=builtin%3Ademo");
  assert.match(screen.getByTestId("sidebar-excluded").textContent ?? "", /Excluded \(1\)bad_header/);
  const create = screen.getByRole("link", { name: /jira\.create_issue/ });
  assert.deepEqual(
    Array.from(create.querySelectorAll("abbr")).map((a) => a.getAttribute("title")),
    ["may modify", "idempotent"],
  );
  assert.equal(
    screen
      .getByRole("link", { name: /github_delete_repo/ })
      .querySelector("abbr")
      ?.getAttribute("title"),
    "destructive (spec default)",
  );
});

test("the search filters by name and title as you type; Escape clears it", async () => {
  const names = renderSidebar();
  const search = screen.getByLabelText("Find a tool");
  await act(async () => fireEvent.change(search, { target: { value: "repositories" } }));
  assert.deepEqual(
    names().map((n) => n?.replace(/[RDMI].*$/, "")),
    ["List repositories"],
  );
  await act(async () => fireEvent.change(search, { target: { value: "JIRA issue" } }));
  assert.equal(names().length, 2);
  await act(async () => fireEvent.change(search, { target: { value: "zzz" } }));
  assert.match(screen.getByTestId("sidebar-empty").textContent ?? "", /No tool matches/);
  await act(async () => fireEvent.keyDown(search, { key: "Escape" }));
  assert.equal(names().length, 5);
});

test("↓ from the search moves into the list, ↑ from the first tool back to the search", async () => {
  renderSidebar();
  const search = screen.getByLabelText("Find a tool");
  search.focus();
  await act(async () => fireEvent.keyDown(search, { key: "ArrowDown" }));
  const links = document.querySelectorAll<HTMLAnchorElement>("a[data-sidebar-link]");
  assert.equal(document.activeElement, links[0]);
  await act(async () => fireEvent.keyDown(links[0], { key: "ArrowDown" }));
  assert.equal(document.activeElement, links[1]);
  await act(async () => fireEvent.keyDown(links[1], { key: "ArrowUp" }));
  await act(async () => fireEvent.keyDown(links[0], { key: "ArrowUp" }));
  assert.equal(document.activeElement, search);
});
