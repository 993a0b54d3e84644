import { test } from "node:test";
import assert from "node:assert/strict";
import { RELAY_HTML, RELAY_SANDBOX, relayPolicy, VIEW_SANDBOX } from "./sandbox-relay.ts";

test("the relay's only policy is who may frame it", () => {
  assert.equal(relayPolicy([]), "frame-ancestors 'self'");
  assert.equal(relayPolicy(["https://toolscope.example.com"]), "frame-ancestors 'self' https://toolscope.example.com");
});

test("the view's frame always gets the relay's own flags: never same-origin, popups, top navigation, modals or downloads", () => {
  assert.equal(VIEW_SANDBOX, "allow-scripts allow-forms");
  assert.equal(RELAY_SANDBOX, "allow-scripts");
  for (const flag of ["allow-same-origin", "allow-popups", "allow-top-navigation", "allow-modals", "allow-downloads"])
    assert.ok(!RELAY_HTML.includes(flag), flag);
  assert.ok(RELAY_HTML.includes(`view.setAttribute("sandbox", "${VIEW_SANDBOX}")`));
  // The flags in the host's message are never read.
  assert.ok(!/params\.sandbox/.test(RELAY_HTML));
});

test("the relay passes messages only between its parent and the one view it made", () => {
  assert.ok(RELAY_HTML.includes("event.source === host"));
  assert.ok(RELAY_HTML.includes("event.source === view.contentWindow"));
  assert.ok(RELAY_HTML.includes('if (view || typeof html !== "string") return;'), "the view is made once");
});
