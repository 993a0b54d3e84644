import { test } from "node:test";
import assert from "node:assert/strict";
import { streamConduct } from "./stream-conduct.ts";

const call = (meta: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "t", arguments: {}, _meta: meta },
});
const log = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "hi" } };
const progress = (progressToken: unknown) => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken, progress: 1 } });

test("a well-behaved stream: asked-for logs and our own progress token raise nothing", () => {
  assert.deepEqual(
    streamConduct(call({ progressToken: "p1", "io.modelcontextprotocol/logLevel": "debug" }), [progress("p1"), log, progress("p1")]),
    [],
  );
  assert.deepEqual(streamConduct(call(), []), []);
});

test("a server request on the stream is named, once per method", () => {
  const sampling = { jsonrpc: "2.0", id: 9, method: "sampling/createMessage", params: {} };
  const out = streamConduct(call(), [sampling, { ...sampling, id: 10 }]);
  assert.equal(out.length, 1);
  assert.match(out[0]!, /JSON-RPC request \(sampling\/createMessage\).*input_required.*did not answer/);
});

test("logs nobody asked for, and logs on a listen stream", () => {
  assert.match(streamConduct(call({ progressToken: "p" }), [log, log])[0]!, /set no io\.modelcontextprotocol\/logLevel/);
  assert.equal(streamConduct(call({ progressToken: "p" }), [log, log]).length, 1);
  const listen = {
    jsonrpc: "2.0",
    id: 2,
    method: "subscriptions/listen",
    params: { _meta: { "io.modelcontextprotocol/logLevel": "debug" } },
  };
  assert.match(streamConduct(listen, [log])[0]!, /subscriptions\/listen stream/);
});

test("progress for a token the request did not send", () => {
  assert.match(streamConduct(call({ progressToken: "mine" }), [progress("theirs")])[0]!, /token "theirs".*it sent "mine"/);
  assert.match(streamConduct(call(), [progress(5)])[0]!, /sent no progressToken at all/);
  assert.deepEqual(streamConduct(call({ progressToken: 0 }), [progress(0)]), [], "0 is a valid token");
});
