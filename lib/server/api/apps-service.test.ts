/**
 * MCP Apps through the API's service (issue 29): an app's view read from a real SDK server and made ready for the
 * sandbox, and the rule for what an app may send its server, in both eras. The server counts each tool's calls: a
 * refused call must never reach it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createMcpHandler } from "@modelcontextprotocol/server";

process.env.TOOLSCOPE_MODE = "local";
process.env.TOOLSCOPE_MAX_APP_HTML_BYTES = "100000";
delete process.env.REDIS_URL;

const { serveFetchHandler } = await import("@/lib/demo/testing/node-http-adapter");
const { appsServer, appCalls, CLOCK_URI, BIG_URI, WRONG_TYPE_URI } = await import("@/lib/upstream/testing/apps-server");
const { config } = await import("../platform/config.ts");
const { connect } = await import("./proxy-service.ts");
const { appRpc, appViewFor } = await import("./apps-service.ts");
const { ProxyError } = await import("@/lib/upstream/policy");

let served: Awaited<ReturnType<typeof serveFetchHandler>>;
before(async () => {
  const handler = createMcpHandler(() => appsServer({ bigBytes: 200_000 }));
  served = await serveFetchHandler({ fetch: (req) => handler.fetch(req) });
});
after(() => served.close());

const ORIGIN = "http://127.0.0.1:3000";
const ctx = () => ({ config: config(), origin: ORIGIN, signal: new AbortController().signal });
let n = 0;
const call = (name: string) => ({ jsonrpc: "2.0", id: ++n, method: "tools/call", params: { name, arguments: {} } });

for (const era of ["modern", "legacy"] as const) {
  const connected = () => connect({ url: new URL(`/${era}`, served.url).toString(), era, headers: {} }, ctx()).then((c) => c.connection);

  test(`${era}: the view comes with the policy first, its declared domain granted and Toolscope's origin never`, async () => {
    const connection = await connected();
    const view = await appViewFor({ connection, headers: {}, uri: CLOCK_URI }, ctx());
    assert.match(view.document, /^<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    assert.ok(view.document.includes('id="tick"'));
    assert.deepEqual(view.csp.connectDomains, ["https://api.example.com"]);
    assert.ok(!view.policy.includes("127.0.0.1:3000"));
    assert.equal(view.maxBytes, 100_000);
    assert.ok(view.bytes > 1_000 && view.bytes < 10_000);
  });

  test(`${era}: a view over TOOLSCOPE_MAX_APP_HTML_BYTES or of the wrong type is refused, saying which`, async () => {
    const connection = await connected();
    await assert.rejects(
      appViewFor({ connection, headers: {}, uri: BIG_URI }, ctx()),
      (err: unknown) =>
        err instanceof ProxyError && /200,007 bytes; views above 100,000 bytes .*TOOLSCOPE_MAX_APP_HTML_BYTES/.test(err.message),
    );
    await assert.rejects(
      appViewFor({ connection, headers: {}, uri: WRONG_TYPE_URI }, ctx()),
      (err: unknown) =>
        err instanceof ProxyError && /of type "text\/html"; an app's view must be text\/html;profile=mcp-app/.test(err.message),
    );
  });

  test(`${era}: an app reaches an app-only tool; a model-only tool and other methods never reach the server`, async () => {
    const connection = await connected();
    appCalls.clear();
    const tick = await appRpc({ connection, headers: {}, message: call("tick") }, ctx());
    assert.match(JSON.stringify(tick.response?.result), /tick 1/);
    await assert.rejects(
      appRpc({ connection, headers: {}, message: call("secret") }, ctx()),
      (err: unknown) => err instanceof ProxyError && err.kind === "forbidden" && /visibility does not include "app"/.test(err.message),
    );
    await assert.rejects(
      appRpc({ connection, headers: {}, message: { jsonrpc: "2.0", id: ++n, method: "sampling/createMessage", params: {} } }, ctx()),
      (err: unknown) => err instanceof ProxyError && /An app may not send "sampling\/createMessage"/.test(err.message),
    );
    assert.equal(appCalls.get("secret"), undefined, "the model-only tool was never called");
  });

  test(`${era}: a tool that may modify needs the person's confirmation`, async () => {
    const connection = await connected();
    appCalls.clear();
    await assert.rejects(
      appRpc({ connection, headers: {}, message: call("bump") }, ctx()),
      (err: unknown) => err instanceof ProxyError && /the person must allow it first/.test(err.message),
    );
    assert.equal(appCalls.get("bump"), undefined);
    const bumped = await appRpc({ connection, headers: {}, message: call("bump"), confirmed: true }, ctx());
    assert.match(JSON.stringify(bumped.response?.result), /bumped 1/);
  });

  test(`${era}: tools/list from an app names only the tools an app may call`, async () => {
    const connection = await connected();
    const listed = await appRpc({ connection, headers: {}, message: { jsonrpc: "2.0", id: ++n, method: "tools/list", params: {} } }, ctx());
    const names = ((listed.response?.result as { tools: { name: string }[] }).tools ?? []).map((t) => t.name).sort();
    assert.deepEqual(names, ["big", "bump", "clock", "stamp", "tick", "wrong-type"]);
  });
}
