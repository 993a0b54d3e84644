import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { liveLinks } from "@/lib/docs/links";
import { toolIndexItem } from "@/lib/docs/tool-rows";
import { FilteredToolIndex } from "./FilteredToolIndex";

afterEach(cleanup);

const tools = [
  {
    name: "github_list_repos",
    title: "List repositories",
    description: "Lists repositories.\nPaginated by cursor.",
    inputSchema: {},
    annotations: { readOnlyHint: true },
    icons: [{ src: "https://example.com/i.png", mimeType: "image/png" }],
  },
  { name: "github_delete_repo", description: "Deletes a repository for good.", inputSchema: {} },
  { name: "jira.create_issue", inputSchema: {}, annotations: { destructiveHint: false, idempotentHint: true } },
];

const rows = () => Array.from(document.querySelectorAll<HTMLElement>('[data-testid^="tool-row-"]')).map((r) => r.dataset.testid);

test("rows show the display name, the machine name, the summary line, badges and icons from one item each", () => {
  render(<FilteredToolIndex rows={tools.map(toolIndexItem)} links={liveLinks("builtin:demo").data} initialQuery={{}} />);
  const list = screen.getByTestId("tool-row-github_list_repos");
  assert.match(list.textContent ?? "", /List repositoriesgithub_list_reposread-onlyLists repositories\.$/);
  assert.equal(list.querySelector("a")?.getAttribute("href"), "/docs/tools/github_list_repos?server=builtin%3Ademo");
  assert.equal(list.querySelector("img")?.getAttribute("src"), "/api/icon?src=https%3A%2F%2Fexample.com%2Fi.png");
  const del = screen.getByTestId("tool-row-github_delete_repo");
  assert.equal(del.querySelector("[data-badge]")?.getAttribute("data-badge"), "destructive-default");
  assert.equal(del.querySelector("[data-tile]")?.textContent, "G");
  assert.deepEqual(
    Array.from(screen.getByTestId("tool-row-jira.create_issue").querySelectorAll("[data-badge]")).map((b) => b.textContent),
    ["may modify", "idempotent"],
  );
  assert.equal(screen.getByTestId("tool-count").textContent, "(3)");
});

test("the initial query filters the first render; typing searches descriptions past the summary line", async () => {
  render(
    <FilteredToolIndex rows={tools.map(toolIndexItem)} links={liveLinks("builtin:demo").data} initialQuery={{ behaviour: "read-only" }} />,
  );
  assert.deepEqual(rows(), ["tool-row-github_list_repos"]);
  await act(async () => fireEvent.change(screen.getByLabelText("Behaviour"), { target: { value: "" } }));
  assert.equal(rows().length, 3);
  await act(async () => fireEvent.change(screen.getByLabelText("Search tools"), { target: { value: "CURSOR" } }));
  assert.deepEqual(rows(), ["tool-row-github_list_repos"]);
  assert.equal(screen.getByTestId("tool-count").textContent, "(1 of 3)");
  await act(async () => fireEvent.change(screen.getByLabelText("Search tools"), { target: { value: "zzz" } }));
  assert.match(document.body.textContent ?? "", /No tool matches\./);
});
