import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveFetchHandler, type ServedHandler } from "../../demo/testing/node-http-adapter.ts";
import { appCalls, appsServer } from "../../upstream/testing/apps-server.ts";
import { elicitResult } from "./mrtr.ts";
import { MrtrStopped, runMrtrRounds, type InputAsk } from "./mrtr-rounds.ts";

/** The loop against a real 2026-07-28 server (the apps fixture's `stamp` asks for a label first), over real HTTP. */
const PROTOCOL = "2026-07-28";
let served: ServedHandler;
before(async () => {
  const handler = createMcpHandler(() => appsServer());
  served = await serveFetchHandler({ fetch: (req) => handler.fetch(req) });
});
after(() => served.close());

async function send(message: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const params = (message.params ?? {}) as Record<string, unknown>;
  const body = {
    ...message,
    params: {
      ...params,
      _meta: {
        "io.modelcontextprotocol/protocolVersion": PROTOCOL,
        "io.modelcontextprotocol/clientInfo": { name: "mrtr-rounds-test", version: "0.0.0" },
        "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      },
    },
  };
  const res = await fetch(served.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": PROTOCOL,
      "mcp-method": String(message.method),
      "mcp-name": String(params.name),
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const data = text.split("\n").find((l) => l.startsWith("data: "));
  return JSON.parse(data ? data.slice(6) : text);
}

const stamp = { jsonrpc: "2.0", id: "app-1", method: "tools/call", params: { name: "stamp", arguments: {} } };

describe("runMrtrRounds", () => {
  test("asks once, retries with the answer under a fresh id, and hands back the final result", async () => {
    appCalls.clear();
    const asked: InputAsk[] = [];
    const sent: Record<string, unknown>[] = [];
    const response = await runMrtrRounds(stamp, {
      send: (m) => (sent.push(m), send(m)),
      ask: async (ask) => (asked.push(ask), { [ask.requests[0].key]: elicitResult("accept", { label: "approved" }) }),
    });
    assert.deepEqual((response?.result as { content: { text: string }[] }).content[0].text, "stamped approved");
    assert.equal(asked.length, 1);
    assert.equal(asked[0].round, 1);
    assert.deepEqual(
      asked[0].requests.map((r) => [r.key, r.kind]),
      [["label", "elicit-form"]],
    );
    assert.deepEqual(
      sent.map((m) => m.id),
      ["app-1", "app-1-r2"],
    );
    assert.equal(appCalls.get("stamp"), 1);
  });

  test("a closed dialog stops without a retry, and says so", async () => {
    appCalls.clear();
    let sends = 0;
    await assert.rejects(
      runMrtrRounds(stamp, { send: (m) => (sends++, send(m)), ask: async () => null }),
      (err: unknown) => err instanceof MrtrStopped && /closed the input dialog/.test(err.message),
    );
    assert.equal(sends, 1);
    assert.equal(appCalls.get("stamp"), undefined);
  });

  test("a server that keeps asking is stopped at the round limit", async () => {
    let sends = 0;
    await assert.rejects(
      // Declining is a final answer for `stamp`; an answer under another key leaves the server asking again.
      runMrtrRounds(stamp, { send: (m) => (sends++, send(m)), ask: async (a) => ({ other: a.round }), limit: 3 }),
      (err: unknown) => err instanceof MrtrStopped && /(round limit 3|same answer)/.test(err.message),
    );
    assert.ok(sends <= 3, `sent ${sends}`);
  });

  test("an answer that is not input_required is final at once", async () => {
    let asks = 0;
    const response = await runMrtrRounds(
      { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "tick", arguments: {} } },
      { send, ask: async () => (asks++, {}) },
    );
    assert.match(JSON.stringify(response?.result), /tick/);
    assert.equal(asks, 0);
  });
});
