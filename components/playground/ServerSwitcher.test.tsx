import { afterEach, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { loadHeaders } from "@/lib/playground/stores/session-store";
import { RECENT_KEY } from "@/lib/playground/stores/recent-servers";
import { ServerSwitcher, serverUrlProblem, type SwitchedServer } from "./ServerSwitcher";

const realFetch = globalThis.fetch;
let connectAnswer: { status: number; body: unknown };
const connectBodies: unknown[] = [];

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  connectBodies.length = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.endsWith("/api/stdio"))
      return new Response(JSON.stringify({ enabled: true, servers: [{ name: "files", command: "node", argCount: 1 }] }));
    if (url.endsWith("/api/connect")) {
      connectBodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify(connectAnswer.body), { status: connectAnswer.status });
    }
    throw new Error(`unexpected fetch ${url}`);
  }) as typeof fetch;
});
afterEach(() => {
  cleanup();
  globalThis.fetch = realFetch;
});

function setup() {
  const switched: SwitchedServer[] = [];
  render(<ServerSwitcher server="builtin:demo" onSwitch={(to) => switched.push(to)} />);
  fireEvent.click(screen.getByTestId("server-switcher"));
  return switched;
}

const connected = (url: string) => ({
  server: {
    serverInfo: { name: "files-server", version: "1", title: "Files" },
    era: "legacy",
    protocolVersion: "2025-11-25",
    supportedVersions: [],
    capabilities: {},
    displayUrl: url,
  },
  connection: { v: 1, url, era: "legacy", protocolVersion: "2025-11-25" },
});

test("URL problems name what to write instead", () => {
  assert.equal(serverUrlProblem("https://example.com/mcp", null), null);
  assert.equal(serverUrlProblem("builtin:demo", null), null);
  assert.match(serverUrlProblem("", null) ?? "", /Enter the server's URL/);
  assert.match(serverUrlProblem("ftp://x", null) ?? "", /not an http\(s\) URL: write it like https:\/\/example.com\/mcp/);
  assert.match(serverUrlProblem("stdio:files", null) ?? "", /only when Toolscope runs locally/);
  assert.equal(serverUrlProblem("stdio:files", ["files"]), null);
  assert.match(serverUrlProblem("stdio:nope", ["files"]) ?? "", /No stdio server is named “nope”: choose one of stdio:files/);
});

test("a failed connection shows the proxy's message in the dialog and does not switch", async () => {
  connectAnswer = {
    status: 502,
    body: { error: { kind: "upstream-unreachable", message: "Connection refused by 127.0.0.1:9", hint: "Is it running?" } },
  };
  const switched = setup();
  fireEvent.change(screen.getByLabelText("Server URL"), { target: { value: "http://127.0.0.1:9/mcp" } });
  fireEvent.click(screen.getByTestId("switch-connect"));
  const banner = await screen.findByTestId("proxy-error");
  assert.match(banner.textContent ?? "", /could not be reached.*Connection refused by 127\.0\.0\.1:9.*Is it running\?/);
  assert.match(screen.getByTestId("server-switcher-dialog").textContent ?? "", /This tab stays on demo/);
  assert.deepEqual(switched, []);
  assert.equal(localStorage.getItem(RECENT_KEY), null, "a server never reached is not a recent one");
});

test("bad input is refused before any request, naming the line to fix", async () => {
  const switched = setup();
  fireEvent.change(screen.getByLabelText("Server URL"), { target: { value: "https://example.com/mcp" } });
  fireEvent.change(screen.getByLabelText(/Headers, one per line/), { target: { value: "Authorization Bearer x" } });
  fireEvent.click(screen.getByTestId("switch-connect"));
  assert.match(screen.getByTestId("switch-problem").textContent ?? "", /Line 1: write "Name: value"/);
  assert.deepEqual(connectBodies, []);
  assert.deepEqual(switched, []);
});

test("a stdio server of the config is offered; connecting switches, keeps headers in sessionStorage and header names in the recent list", async () => {
  connectAnswer = { status: 200, body: connected("stdio:files") };
  const switched = setup();
  fireEvent.click(await screen.findByTestId("switch-stdio"));
  assert.equal((screen.getByLabelText("Server URL") as HTMLInputElement).value, "stdio:files");
  fireEvent.change(screen.getByLabelText("Protocol era"), { target: { value: "legacy" } });
  fireEvent.change(screen.getByLabelText(/Headers, one per line/), { target: { value: "Authorization: Bearer secret-xyz" } });
  fireEvent.click(screen.getByTestId("switch-connect"));
  await waitFor(() => assert.equal(switched.length, 1));
  assert.equal(switched[0]!.server, "stdio:files");
  assert.equal(switched[0]!.era, "legacy");
  assert.deepEqual(connectBodies, [
    { url: "stdio:files", era: "legacy", headers: { Authorization: "Bearer secret-xyz" }, interactive: true },
  ]);
  assert.deepEqual(loadHeaders("stdio:files"), { Authorization: "Bearer secret-xyz" });
  const recent = localStorage.getItem(RECENT_KEY) ?? "";
  assert.match(recent, /"name":"Files".*"headerNames":\["Authorization"\]/);
  const everything = Array.from({ length: localStorage.length }, (_, i) => localStorage.getItem(localStorage.key(i)!)).join("\n");
  assert.match(everything, /stdio:files/);
  assert.ok(!everything.includes("secret-xyz"), "no header value in localStorage");
});
