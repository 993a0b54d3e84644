import { test } from "node:test";
import assert from "node:assert/strict";
import type { SavedRequest } from "./saved-store.ts";
import {
  exportFileName,
  exportSaved,
  importReport,
  MAX_IMPORT_ENTRIES,
  MAX_IMPORT_FILE_BYTES,
  parseSavedImport,
  planMerge,
  SavedImportError,
} from "./saved-transfer.ts";

const NOW = Date.parse("2026-12-02T10:00:00.000Z");
let seq = 0;
const opts = { now: NOW, newId: () => `new${++seq}` };

function saved(name: string, server = "builtin:demo", extra: Partial<SavedRequest> = {}): SavedRequest {
  return {
    id: `${server}/${name}`,
    name,
    server,
    request: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    createdAt: NOW - 1000,
    updatedAt: NOW,
    ...extra,
  };
}

const doc = (requests: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ toolscope: "saved-requests", version: 1, exportedAt: new Date(NOW).toISOString(), requests, ...extra });

test("export → import round-trips, sorted by server then name, with ISO times; credentials in URLs are not written", () => {
  const all = [
    saved("b"),
    saved("A", "builtin:demo", { era: "modern", note: "hello" }),
    saved("q", "https://user:pw@mcp.example.com/mcp?api_key=sk-live-1&x=1", { id: "q1" }),
    saved("s", "stdio:files"),
  ];
  const text = exportSaved(all, new Date(NOW));
  const parsed = JSON.parse(text);
  assert.equal(parsed.toolscope, "saved-requests");
  assert.equal(parsed.version, 1);
  assert.equal(parsed.exportedAt, "2026-12-02T10:00:00.000Z");
  assert.deepEqual(
    parsed.requests.map((r: SavedRequest) => r.name),
    ["A", "b", "q", "s"],
  );
  assert.equal(parsed.requests[0].createdAt, "2026-12-02T09:59:59.000Z");
  assert.doesNotMatch(text, /sk-live|user:pw/);
  assert.equal(parsed.requests[2].server, "https://mcp.example.com/mcp?x=1");
  const back = parseSavedImport(text, opts);
  assert.deepEqual(back.invalid, []);
  assert.equal(back.droppedHeaders, 0);
  assert.deepEqual(
    back.requests.find((r) => r.name === "A"),
    all[1],
  );
  assert.deepEqual(
    back.requests.find((r) => r.name === "s"),
    all[3],
  );
  assert.equal(exportFileName(new Date(NOW)), "toolscope-saved-requests-2026-12-02.json");
  assert.equal(exportFileName(new Date(NOW), "https://mcp.example.com/mcp"), "toolscope-saved-mcp-example-com-mcp-2026-12-02.json");
  assert.equal(exportFileName(new Date(NOW), "builtin:demo"), "toolscope-saved-builtin-demo-2026-12-02.json");
});

test("whole-file problems are refused with a specific message and nothing imported", () => {
  const refuse = (text: string, message: RegExp) =>
    assert.throws(
      () => parseSavedImport(text, opts),
      (err: unknown) => err instanceof SavedImportError && message.test(err.message),
    );
  refuse("{ nope", /^The file is not JSON/);
  refuse(JSON.stringify([1, 2]), /not a Toolscope saved-requests file/);
  refuse(JSON.stringify({ toolscope: "history", version: 1, requests: [] }), /not a Toolscope saved-requests file/);
  refuse(doc([], { version: 2 }), /format version 2; this Toolscope reads version 1 only/);
  refuse(doc([], { version: "1" }), /format version "1"/);
  refuse(JSON.stringify({ toolscope: "saved-requests", version: 1, requests: {} }), /^requests must be an array/);
  refuse(
    doc(Array.from({ length: MAX_IMPORT_ENTRIES + 1 }, (_, i) => ({ name: `n${i}`, server: "builtin:demo", request: "{}" }))),
    new RegExp(`holds ${MAX_IMPORT_ENTRIES + 1} requests`),
  );
  refuse(doc([{ name: "x", server: "builtin:demo", request: "x".repeat(MAX_IMPORT_FILE_BYTES) }]), /may be at most 5 MB/);
});

test("bad entries are skipped with the path of what is wrong; the good ones stay; unknown fields and headers are dropped", () => {
  const parsed = parseSavedImport(
    doc([
      {
        id: "ok1",
        name: "Fine",
        server: "builtin:demo",
        request: "{}",
        createdAt: "2026-01-01T00:00:00Z",
        extra: "stripped",
        headers: { Authorization: "Bearer sk-live-2" },
      },
      { name: "", server: "builtin:demo", request: "{}" },
      { name: "n", server: "ftp://x", request: "{}" },
      { name: "n", server: "builtin:demo", request: 42 },
      { name: "n", server: "builtin:demo", request: "{}", era: "future" },
      { name: "n", server: "builtin:demo", request: "{}", createdAt: "yesterday" },
      "a string",
      { name: " fine ", server: "builtin:demo", request: "{}" },
      { name: "No id", server: "stdio:files", request: "{}" },
    ]),
    opts,
  );
  assert.deepEqual(parsed.invalid, [
    "requests[1].name must be a non-empty string",
    'requests[2].server must be an http(s) URL, builtin:<id> or stdio:<name>, not "ftp://x"',
    "requests[3].request must be a non-empty string",
    'requests[4].era must be "modern" or "legacy"',
    "requests[5].createdAt must be an ISO 8601 date string",
    "requests[6] must be an object",
    'requests[7] repeats "Fine" (same id, or same server and name) earlier in the file',
  ]);
  assert.equal(parsed.droppedHeaders, 1);
  assert.deepEqual(parsed.requests[0], {
    id: "ok1",
    name: "Fine",
    server: "builtin:demo",
    request: "{}",
    createdAt: Date.parse("2026-01-01T00:00:00Z"),
    updatedAt: Date.parse("2026-01-01T00:00:00Z"),
  });
  assert.equal(parsed.requests[1].name, "No id");
  assert.match(parsed.requests[1].id, /^new\d+$/);
  assert.equal(parsed.requests[1].createdAt, NOW);
  assert.doesNotMatch(JSON.stringify(parsed.requests), /sk-live|stripped/);
});

test("merge: new ones are added; a match by id or by server+name is replaced (keeping the existing id) or kept", () => {
  const existing = [saved("A"), saved("B"), saved("C", "stdio:files")];
  const incoming = [
    { ...saved("A"), request: '{"changed":1}' }, // same id
    { ...saved("b"), id: "other-id" }, // same server + name (any case)
    saved("New"),
    saved("C"), // same name on another server: new
  ];
  const replace = planMerge(existing, incoming, "replace");
  assert.deepEqual([replace.imported, replace.replaced, replace.kept], [2, 2, 0]);
  assert.deepEqual(replace.put.map((r) => r.id).sort(), ["builtin:demo/A", "builtin:demo/B", "builtin:demo/C", "builtin:demo/New"]);
  assert.equal(replace.put.find((r) => r.id === "builtin:demo/B")?.name, "b");
  assert.deepEqual(replace.remove, []);
  const skip = planMerge(existing, incoming, "skip");
  assert.deepEqual([skip.imported, skip.replaced, skip.kept], [2, 0, 2]);
  assert.deepEqual(
    skip.put.map((r) => r.name),
    ["New", "C"],
  );

  // The id of one and the name of another: the named one is replaced, the other removed (no twin left).
  const both = planMerge([saved("X"), saved("Y")], [{ ...saved("Y"), id: "builtin:demo/X" }], "replace");
  assert.deepEqual(
    both.put.map((r) => [r.id, r.name]),
    [["builtin:demo/Y", "Y"]],
  );
  assert.deepEqual(both.remove, ["builtin:demo/X"]);
});

test("the report says what happened, in counts, with the first problems", () => {
  const parsed = { requests: [], invalid: ["requests[3].name must be a non-empty string", "b", "c", "d"], droppedHeaders: 2 };
  assert.equal(
    importReport(parsed, { put: [], remove: [], imported: 12, replaced: 2, kept: 1 }),
    "Imported 12, replaced 2, kept 1 existing, skipped 4 invalid: requests[3].name must be a non-empty string; b; c; and 1 more. Dropped the headers field of 2 entries: header values are never imported.",
  );
  assert.equal(
    importReport({ requests: [], invalid: [], droppedHeaders: 0 }, { put: [], remove: [], imported: 3, replaced: 0, kept: 0 }),
    "Imported 3.",
  );
});
