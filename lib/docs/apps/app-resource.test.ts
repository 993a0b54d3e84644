import { test } from "node:test";
import assert from "node:assert/strict";
import { APP_MIME_TYPE, appView } from "./app-resource.ts";

const URI = "ui://get-time/mcp-app.html";
const HTML = "<!doctype html><html><body><p id=t>time</p></body></html>";
const read = (item: Record<string, unknown>) => ({ contents: [{ uri: URI, mimeType: APP_MIME_TYPE, ...item }] });
const opts = { maxBytes: 1_000 };

function problem(r: ReturnType<typeof appView>): string {
  assert.equal(r.ok, false);
  return (r as { problem: string }).problem;
}

test("text or base64 blob; the content item's _meta.ui wins over the list entry's", () => {
  const fromText = appView(
    read({ text: HTML, _meta: { ui: { csp: { connectDomains: ["https://a.example"] }, prefersBorder: true } } }),
    URI,
    {
      ...opts,
      listed: { _meta: { ui: { csp: { connectDomains: ["https://listed.example"] } } } },
    },
  );
  assert.ok(fromText.ok);
  assert.equal(fromText.view.html, HTML);
  assert.deepEqual(fromText.view.csp, { connectDomains: ["https://a.example"] });
  assert.equal(fromText.view.prefersBorder, true);
  const fromBlob = appView(read({ blob: Buffer.from(HTML).toString("base64") }), URI, {
    ...opts,
    listed: {
      _meta: { ui: { csp: { resourceDomains: ["https://cdn.example"] }, permissions: { camera: {}, clipboardWrite: {}, teleport: {} } } },
    },
  });
  assert.ok(fromBlob.ok);
  assert.equal(fromBlob.view.html, HTML);
  assert.deepEqual(fromBlob.view.csp, { resourceDomains: ["https://cdn.example"] }, "the list entry's when the item has none");
  assert.deepEqual(fromBlob.view.permissions, ["camera", "clipboardWrite"], "only the permissions the specification names");
  assert.ok(appView(read({ text: HTML, mimeType: "text/html; profile=mcp-app" }), URI, opts).ok, "spacing in the type is the same type");
});

test("what cannot be shown says why: not ui://, no contents, wrong type, no HTML, a bad blob, nothing at all", () => {
  assert.match(problem(appView(read({ text: HTML }), "https://x/app", opts)), /not a ui:\/\/ resource/);
  assert.match(problem(appView({}, URI, opts)), /no contents list/);
  assert.match(problem(appView({ contents: [{ uri: "ui://a" }, { uri: "ui://b" }] }, URI, opts)), /2 contents, none for that URI/);
  assert.match(
    problem(appView(read({ text: HTML, mimeType: "text/html" }), URI, opts)),
    /of type "text\/html"; an app's view must be text\/html;profile=mcp-app/,
  );
  assert.match(problem(appView(read({ text: "just words" }), URI, opts)), /holds no HTML markup/);
  assert.match(problem(appView(read({ blob: "////" }), URI, opts)), /not base64 of UTF-8 text/);
  assert.match(problem(appView(read({}), URI, opts)), /neither text nor blob/);
});

test("the size cap counts UTF-8 bytes and names its setting; a huge blob is refused before it is decoded", () => {
  assert.ok(appView(read({ text: `<p>${"é".repeat(495)}</p>` }), URI, opts).ok, "997 bytes");
  assert.match(
    problem(appView(read({ text: `<p>${"é".repeat(497)}</p>` }), URI, opts)),
    /is 1,001 bytes; views above 1,000 bytes .*TOOLSCOPE_MAX_APP_HTML_BYTES/,
  );
  // Not base64 at its end: decoded, it would be refused as a bad blob, so "too large" shows it was never decoded.
  const blob = `${"A".repeat(4_000_000)}!!`;
  assert.match(problem(appView(read({ blob }), URI, opts)), /is 3,000,001 bytes; views above 1,000 bytes/);
});
