import { test } from "node:test";
import assert from "node:assert/strict";
import { completeServerUrl } from "./server-url-input.ts";

test("a URL typed without a scheme gets http for a local host and https for the rest", () => {
  assert.deepEqual(completeServerUrl("localhost:3001/mcp"), { url: "http://localhost:3001/mcp", added: "http://" });
  assert.deepEqual(completeServerUrl(" 127.0.0.1:8080/mcp "), { url: "http://127.0.0.1:8080/mcp", added: "http://" });
  assert.deepEqual(completeServerUrl("192.168.1.20/mcp"), { url: "http://192.168.1.20/mcp", added: "http://" });
  assert.deepEqual(completeServerUrl("devbox.local:3000"), { url: "http://devbox.local:3000", added: "http://" });
  assert.deepEqual(completeServerUrl("example.com/mcp"), { url: "https://example.com/mcp", added: "https://" });
  assert.deepEqual(completeServerUrl("172.32.0.1/mcp"), { url: "https://172.32.0.1/mcp", added: "https://" }, "not a private range");
});

test("a URL with a scheme and Toolscope's own names pass as typed; nothing or spaces get a message", () => {
  assert.deepEqual(completeServerUrl("https://example.com/mcp"), { url: "https://example.com/mcp" });
  assert.deepEqual(completeServerUrl("ftp://example.com"), { url: "ftp://example.com" }, "the API names what it refuses");
  assert.deepEqual(completeServerUrl("builtin:demo"), { url: "builtin:demo" });
  assert.deepEqual(completeServerUrl("stdio:everything"), { url: "stdio:everything" });
  assert.match((completeServerUrl("  ") as { error: string }).error, /Type the server's MCP endpoint/);
  assert.match((completeServerUrl("my server") as { error: string }).error, /contains a space/);
});
