import { beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { HANDOFF_TTL_MS, handedOffRequest, handOffRequest, loadHeaders, saveHeaders } from "./session-store.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";

beforeEach(() => {
  (globalThis as { sessionStorage?: unknown }).sessionStorage = new MemoryStorage();
});

test("a handed-off request reaches only its server, within the time limit, and survives a second read", () => {
  handOffRequest("stdio:files", '{"method":"tools/list"}', 1_000);
  assert.equal(handedOffRequest("stdio:other", 1_500), undefined);
  assert.equal(handedOffRequest("stdio:files", 1_500), '{"method":"tools/list"}');
  assert.equal(handedOffRequest("stdio:files", 1_600), '{"method":"tools/list"}', "React may run an initializer twice");
  assert.equal(handedOffRequest("stdio:files", 1_000 + HANDOFF_TTL_MS + 1), undefined);
});

test("junk in storage is no handoff", () => {
  sessionStorage.setItem("toolscope.handoff.v1", "{not json");
  assert.equal(handedOffRequest("stdio:files"), undefined);
  sessionStorage.setItem("toolscope.handoff.v1", JSON.stringify({ server: "stdio:files", request: 5, at: Date.now() }));
  assert.equal(handedOffRequest("stdio:files"), undefined);
});

test("headers live in sessionStorage per server; an empty set removes the entry", () => {
  saveHeaders("https://a.example/mcp", { Authorization: "Bearer x" });
  assert.deepEqual(loadHeaders("https://a.example/mcp"), { Authorization: "Bearer x" });
  assert.deepEqual(loadHeaders("https://b.example/mcp"), {});
  saveHeaders("https://a.example/mcp", {});
  assert.deepEqual(loadHeaders("https://a.example/mcp"), {});
});
