import { test } from "node:test";
import assert from "node:assert/strict";
import { SseParser, type ParsedSseEvent } from "./sse-parser.ts";

test("parses events split across chunks, joins data lines, ignores comments", () => {
  const out: ParsedSseEvent[] = [];
  const p = new SseParser((e) => out.push(e));
  p.push("event: message\nid: 7\nda");
  p.push('ta: {"a":1}\n: keepalive\ndata: x\r\n\r\n');
  p.push("data: second\n");
  assert.equal(out.length, 1);
  p.push("\n");
  assert.deepEqual(out, [
    { event: "message", id: "7", data: '{"a":1}\nx' },
    { data: "second", id: "7" },
  ]); // the last event id persists, as WHATWG says
});
