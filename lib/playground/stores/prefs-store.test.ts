import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_PREFS, loadPrefs, savePrefs } from "./prefs-store.ts";

function memory(initial?: string) {
  let value = initial ?? null;
  return { getItem: () => value, setItem: (_k: string, v: string) => void (value = v) };
}

test("the explorer starts open and the notifications pane closed; both are remembered", () => {
  const storage = memory();
  assert.equal(loadPrefs(storage).explorerOpen, true);
  assert.equal(loadPrefs(storage).notificationsOpen, false);
  savePrefs({ explorerOpen: false, notificationsOpen: true }, storage);
  const prefs = loadPrefs(storage);
  assert.equal(prefs.explorerOpen, false);
  assert.equal(prefs.notificationsOpen, true);
  assert.equal(prefs.split, DEFAULT_PREFS.split, "the rest untouched");
});

test("malformed explorer and notifications values fall back to the defaults", () => {
  const prefs = loadPrefs(memory(JSON.stringify({ explorerOpen: "no", notificationsOpen: 1 })));
  assert.equal(prefs.explorerOpen, DEFAULT_PREFS.explorerOpen);
  assert.equal(prefs.notificationsOpen, DEFAULT_PREFS.notificationsOpen);
});
