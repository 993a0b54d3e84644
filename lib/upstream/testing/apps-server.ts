/**
 * Tests only: a real MCP server (the SDK's McpServer) with MCP Apps, for both eras (served with createMcpHandler: a
 * 2026-07-28 server that also answers 2025-era clients). Its view is written here, by hand, speaking the view side of
 * the ext-apps protocol over postMessage (no library), so a test sees exactly what the host sent:
 *
 * - `clock` (read-only) names `ui://apps-fixture/clock.html`. The view shows the tool input and result it was given
 *   (`#input`, `#result`), counts the lifecycle messages in order (`#order`), and has buttons that call `tick`
 *   (app-only), `secret` (model-only: the host must refuse it), `bump` (may modify: the host must ask) and ask to open
 *   a link and go fullscreen.
 * - `tick` (visibility ["app"]), `secret` (visibility ["model"]), `bump` (not read-only): each counts its calls, and
 *   `calls` (model-only, read-only) returns the counts, so a test can witness that a refused call never arrived.
 * - `stamp` (app-only) answers MRTR `input_required` with a form elicitation first, and stamps the label it is given.
 * - `big` and `wrong-type` name views that are too large (`bigBytes`) or not an app's MIME type.
 */
import { inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

export const CLOCK_URI = "ui://apps-fixture/clock.html";
export const BIG_URI = "ui://apps-fixture/big.html";
export const WRONG_TYPE_URI = "ui://apps-fixture/wrong.html";
const APP_TYPE = "text/html;profile=mcp-app";

/** The view: plain HTML and script, speaking JSON-RPC 2.0 to its parent (the host's relay). */
export const CLOCK_VIEW = `<!doctype html>
<html><head><meta charset="utf-8"><title>Fixture clock</title>
<style>body{font:14px system-ui;margin:8px}button{margin:2px}</style></head>
<body>
<p>Input: <code id="input">none</code></p>
<p>Result: <code id="result">none</code></p>
<p>Order: <code id="order"></code></p>
<p>Theme: <code id="theme"></code></p>
<p>Last: <code id="last">none</code></p>
<button id="tick">Tick (app-only)</button>
<button id="secret">Secret (model-only)</button>
<button id="bump">Bump (may modify)</button>
<button id="stamp">Stamp (asks for input)</button>
<button id="link">Open link</button>
<button id="full">Fullscreen</button>
<script>
  let id = 0;
  const waiting = new Map();
  const order = [];
  const $ = (s) => document.getElementById(s);
  function send(method, params) {
    const n = ++id;
    parent.postMessage({ jsonrpc: "2.0", id: n, method, params }, "*");
    return new Promise((resolve, reject) => waiting.set(n, { resolve, reject }));
  }
  function note(method) { order.push(method); $("order").textContent = order.join(","); }
  window.addEventListener("message", (e) => {
    const m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id !== undefined && !m.method) {
      const w = waiting.get(m.id);
      waiting.delete(m.id);
      if (w) m.error ? w.reject(m.error) : w.resolve(m.result);
      return;
    }
    if (m.method === "ui/notifications/tool-input") { note("input"); $("input").textContent = JSON.stringify(m.params.arguments); }
    if (m.method === "ui/notifications/tool-result") { note("result"); $("result").textContent = m.params.content[0].text; }
    if (m.method === "ui/notifications/host-context-changed" && m.params.theme) $("theme").textContent = m.params.theme;
    if (m.method === "ui/resource-teardown") parent.postMessage({ jsonrpc: "2.0", id: m.id, result: {} }, "*");
  });
  const show = (p) => p.then((r) => { $("last").textContent = JSON.stringify(r).slice(0, 300); },
                               (err) => { $("last").textContent = "error: " + (err && err.message); });
  $("tick").onclick = () => show(send("tools/call", { name: "tick", arguments: {} }));
  $("secret").onclick = () => show(send("tools/call", { name: "secret", arguments: {} }));
  $("bump").onclick = () => show(send("tools/call", { name: "bump", arguments: {} }));
  $("stamp").onclick = () => show(send("tools/call", { name: "stamp", arguments: {} }));
  $("link").onclick = () => show(send("ui/open-link", { url: "https://example.com/docs" }));
  $("full").onclick = () => show(send("ui/request-display-mode", { mode: "fullscreen" }));
  send("ui/initialize", { appInfo: { name: "fixture-clock", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
    .then((r) => {
      note("initialized");
      $("theme").textContent = (r.hostContext && r.hostContext.theme) || "";
      parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} }, "*");
      parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { width: 400, height: 320 } }, "*");
    });
</script>
</body></html>`;

export interface AppsServerOptions {
  /** The size of the `big` view in bytes. */
  bigBytes?: number;
}

/** Calls each tool received, by name, and reads of the clock view (`read <uri>`), shared by every server the factory
 * makes (a test's witness). */
export const appCalls = new Map<string, number>();
const counted = (name: string) => appCalls.set(name, (appCalls.get(name) ?? 0) + 1);
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** A fresh server (createMcpHandler makes one per request). */
export function appsServer(options: AppsServerOptions = {}): McpServer {
  const server = new McpServer({ name: "apps-fixture", version: "1.0.0" }, { capabilities: { tools: {}, resources: {} } });
  server.registerTool(
    "clock",
    {
      description: "Tells the time, with an app that shows it.",
      inputSchema: z.object({ zone: z.string().optional() }),
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: CLOCK_URI } },
    },
    async ({ zone }) => text(`12:00 in ${zone ?? "UTC"}`),
  );
  server.registerTool(
    "tick",
    { description: "App-only tick.", annotations: { readOnlyHint: true }, _meta: { ui: { resourceUri: CLOCK_URI, visibility: ["app"] } } },
    async () => {
      counted("tick");
      return text(`tick ${appCalls.get("tick")}`);
    },
  );
  server.registerTool(
    "secret",
    {
      description: "Model-only: an app must never reach it.",
      annotations: { readOnlyHint: true },
      _meta: { ui: { visibility: ["model"] } },
    },
    async () => {
      counted("secret");
      return text("the secret");
    },
  );
  server.registerTool("bump", { description: "Changes a counter (not read-only)." }, async () => {
    counted("bump");
    return text(`bumped ${appCalls.get("bump")}`);
  });
  server.registerTool(
    "stamp",
    {
      description: "App-only: asks the person for a label first (MRTR input_required), then stamps it.",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
      _meta: { ui: { resourceUri: CLOCK_URI, visibility: ["app"] } },
    },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "label");
      if (answer.kind === "elicit") {
        if (answer.action !== "accept") return text(`not stamped: ${answer.action}`);
        counted("stamp");
        return text(`stamped ${String(answer.content?.label)}`);
      }
      return inputRequired({
        inputRequests: {
          label: inputRequired.elicit({
            mode: "form",
            message: "Which label should the stamp carry?",
            requestedSchema: { type: "object", properties: { label: { type: "string", title: "Label" } }, required: ["label"] },
          }),
        },
      });
    },
  );
  server.registerTool(
    "calls",
    { description: "How often each tool was called.", annotations: { readOnlyHint: true }, _meta: { ui: { visibility: ["model"] } } },
    async () => text(JSON.stringify(Object.fromEntries(appCalls))),
  );
  server.registerTool(
    "big",
    { description: "An app too large to show.", annotations: { readOnlyHint: true }, _meta: { ui: { resourceUri: BIG_URI } } },
    async () => text("big"),
  );
  server.registerTool(
    "wrong-type",
    { description: "An app of the wrong type.", annotations: { readOnlyHint: true }, _meta: { ui: { resourceUri: WRONG_TYPE_URI } } },
    async () => text("wrong"),
  );
  server.registerResource("clock view", CLOCK_URI, { mimeType: APP_TYPE }, async () => {
    counted(`read ${CLOCK_URI}`);
    return {
      contents: [
        { uri: CLOCK_URI, mimeType: APP_TYPE, text: CLOCK_VIEW, _meta: { ui: { csp: { connectDomains: ["https://api.example.com"] } } } },
      ],
    };
  });
  server.registerResource("big view", BIG_URI, { mimeType: APP_TYPE }, async () => ({
    contents: [{ uri: BIG_URI, mimeType: APP_TYPE, text: `<p>${"x".repeat(options.bigBytes ?? 9_000_000)}</p>` }],
  }));
  server.registerResource("wrong view", WRONG_TYPE_URI, { mimeType: "text/html" }, async () => ({
    contents: [{ uri: WRONG_TYPE_URI, mimeType: "text/html", text: "<p>plain html</p>" }],
  }));
  return server;
}
