import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { useState } from "react";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { closeTab, moveTab, openTab, renameTab, selectTab, tabTitle, EMPTY_TABS, type TabsState } from "@/lib/playground/stores/tabs-store";
import { TabStrip } from "./TabStrip";

afterEach(cleanup);

/** The strip wired to the real store, as the shell wires it. */
function Harness({ start, log }: { start: TabsState; log: string[] }) {
  const [s, setS] = useState(start);
  return (
    <>
      <TabStrip
        tabs={s.tabs.map((t) => ({ id: t.id, title: tabTitle(t) }))}
        activeId={s.activeId}
        panelId="panel"
        onSelect={(id) => {
          log.push(`select ${id}`);
          setS((x) => selectTab(x, id));
        }}
        onClose={(id) => {
          log.push(`close ${id}`);
          setS((x) => closeTab(x, id));
        }}
        onNew={() => {
          log.push("new");
          setS((x) => openTab(x, `n${x.tabs.length}`, { server: "builtin:demo" }).state);
        }}
        onRename={(id, name) => {
          log.push(`rename ${id} ${name}`);
          setS((x) => renameTab(x, id, name));
        }}
        onMove={(id, d) => {
          log.push(`move ${id} ${d}`);
          setS((x) => moveTab(x, id, d));
        }}
      />
      <div role="tabpanel" id="panel" />
    </>
  );
}

function setup() {
  let s = openTab(EMPTY_TABS, "a", { server: "builtin:demo", tool: "search_issues" }).state;
  s = openTab(s, "b", { server: "http://one.test/mcp", tool: "echo" }).state;
  s = openTab(s, "c", { server: "http://two.test/mcp" }).state;
  const log: string[] = [];
  render(<Harness start={selectTab(s, "a")} log={log} />);
  return { log, tabs: () => screen.queryAllByRole("tab") };
}

const names = (tabs: HTMLElement[]) => tabs.map((t) => t.textContent?.replace("×", ""));

test("a tablist whose active tab is selected, controls the panel and is the one Tab stop", () => {
  const { tabs } = setup();
  assert.equal(screen.getByRole("tablist").getAttribute("aria-label"), "Requests");
  assert.deepEqual(names(tabs()), ["search_issues · demo", "echo · one.test", "new request · two.test"]);
  const [a, b] = tabs();
  assert.equal(a!.getAttribute("aria-selected"), "true");
  assert.equal(a!.getAttribute("aria-controls"), "panel");
  assert.equal(b!.getAttribute("aria-selected"), "false");
  assert.deepEqual(
    tabs().map((t) => t.tabIndex),
    [0, -1, -1],
  );
});

test("arrow keys move the focus (wrapping), Enter-click opens; nothing opens on focus alone", () => {
  const { tabs, log } = setup();
  const [a, , c] = tabs();
  act(() => a!.focus());
  fireEvent.keyDown(a!, { key: "ArrowLeft" });
  assert.equal(document.activeElement, c);
  fireEvent.keyDown(c!, { key: "Home" });
  assert.equal(document.activeElement, a);
  fireEvent.keyDown(a!, { key: "End" });
  assert.equal(document.activeElement, c);
  assert.deepEqual(log, []);
  fireEvent.click(c!);
  assert.deepEqual(log, ["select c"]);
  assert.equal(tabs()[2]!.getAttribute("aria-selected"), "true");
});

test("Alt+Shift+arrows move the focused tab and keep the focus on it", () => {
  const { tabs, log } = setup();
  const a = tabs()[0]!;
  act(() => a.focus());
  fireEvent.keyDown(a, { key: "ArrowRight", altKey: true, shiftKey: true });
  assert.deepEqual(log, ["move a 1"]);
  assert.deepEqual(names(tabs()), ["echo · one.test", "search_issues · demo", "new request · two.test"]);
  assert.equal(document.activeElement, tabs()[1]);
});

test("Delete, middle click and × close; the focus goes to the neighbour", () => {
  const { tabs, log } = setup();
  const a = tabs()[0]!;
  act(() => a.focus());
  fireEvent.keyDown(a, { key: "Delete" });
  assert.equal(tabs().length, 2);
  assert.equal(document.activeElement, tabs()[0]);
  fireEvent(tabs()[1]!, new MouseEvent("auxclick", { bubbles: true, button: 1 }));
  fireEvent.click(screen.getAllByTestId("close-tab")[0]!);
  assert.deepEqual(log, ["close a", "close c", "close b"]);
  assert.equal(tabs().length, 0, "× does not also select the tab it closes");
});

test("F2 or double click renames in place: Enter keeps, Escape gives up, an unchanged name is no rename", () => {
  const { tabs, log } = setup();
  fireEvent.keyDown(tabs()[1]!, { key: "F2" });
  let field = screen.getByTestId("rename-tab") as HTMLInputElement;
  assert.equal(field.value, "echo · one.test");
  fireEvent.keyDown(field, { key: "Enter" });
  assert.deepEqual(log, []);

  fireEvent.doubleClick(tabs()[1]!);
  field = screen.getByTestId("rename-tab") as HTMLInputElement;
  fireEvent.change(field, { target: { value: "Staging echo" } });
  fireEvent.keyDown(field, { key: "Escape" });
  assert.deepEqual(log, []);

  fireEvent.doubleClick(tabs()[1]!);
  field = screen.getByTestId("rename-tab") as HTMLInputElement;
  fireEvent.change(field, { target: { value: "Staging echo" } });
  fireEvent.keyDown(field, { key: "Enter" });
  assert.deepEqual(log, ["rename b Staging echo"]);
  assert.equal(names(tabs())[1], "Staging echo");
  assert.equal(document.activeElement, tabs()[1], "the focus returns to the renamed tab");
});

test("+ opens a new tab, which becomes the active one", () => {
  const { tabs, log } = setup();
  fireEvent.click(screen.getByRole("button", { name: "New tab" }));
  assert.deepEqual(log, ["new"]);
  assert.equal(tabs().length, 4);
  assert.equal(tabs()[3]!.getAttribute("aria-selected"), "true");
});
