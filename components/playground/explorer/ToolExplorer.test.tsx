import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { Tool } from "@/lib/mcp/contract";
import { ToolExplorer } from "./ToolExplorer";

afterEach(cleanup);

const tools: Tool[] = [
  { name: "search_issues", description: "Find issues", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  {
    name: "delete_issue",
    inputSchema: { type: "object", properties: { id: { type: "integer", description: "The issue." } }, required: ["id"] },
  },
];

function renderExplorer(currentText = '{"jsonrpc":"2.0","id":4,"method":"ping"}') {
  const chosen: string[] = [];
  const opened: boolean[] = [];
  render(
    <ToolExplorer
      server="builtin:demo"
      tools={tools}
      listInfo={{
        excluded: [{ tool: { name: "bad_header", inputSchema: {} }, reason: "ratio: not a string" }],
        ttlMs: 300000,
        cacheScope: "public",
        fetchedAt: new Date().toISOString(),
      }}
      connection={{ v: 1, url: "builtin:demo", era: "modern", protocolVersion: "2026-07-28" }}
      capabilities={{ tools: {} }}
      headers={{}}
      currentText={currentText}
      onChoose={(t) => chosen.push(t)}
      onConnection={() => undefined}
      open
      onOpen={(o) => opened.push(o)}
      versions={{ resources: 0, prompts: 0 }}
    />,
  );
  return { chosen, opened };
}

const names = () => screen.queryAllByTestId("explorer-tool").map((b) => b.getAttribute("data-tool"));

test("search narrows the list; nothing matching says so", () => {
  renderExplorer();
  assert.deepEqual(names(), ["search_issues", "delete_issue"]);
  act(() => void fireEvent.change(screen.getByTestId("explorer-search"), { target: { value: "find" } }));
  assert.deepEqual(names(), ["search_issues"]);
  act(() => void fireEvent.change(screen.getByTestId("explorer-search"), { target: { value: "zzz" } }));
  assert.deepEqual(names(), []);
  assert.match(screen.getByTestId("explorer-no-match").textContent ?? "", /No tool matches “zzz”/);
});

test("choosing a tool writes its tools/call with the next id and shows its doc; excluded tools have their reason", () => {
  const { chosen } = renderExplorer();
  act(() => void fireEvent.click(screen.getAllByTestId("explorer-tool")[1]));
  assert.equal(chosen.length, 1);
  const call = JSON.parse(chosen[0]);
  assert.equal(call.id, 5);
  assert.deepEqual(call.params.name, "delete_issue");
  const doc = screen.getByTestId("explorer-tool-doc");
  assert.match(doc.textContent ?? "", /id integerrequiredThe issue\./);
  assert.match(screen.getByTestId("explorer-cache").textContent ?? "", /fresh for 5 min/);
  assert.equal(screen.getByTestId("explorer-hint-destructiveHint").textContent, "destructive (default)");
  assert.equal(screen.getByTestId("explorer-docs-link").getAttribute("href"), "/docs/tools/delete_issue?server=builtin%3Ademo");
  assert.match(screen.getByTestId("explorer-excluded").textContent ?? "", /bad_header.*ratio: not a string/);
  assert.match(screen.getByTestId("explorer-no-resources").textContent ?? "", /neither resources nor prompts/);
});

test("↓ from the search focuses the first tool, then the next; the toggle reports closing", () => {
  const { opened } = renderExplorer();
  act(() => void fireEvent.keyDown(screen.getByTestId("explorer-search"), { key: "ArrowDown" }));
  assert.equal(document.activeElement?.getAttribute("data-tool"), "search_issues");
  act(() => void fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" }));
  assert.equal(document.activeElement?.getAttribute("data-tool"), "delete_issue");
  act(() => void fireEvent.keyDown(document.activeElement!, { key: "Home" }));
  assert.equal(document.activeElement?.getAttribute("data-tool"), "search_issues");
  act(() => void fireEvent.click(screen.getByTestId("explorer-toggle")));
  assert.deepEqual(opened, [false]);
});
