/**
 * The recorder against a real event stream (node:http on 127.0.0.1): what it records of the stream is capped like a
 * body, while the consumer of the response and `onSseEvent` still get every event whole.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SseEvent } from "@/lib/mcp/contract";
import { SseParser, type ParsedSseEvent } from "@/lib/mcp/sse-parser";
import { createRecorder, MAX_RECORDED_SSE_CHARS } from "./recording-fetch.ts";

/** The streams served, by path: each a list of events written as they would be by an MCP server. */
const STREAMS: Record<string, ParsedSseEvent[]> = {
  // About 3 MB of small events: fifteen times the budget.
  "/many": Array.from({ length: 30_000 }, (_, i) => ({ event: "message", id: String(i), data: `{"n":${i},"pad":"${"x".repeat(80)}"}` })),
  // One event larger than the whole budget, then a small one.
  "/huge": [{ data: "é".repeat(MAX_RECORDED_SSE_CHARS * 2) }, { data: "after" }],
  // Every field name and line shape of a small stream, well under the budget.
  "/small": [
    { event: "endpoint", data: "/messages?s=1" },
    { id: "7", data: "line one\nline two" },
  ],
};

function serialise(e: ParsedSseEvent): string {
  const fields = [
    e.event !== undefined ? `event: ${e.event}` : "",
    e.id !== undefined ? `id: ${e.id}` : "",
    ...e.data.split("\n").map((l) => `data: ${l}`),
  ];
  return `${fields.filter(Boolean).join("\n")}\n\n`;
}

let server: http.Server;
let base: string;
before(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    // Written in chunks of many events, the way a busy server fills its socket.
    const events = STREAMS[req.url ?? ""] ?? [];
    for (let i = 0; i < events.length; i += 500)
      res.write(
        events
          .slice(i, i + 500)
          .map(serialise)
          .join(""),
      );
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** Fetches a stream through a recorder and reads it as the SDK would: every event of the returned body. */
async function consume(path: string) {
  const delivered: SseEvent[] = [];
  const recorder = createRecorder(fetch, { secretHeaderNames: [], maxBodyBytes: 100_000_000, onSseEvent: (e) => delivered.push(e) });
  const res = await recorder.fetch(`${base}${path}`);
  const read: ParsedSseEvent[] = [];
  const parser = new SseParser((e) => read.push(e));
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.push(decoder.decode(chunk, { stream: true }));
  return { read, delivered, exchange: recorder.exchanges[0] };
}

const utf8 = (events: ParsedSseEvent[]) => events.reduce((sum, e) => sum + Buffer.byteLength(e.data), 0);

test("a stream of many events: the record stays within the budget, the consumer reads every event", async () => {
  const sent = STREAMS["/many"];
  const { read, delivered, exchange } = await consume("/many");
  assert.deepEqual(read, sent);
  assert.equal(delivered.length, sent.length);
  assert.deepEqual(delivered.at(-1)?.data, sent.at(-1)?.data);

  const response = exchange.response!;
  const recorded = response.sseEvents;
  assert.ok(recorded.length > 0 && recorded.length < sent.length, `${recorded.length} recorded`);
  // A gapless prefix, and the events in it are whole.
  recorded.forEach((e, i) => assert.equal(e.data, sent[i].data));
  assert.ok(JSON.stringify(exchange).length < MAX_RECORDED_SSE_CHARS * 1.2, `${JSON.stringify(exchange).length} chars recorded`);
  assert.deepEqual(response.sseEventsOmitted, { count: sent.length - recorded.length, bytes: utf8(sent.slice(recorded.length)) });
});

test("one event larger than the budget is recorded cut, and delivered whole", async () => {
  const [huge, small] = STREAMS["/huge"];
  const { read, delivered, exchange } = await consume("/huge");
  assert.deepEqual(read, STREAMS["/huge"]);
  assert.equal(delivered[0].data.length, huge.data.length);
  assert.equal(delivered[1].data, small.data);

  const response = exchange.response!;
  assert.equal(response.sseEvents.length, 1);
  const kept = response.sseEvents[0].data;
  assert.ok(kept.length > 0 && kept.length <= MAX_RECORDED_SSE_CHARS, `${kept.length} chars kept`);
  assert.ok(huge.data.startsWith(kept));
  assert.deepEqual(response.sseEventsOmitted, {
    count: 1,
    bytes: Buffer.byteLength(huge.data) - Buffer.byteLength(kept) + Buffer.byteLength(small.data),
  });
});

test("a stream under the budget is recorded whole, with no omission noted", async () => {
  const { read, exchange } = await consume("/small");
  assert.deepEqual(read, STREAMS["/small"]);
  const response = exchange.response!;
  assert.deepEqual(
    response.sseEvents.map(({ atMs: _, ...e }) => e),
    STREAMS["/small"],
  );
  assert.equal(response.sseEventsOmitted, undefined);
});
