import { test } from "node:test";
import assert from "node:assert/strict";
import { shownEndpoint } from "./display-url.ts";

test("a builtin server is shown on the viewer's origin, whatever origin it was recorded under", () => {
  assert.equal(
    shownEndpoint("builtin:demo", "http://127.0.0.1:3000/api/demo/mcp", "http://localhost:3000"),
    "http://localhost:3000/api/demo/mcp",
  );
  assert.equal(
    shownEndpoint("builtin:demo", "/api/demo/mcp", "https://toolscope.example.com"),
    "https://toolscope.example.com/api/demo/mcp",
  );
});

test("any other server keeps its own URL; a bad origin keeps the recorded one", () => {
  assert.equal(shownEndpoint("https://x.test/mcp", "https://x.test/mcp", "http://localhost:3000"), "https://x.test/mcp");
  assert.equal(shownEndpoint("builtin:demo", "http://127.0.0.1:3000/api/demo/mcp", "not an origin"), "http://127.0.0.1:3000/api/demo/mcp");
});
