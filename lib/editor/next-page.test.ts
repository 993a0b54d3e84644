import { test } from "node:test";
import assert from "node:assert/strict";
import { nextPageRequest, PAGED_METHODS } from "./next-page.ts";
import { requestTemplate } from "./templates.ts";

const page = (result: Record<string, unknown>) => ({ jsonrpc: "2.0", id: 1, result });

test("a list page with nextCursor gives the same method's template with params.cursor", () => {
  const next = nextPageRequest("tools/list", page({ tools: [], nextCursor: "eyJvZmZzZXQiOjV9" }));
  assert.deepEqual(next && { method: next.method, cursor: next.cursor }, { method: "tools/list", cursor: "eyJvZmZzZXQiOjV9" });
  assert.equal(
    next?.text,
    '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list",\n  "params": {\n    "cursor": "eyJvZmZzZXQiOjV9"\n  }\n}',
  );
  // Same id scheme and layout as the template it continues.
  assert.deepEqual({ ...JSON.parse(next!.text), params: {} }, JSON.parse(requestTemplate("tools/list")));
});

test("every paginated list method is covered; the cursor is passed on byte for byte", () => {
  const odd = 'a "quoted"\\ cursor ✓ with spaces';
  for (const method of PAGED_METHODS) {
    const next = nextPageRequest(method, page({ nextCursor: odd }));
    assert.equal(JSON.parse(next!.text).method, method);
    assert.equal(JSON.parse(next!.text).params.cursor, odd);
  }
});

test("no next page: the last page, a non-string cursor, an error, another method, no response", () => {
  assert.equal(nextPageRequest("tools/list", page({ tools: [] })), undefined);
  assert.equal(nextPageRequest("tools/list", page({ tools: [], nextCursor: 5 })), undefined);
  assert.equal(nextPageRequest("tools/list", page({ tools: [], nextCursor: null })), undefined);
  assert.equal(nextPageRequest("tools/list", { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "bad cursor" } }), undefined);
  assert.equal(nextPageRequest("tools/call", page({ content: [], nextCursor: "x" })), undefined);
  assert.equal(nextPageRequest(undefined, page({ nextCursor: "x" })), undefined);
  assert.equal(nextPageRequest("tools/list", null), undefined);
});
