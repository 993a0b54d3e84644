import { test } from "node:test";
import assert from "node:assert/strict";
import { listMySnapshots, MAX_MY_SNAPSHOTS, rememberMySnapshot } from "./my-snapshots.ts";

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) } as Storage;
}

test("snapshots shared here are listed newest first, a repeat moves up, at most MAX_MY_SNAPSHOTS", () => {
  const s = memory();
  rememberMySnapshot(s, { id: "a", server: "builtin:demo", at: "2026-12-01T00:00:00Z" });
  rememberMySnapshot(s, { id: "b", server: "http://x/mcp", at: "2026-12-02T00:00:00Z" });
  rememberMySnapshot(s, { id: "a", server: "builtin:demo", at: "2026-12-03T00:00:00Z" });
  assert.deepEqual(
    listMySnapshots(s).map((e) => e.id),
    ["a", "b"],
  );
  for (let i = 0; i < MAX_MY_SNAPSHOTS + 5; i++) rememberMySnapshot(s, { id: `n${i}`, server: "s", at: "t" });
  assert.equal(listMySnapshots(s).length, MAX_MY_SNAPSHOTS);
});

test("an unreadable or refusing store is no error", () => {
  assert.deepEqual(listMySnapshots({ getItem: () => "{not json" }), []);
  assert.deepEqual(listMySnapshots({ getItem: () => JSON.stringify([{ id: 1 }, { id: "x", server: "s", at: "t" }]) }), [
    { id: "x", server: "s", at: "t" },
  ]);
  assert.doesNotThrow(() =>
    rememberMySnapshot(
      {
        getItem: () => null,
        setItem: () => {
          throw new Error("quota");
        },
      },
      { id: "a", server: "s", at: "t" },
    ),
  );
  assert.deepEqual(listMySnapshots(undefined), []);
});
