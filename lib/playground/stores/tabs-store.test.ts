import { test } from "node:test";
import assert from "node:assert/strict";
import {
  activeTab,
  applyAddress,
  closeTab,
  EMPTY_TABS,
  isPristine,
  loadTabs,
  MAX_TAB_NAME_CHARS,
  MAX_TAB_RESULT_BYTES,
  MAX_TABS,
  moveTab,
  openTab,
  pinnedEra,
  renameTab,
  reportTab,
  saveTabs,
  selectTab,
  setTabServer,
  STORAGE_KEY,
  tabAddress,
  tabTitle,
  type TabsState,
} from "./tabs-store.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";

function three(): TabsState {
  let s = openTab(EMPTY_TABS, "a", { server: "builtin:demo" }).state;
  s = openTab(s, "b", { server: "http://one.test/mcp" }).state;
  return openTab(s, "c", { server: "http://two.test/mcp" }).state;
}

const call = (name: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } });

test("opening makes the new tab active, up to the limit, which says what to do", () => {
  let s = EMPTY_TABS;
  for (let i = 0; i < MAX_TABS; i++) s = openTab(s, `t${i}`, { server: "builtin:demo" }).state;
  assert.equal(s.tabs.length, MAX_TABS);
  assert.equal(s.activeId, `t${MAX_TABS - 1}`);
  const over = openTab(s, "extra", { server: "builtin:demo" });
  assert.equal(over.state, s);
  assert.match(over.error ?? "", /At most 20 tabs .* close one/);
});

test("closing the active tab activates its right neighbour, else its left; closing another keeps the active one", () => {
  let s = selectTab(three(), "b");
  s = closeTab(s, "b");
  assert.deepEqual(
    s.tabs.map((t) => t.id),
    ["a", "c"],
  );
  assert.equal(s.activeId, "c");
  s = closeTab(s, "c");
  assert.equal(s.activeId, "a");
  s = closeTab(openTab(s, "d", { server: "builtin:demo" }).state, "a");
  assert.equal(s.activeId, "d");
  assert.equal(closeTab(s, "d").activeId, null);
});

test("selecting an unknown tab changes nothing", () => {
  const s = three();
  assert.equal(selectTab(s, "nope"), s);
  assert.equal(selectTab(s, "a").activeId, "a");
});

test("renaming trims and caps the name; a blank name goes back to the derived title", () => {
  let s = renameTab(three(), "a", "  My call  ");
  assert.equal(tabTitle(s.tabs[0]!), "My call");
  s = renameTab(s, "a", "x".repeat(200));
  assert.equal(s.tabs[0]!.name!.length, MAX_TAB_NAME_CHARS);
  s = renameTab(s, "a", "   ");
  assert.equal(s.tabs[0]!.name, undefined);
  assert.equal(tabTitle(s.tabs[0]!), "new request · demo");
});

test("moving a tab reorders and stops at both ends", () => {
  const order = (s: TabsState) => s.tabs.map((t) => t.id).join("");
  let s = moveTab(three(), "a", 1);
  assert.equal(order(s), "bac");
  s = moveTab(s, "a", 5);
  assert.equal(order(s), "bca");
  s = moveTab(s, "b", -1);
  assert.equal(order(s), "bca");
  assert.equal(s.activeId, "c", "moving does not change which tab is active");
});

test("titles: the tool of a tools/call, else the method, with the server's short name", () => {
  const s = reportTab(three(), "b", call("echo"), undefined);
  assert.equal(tabTitle(s.tabs[1]!), "echo · one.test");
  const t = reportTab(s, "c", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', undefined);
  assert.equal(tabTitle(t.tabs[2]!), "tools/list · two.test");
  assert.equal(tabTitle({ id: "x", server: "stdio:files", tool: "read" }), "read · files");
  assert.equal(tabTitle({ id: "x", server: "http://h.test:8080/mcp", text: "{ not json" }), "new request · h.test:8080");
});

test("a tab stays pristine until its text changes or a result arrives", () => {
  let s = reportTab(three(), "b", call("echo"), undefined);
  assert.equal(isPristine(s.tabs[1]!), true, "the first text is the base");
  s = reportTab(s, "b", call("add"), undefined);
  assert.equal(isPristine(s.tabs[1]!), false);
  s = reportTab(s, "c", call("echo"), undefined);
  s = reportTab(s, "c", call("echo"), { result: {} });
  assert.equal(isPristine(s.tabs[2]!), false);
});

test("a tab's address names its tool only while nobody has worked in it", () => {
  const opened = openTab(EMPTY_TABS, "t", { server: "builtin:demo", tool: "search_issues" }).state;
  let s = reportTab(opened, "t", call("search_issues"), undefined);
  assert.equal(tabAddress(s.tabs[0]!), "/playground?server=builtin%3Ademo&tool=search_issues");
  s = reportTab(s, "t", call("add"), undefined);
  assert.equal(tabAddress(s.tabs[0]!), "/playground?server=builtin%3Ademo");
});

test("a report that changes nothing returns the same state (no re-render loop)", () => {
  const response = { result: { ok: true } };
  const s = reportTab(three(), "a", call("echo"), response);
  assert.equal(reportTab(s, "a", call("echo"), response), s);
  assert.equal(reportTab(s, "a", call("echo"), undefined), s, "no result yet keeps the kept one");
  assert.notEqual(reportTab(s, "a", call("echo"), { result: {} }), s);
});

test("address: restore keeps the tabs, or opens one demo tab the first time", () => {
  const first = applyAddress(EMPTY_TABS, { kind: "restore" }, "n");
  assert.deepEqual(first.state, { tabs: [{ id: "n", server: "builtin:demo" }], activeId: "n" });
  const s = three();
  assert.equal(applyAddress(s, { kind: "restore" }, "n").state, s);
});

test("address ?server=: a pristine tab for it is focused, a worked-in one is never overwritten", () => {
  let s = reportTab(three(), "b", call("echo"), undefined);
  s = selectTab(s, "a");
  let r = applyAddress(s, { kind: "server", server: "http://one.test/mcp" }, "n");
  assert.equal(r.state.activeId, "b");
  assert.equal(r.state.tabs.length, 3);

  // The same pristine tab asked for another tool gets that tool's call (it held only the text it opened with).
  r = applyAddress(s, { kind: "server", server: "http://one.test/mcp", tool: "add" }, "n");
  assert.equal(activeTab(r.state)!.tool, "add");
  assert.equal(activeTab(r.state)!.text, undefined);

  s = reportTab(s, "b", call("edited"), undefined);
  r = applyAddress(s, { kind: "server", server: "http://one.test/mcp", tool: "add" }, "n");
  assert.equal(r.state.tabs.length, 4);
  assert.deepEqual(activeTab(r.state), { id: "n", server: "http://one.test/mcp", tool: "add" });
  assert.equal(r.state.tabs[1]!.text, call("edited"), "the edited tab keeps its text");
});

test("address share link: always a new tab with its request and response", () => {
  const r = applyAddress(
    three(),
    { kind: "share", server: "builtin:demo", era: "modern", request: call("x"), response: { result: 1 } },
    "n",
  );
  assert.deepEqual(activeTab(r.state), {
    id: "n",
    server: "builtin:demo",
    era: "modern",
    text: call("x"),
    baseText: call("x"),
    response: { result: 1 },
  });
});

test("switching a tab's server keeps its text and drops the old server's result and era", () => {
  let s = reportTab(three(), "a", call("echo"), { result: 1 });
  s = { ...s, tabs: s.tabs.map((t) => (t.id === "a" ? { ...t, era: "legacy" as const } : t)) };
  s = setTabServer(s, "a", "http://new.test/mcp", undefined);
  assert.deepEqual(s.tabs[0], { id: "a", server: "http://new.test/mcp", text: call("echo"), baseText: call("echo") });
  assert.equal(setTabServer(s, "a", "http://new.test/mcp", "modern").tabs[0]!.era, "modern");
  assert.equal(setTabServer(s, "a", "http://new.test/mcp", "auto").tabs[0]!.era, undefined);
  assert.equal(pinnedEra(setTabServer(s, "a", "http://new.test/mcp", "legacy-sse").tabs[0]!), "legacy");
});

test("save then load round-trips the tabs and the active one", () => {
  const storage = new MemoryStorage();
  const s = selectTab(renameTab(reportTab(three(), "b", call("echo"), { result: { n: 1 } }), "c", "Prod"), "b");
  assert.deepEqual(saveTabs(storage, s), {});
  assert.deepEqual(loadTabs(storage).state, s);
});

test("a result over the limit is stored as a note saying its size, and the tab stays not pristine", () => {
  const storage = new MemoryStorage();
  const big = { result: { blob: "x".repeat(MAX_TAB_RESULT_BYTES + 10) } };
  saveTabs(storage, reportTab(three(), "a", call("echo"), big));
  const tab = loadTabs(storage).state.tabs[0]!;
  assert.equal(tab.response, undefined);
  assert.equal(tab.responseNote, "result too large to keep (65 KB)");
  assert.equal(isPristine(tab), false);
  // A new result replaces the note.
  const next = reportTab({ tabs: [tab], activeId: "a" }, "a", call("echo"), { result: 2 });
  assert.equal(next.tabs[0]!.responseNote, undefined);
  assert.deepEqual(next.tabs[0]!.response, { result: 2 });
});

test("storage failures are reported, not thrown", () => {
  const full = {
    getItem: () => null,
    setItem: () => {
      throw Object.assign(new Error("quota"), { name: "QuotaExceededError" });
    },
  };
  assert.match(saveTabs(full, three()).error ?? "", /could not be saved .*QuotaExceededError.*close tabs/);
  assert.match(saveTabs(undefined, three()).error ?? "", /no local storage/);
  const denied = {
    getItem: () => {
      throw Object.assign(new Error("denied"), { name: "SecurityError" });
    },
  };
  assert.deepEqual(loadTabs(denied), { state: EMPTY_TABS, error: "The kept tabs could not be read (SecurityError)." });
});

test("damaged or hostile storage is checked field by field", () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, "{oops");
  assert.match(loadTabs(storage).error ?? "", /damaged/);
  storage.setItem(
    STORAGE_KEY,
    JSON.stringify({
      activeId: "gone",
      tabs: [{ id: "a", server: "builtin:demo", era: "ancient", name: 5, text: "t" }, { id: "a", server: "x" }, { server: "no id" }, null],
    }),
  );
  assert.deepEqual(loadTabs(storage), { state: { tabs: [{ id: "a", server: "builtin:demo", text: "t" }], activeId: "a" } });
  storage.setItem(STORAGE_KEY, JSON.stringify({ tabs: Array.from({ length: 50 }, (_, i) => ({ id: `t${i}`, server: "builtin:demo" })) }));
  assert.equal(loadTabs(storage).state.tabs.length, MAX_TABS);
  assert.deepEqual(loadTabs(new MemoryStorage()), { state: EMPTY_TABS });
});
