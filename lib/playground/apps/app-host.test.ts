import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appliedDisplayMode,
  clampHeight,
  hostContext,
  MAX_APP_EVENTS,
  MAX_APP_HEIGHT,
  messageLabel,
  MIN_APP_HEIGHT,
  openableLink,
  serverLabel,
  withEvent,
} from "./app-host.ts";

test("a view's height is bounded, and a height that is no number keeps the current one", () => {
  assert.equal(clampHeight(320.4, 240), 320);
  assert.equal(clampHeight(1e9, 240), MAX_APP_HEIGHT);
  assert.equal(clampHeight(-5, 240), MIN_APP_HEIGHT);
  assert.equal(clampHeight(Number.NaN, 240), 240);
  assert.equal(clampHeight("500", 240), 240);
});

test("display modes: inline and fullscreen are applied, picture-in-picture and anything else keep the current mode", () => {
  assert.equal(appliedDisplayMode("fullscreen", "inline"), "fullscreen");
  assert.equal(appliedDisplayMode("inline", "fullscreen"), "inline");
  assert.equal(appliedDisplayMode("pip", "inline"), "inline");
  assert.equal(appliedDisplayMode({}, "fullscreen"), "fullscreen");
});

test("links: http and https only, without credentials", () => {
  assert.deepEqual(openableLink("https://example.com/a?b=1"), { ok: true, url: "https://example.com/a?b=1" });
  assert.match((openableLink("javascript:alert(1)") as { reason: string }).reason, /only http and https/);
  assert.match((openableLink("https://u:p@example.com/") as { reason: string }).reason, /user name or password/);
  assert.match((openableLink("not a url") as { reason: string }).reason, /is not a URL/);
  assert.equal(openableLink(42).ok, false);
});

test("the host context names the theme, the modes offered, the bound and the tool", () => {
  const tool = { name: "clock", inputSchema: { type: "object" } };
  const ctx = hostContext({ theme: "dark", displayMode: "inline", tool, locale: "en-GB", timeZone: "UTC", maxHeight: 900 });
  assert.deepEqual(ctx.availableDisplayModes, ["inline", "fullscreen"]);
  assert.deepEqual(ctx.containerDimensions, { maxHeight: 900 });
  assert.equal(ctx.theme, "dark");
  assert.equal(ctx.toolInfo.tool, tool);
  assert.equal(ctx.platform, "web");
});

test("event labels and a bounded list", () => {
  assert.equal(messageLabel({ jsonrpc: "2.0", method: "ui/initialize", id: 1 }), "ui/initialize");
  assert.equal(messageLabel({ jsonrpc: "2.0", id: 7, result: {} }), "response (id 7)");
  assert.equal(messageLabel({ jsonrpc: "2.0", id: 7, error: {} }), "error (id 7)");
  assert.equal(messageLabel("hi"), "non-JSON-RPC message");
  let list = withEvent([], { direction: "host", label: "a" }, 1);
  for (let i = 0; i < MAX_APP_EVENTS + 10; i++) list = withEvent(list, { direction: "app→host", label: `m${i}` }, i);
  assert.equal(list.length, MAX_APP_EVENTS);
  assert.equal(list.at(-1)?.n, MAX_APP_EVENTS + 11);
  assert.equal(list[0].label, "m10");
});

test("the input dialog names the server without the URL's query or fragment", () => {
  assert.equal(serverLabel("https://mcp.example.com/mcp?token=s3cret#x"), "https://mcp.example.com/mcp");
  assert.equal(serverLabel("stdio:memory"), "stdio:memory");
  assert.equal(serverLabel("not a url"), "the server");
});
