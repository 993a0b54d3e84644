import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import type { EditorDiagnostic } from "../editor/request-diagnostics.ts";
import { DEFAULT_PREFS } from "./stores/prefs-store.ts";
import {
  calledTool,
  errorCount,
  initialState,
  isPreviousResult,
  lineColumn,
  parseMessage,
  planSend,
  reduce,
  replayTarget,
  selectText,
  sendBlockMessage,
  STILL_SENDABLE,
  type PlaygroundAction,
  type PlaygroundState,
  type SendPlan,
} from "./playground-state.ts";

const destructive = { name: "delete_issue", inputSchema: { type: "object" }, annotations: { destructiveHint: true } } as Tool;
const readOnly = { name: "search", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } } as Tool;
const tools = [destructive, readOnly];

const fresh = (over: Partial<PlaygroundState> = {}): PlaygroundState => ({
  ...initialState({ edited: null, prefs: { ...DEFAULT_PREFS } }),
  ...over,
});
const run = (state: PlaygroundState, ...actions: PlaygroundAction[]) => actions.reduce(reduce, state);
const call = (name: string, id = 1) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
const diag = (severity: EditorDiagnostic["severity"]): EditorDiagnostic => ({
  offset: 0,
  length: 1,
  severity,
  source: "mcp",
  message: severity,
});

// ---- initial state ----

test("initial state: nothing open, no error, the handed-in text and prefs", () => {
  const prefs = { ...DEFAULT_PREFS, split: 0.3 };
  const s = initialState({ edited: "{}", prefs });
  assert.deepEqual(s, {
    edited: "{}",
    diagnostics: [],
    parseError: null,
    refusedAt: null,
    prefs,
    confirming: null,
    overlay: null,
    showHistory: false,
    showSaved: false,
    showTests: false,
    overrideDrafts: [],
    toolsNotice: null,
    savedNotice: null,
  });
});

// ---- editor text and the one parse ----

test("selectText: the edited text wins; else the default request; null while there is none", () => {
  assert.equal(selectText(fresh(), null), null);
  assert.equal(selectText(fresh(), "default"), "default");
  assert.equal(selectText(fresh({ edited: "mine" }), "default"), "mine");
  assert.equal(selectText(fresh({ edited: "" }), "default"), "", "an emptied editor stays empty, it does not fall back");
});

test("edit: replaces the text and keeps the parse error until the next Send", () => {
  const s = run(fresh({ parseError: "bad" }), { type: "edit", text: "{" });
  assert.equal(s.edited, "{");
  assert.equal(s.parseError, "bad");
  assert.equal(reduce(s, { type: "edit", text: "{" }), s, "the same text is no new state");
});

test("diagnostics: stored as given; errorCount counts errors only", () => {
  const s = reduce(fresh(), { type: "diagnostics", diagnostics: [diag("error"), diag("warning"), diag("error")] });
  assert.equal(s.diagnostics.length, 3);
  assert.equal(errorCount(s), 2);
  assert.equal(errorCount(fresh()), 0);
});

test("parseMessage: a JSON object parses", () => {
  assert.deepEqual(parseMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}'), {
    ok: true,
    value: { jsonrpc: "2.0", id: 1, method: "ping" },
  });
});

test("parseMessage: invalid JSON, a batch, a scalar and integers beyond 2^53 are refused with what, where, and that Send waits", () => {
  const bad = parseMessage('{\n  "id": 1\n  "method": "ping"\n}');
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.block, { what: "The request is not valid JSON: A comma is expected", line: 3, column: 3 });
  assert.equal(
    !bad.ok && bad.error,
    "Line 3, column 3: The request is not valid JSON: A comma is expected. Send will not send the request until this is fixed.",
  );
  for (const text of ["[]", '[{"method":"ping"}]', "42", "null", ' "x"']) {
    const r = parseMessage(text);
    assert.equal(
      !r.ok && r.error,
      `Line 1, column ${text.indexOf(text.trim()) + 1}: The request must be one JSON object (a JSON-RPC message); batches are not part of MCP. Send will not send the request until this is fixed.`,
      text,
    );
  }
  const big = parseMessage('{"id":9007199254740993,"method":"ping"}');
  assert.equal(big.ok, false);
  assert.match(!big.ok ? big.error : "", /^Line 1, column 7: 9007199254740993 .* Send will not send the request until this is fixed\.$/);
  assert.equal(parseMessage('{"id":9007199254740991}').ok, true, "the largest safe integer is fine");
  const empty = parseMessage("");
  assert.match(!empty.ok ? empty.error : "", /^Line 1, column 1: The request is not valid JSON: The request is empty/);
});

test("lineColumn: 1-based, counting from the last newline", () => {
  assert.deepEqual(lineColumn("abc", 0), { line: 1, column: 1 });
  assert.deepEqual(lineColumn("ab\ncd", 4), { line: 2, column: 2 });
  assert.deepEqual(lineColumn("ab\n", 3), { line: 2, column: 1 });
});

test("the blocking and the non-blocking wording are distinct", () => {
  assert.match(sendBlockMessage({ what: "X is wrong.", line: 2, column: 5 }), /^Line 2, column 5: X is wrong\. Send will not send/);
  assert.match(STILL_SENDABLE, /can still be sent/);
});

test("calledTool: the listed tool a tools/call names, nothing for other methods or unknown names", () => {
  assert.equal(calledTool(JSON.parse(call("delete_issue")), tools), destructive);
  assert.equal(calledTool(JSON.parse(call("nope")), tools), undefined);
  assert.equal(calledTool({ method: "tools/list", params: { name: "delete_issue" } }, tools), undefined);
  assert.equal(calledTool(JSON.parse(call("delete_issue")), null), undefined);
  assert.equal(calledTool({ method: "tools/call" }, tools), undefined);
});

// ---- send ----

test("planSend: invalid text is refused with the parse error", () => {
  const parsed = parseMessage("{");
  assert.ok(!parsed.ok);
  assert.deepEqual(planSend("{", parsed, tools, true), { kind: "invalid", error: parsed.error, block: parsed.block });
});

test("planSend: a destructive tool asks first while the preference says so; otherwise it runs", () => {
  const text = call("delete_issue");
  const parsed = parseMessage(text);
  assert.deepEqual(planSend(text, parsed, tools, true), {
    kind: "confirm",
    pending: { message: JSON.parse(text), text, tool: destructive },
  });
  assert.deepEqual(planSend(text, parsed, tools, false), { kind: "run", message: JSON.parse(text), text });
  const safe = call("search");
  assert.equal(planSend(safe, parseMessage(safe), tools, true).kind, "run");
  const list = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
  assert.deepEqual(planSend(list, parseMessage(list), tools, true), { kind: "run", message: JSON.parse(list), text: list });
});

const block = { what: "nope", line: 1, column: 1 };

test("send invalid: sets the parse error and when it was refused, opens nothing", () => {
  const plan: SendPlan = { kind: "invalid", error: "nope", block };
  const s = reduce(fresh(), { type: "send", plan, at: 500 });
  assert.equal(s.parseError, "nope");
  assert.equal(s.refusedAt, 500);
  assert.equal(s.confirming, null);
});

test("isPreviousResult: a result older than the last refusal is the previous send's; a later exchange is current", () => {
  assert.equal(isPreviousResult(fresh(), 100), false, "nothing refused");
  const refused = reduce(fresh(), { type: "send", plan: { kind: "invalid", error: "e", block }, at: 500 });
  assert.equal(isPreviousResult(refused, 100), true);
  assert.equal(isPreviousResult(refused, 600), false, "sent after the refusal");
  const sent = reduce(refused, { type: "send", plan: { kind: "run", message: { method: "ping" }, text: "{}" }, at: 700 });
  assert.equal(isPreviousResult(sent, 700), false);
});

test("send run: clears a previous parse error", () => {
  const s = reduce(fresh({ parseError: "old" }), { type: "send", plan: { kind: "run", message: { method: "ping" }, text: "{}" }, at: 1 });
  assert.equal(s.parseError, null);
  assert.equal(s.confirming, null);
});

test("destructive-confirm flow: send asks, cancel drops the call", () => {
  const text = call("delete_issue");
  const plan = planSend(text, parseMessage(text), tools, true);
  const asking = reduce(fresh({ parseError: "old" }), { type: "send", plan, at: 1 });
  assert.equal(asking.parseError, null);
  assert.equal(asking.confirming?.tool, destructive);
  assert.equal(asking.confirming?.text, text);
  assert.deepEqual(asking.confirming?.message, JSON.parse(text));
  const cancelled = reduce(asking, { type: "confirm-cancel" });
  assert.equal(cancelled.confirming, null);
  assert.equal(cancelled.prefs.confirmDestructive, true);
});

test("destructive-confirm flow: accept closes the dialog; 'don't ask again' arrives as the persisted prefs", () => {
  const text = call("delete_issue");
  const asking = reduce(fresh(), { type: "send", plan: planSend(text, parseMessage(text), tools, true), at: 1 });
  const accepted = run(asking, { type: "prefs", prefs: { ...asking.prefs, confirmDestructive: false } }, { type: "confirm-accept" });
  assert.equal(accepted.confirming, null);
  assert.equal(accepted.prefs.confirmDestructive, false);
  // The next Send of the same call then runs without asking.
  assert.equal(planSend(text, parseMessage(text), tools, accepted.prefs.confirmDestructive).kind, "run");
});

// ---- replay, next page ----

test("replay: the entry's request goes in the editor and the parse error goes", () => {
  const s = reduce(fresh({ edited: "old", parseError: "bad" }), { type: "replay", text: "replayed" });
  assert.equal(s.edited, "replayed");
  assert.equal(s.parseError, null);
});

test("replayTarget: same server here, stdio through the tab, other servers by share link", () => {
  assert.deepEqual(replayTarget({ server: "builtin:demo" }, "builtin:demo"), { kind: "here" });
  assert.deepEqual(replayTarget({ server: "stdio:memory" }, "builtin:demo"), { kind: "hand-off" });
  assert.deepEqual(replayTarget({ server: "https://example.com/mcp", era: "modern" }, "builtin:demo"), { kind: "share" });
  assert.deepEqual(replayTarget({ server: "stdio:memory" }, "stdio:memory"), { kind: "here" });
});

test("next-page: the next page's request goes in the editor and the parse error goes", () => {
  const s = reduce(fresh({ parseError: "bad" }), { type: "next-page", text: '{"method":"tools/list","params":{"cursor":"c"}}' });
  assert.equal(s.edited, '{"method":"tools/list","params":{"cursor":"c"}}');
  assert.equal(s.parseError, null);
});

// ---- overlays, panels ----

test("overlay open/close: one overlay at a time, each kind, copy with its language", () => {
  let s = fresh();
  for (const overlay of [
    { kind: "palette" },
    { kind: "templates" },
    { kind: "help" },
    { kind: "share" },
    { kind: "save" },
    { kind: "copy", language: "fetch" },
  ] as const) {
    s = reduce(s, { type: "overlay-open", overlay });
    assert.deepEqual(s.overlay, overlay);
  }
  s = reduce(s, { type: "overlay-open", overlay: { kind: "help" } });
  assert.deepEqual(s.overlay, { kind: "help" }, "opening another replaces the open one");
  s = reduce(s, { type: "overlay-close" });
  assert.equal(s.overlay, null);
  assert.equal(reduce(s, { type: "overlay-close" }), s, "closing nothing is no new state");
});

test("history and saved panels toggle independently", () => {
  const s = run(fresh(), { type: "history-toggle" });
  assert.equal(s.showHistory, true);
  assert.equal(s.showSaved, false);
  const t = run(s, { type: "saved-toggle" }, { type: "history-toggle" });
  assert.equal(t.showHistory, false);
  assert.equal(t.showSaved, true);
});

test("the Tests panel toggles; a collection from a link opens it and never closes it", () => {
  const s = run(fresh(), { type: "tests-toggle" });
  assert.equal(s.showTests, true);
  assert.equal(s.showSaved, false);
  assert.equal(reduce(s, { type: "tests-open" }), s, "open already: the same state");
  const closed = run(s, { type: "tests-toggle" });
  assert.equal(closed.showTests, false);
  assert.equal(run(closed, { type: "tests-open" }).showTests, true);
});

test("saved: the save dialog closes, the saved panel opens with the notice", () => {
  const s = run(fresh(), { type: "overlay-open", overlay: { kind: "save" } }, { type: "saved", text: "Saved “a” for x.", at: 5 });
  assert.equal(s.overlay, null);
  assert.equal(s.showSaved, true);
  assert.deepEqual(s.savedNotice, { text: "Saved “a” for x.", at: 5 });
  const again = run(s, { type: "saved-toggle" }, { type: "saved", text: "Saved “a” for x.", at: 6 });
  assert.equal(again.showSaved, true, "a save opens the panel even if it was closed");
  assert.notDeepEqual(again.savedNotice, s.savedNotice, "the same words again are a new notice");
});

// ---- notices, overrides, prefs ----

test("tools-notice replaces the previous notice", () => {
  const s = run(fresh(), { type: "tools-notice", text: "one" }, { type: "tools-notice", text: "two" });
  assert.equal(s.toolsNotice, "two");
});

test("overrides: the header override drafts are stored as given", () => {
  const drafts = [{ name: "X-Test", value: "1" }];
  assert.deepEqual(reduce(fresh(), { type: "overrides", drafts }).overrideDrafts, drafts);
  assert.deepEqual(reduce(fresh({ overrideDrafts: drafts }), { type: "overrides", drafts: [] }).overrideDrafts, []);
});

test("prefs: the persisted whole replaces the state's", () => {
  const prefs = { ...DEFAULT_PREFS, split: 0.7, previewOpen: false, logLevel: "debug" as const };
  assert.deepEqual(reduce(fresh(), { type: "prefs", prefs }).prefs, prefs);
});

test("reduce never mutates the state it is given", () => {
  const s = Object.freeze(fresh({ edited: "x" }));
  const actions: PlaygroundAction[] = [
    { type: "edit", text: "y" },
    { type: "send", plan: { kind: "invalid", error: "e", block }, at: 1 },
    { type: "replay", text: "r" },
    { type: "overlay-open", overlay: { kind: "palette" } },
    { type: "history-toggle" },
    { type: "saved", text: "t", at: 1 },
    { type: "prefs", prefs: DEFAULT_PREFS },
  ];
  for (const a of actions) assert.doesNotThrow(() => reduce(s, a));
  assert.equal(s.edited, "x");
});
