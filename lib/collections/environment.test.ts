import { test } from "node:test";
import assert from "node:assert/strict";
import { missingHeaders, withHeaderNames, withVariables } from "./environment.ts";
import type { Collection } from "./format.ts";

const base: Collection = { format: "toolscope.collection/1", name: "c", environment: { server: "https://mcp.example.com/mcp" }, calls: [] };

test("header names: commas or lines, a trailing colon dropped, each once whatever its case; none removes the member", () => {
  const r = withHeaderNames(base, "Authorization:, X-Api-Key\nauthorization\n\n");
  assert.deepEqual(r, {
    ok: true,
    collection: { ...base, environment: { server: "https://mcp.example.com/mcp", headers: ["Authorization", "X-Api-Key"] } },
  });
  const none = withHeaderNames(r.ok ? r.collection : base, " ");
  assert.deepEqual(none, { ok: true, collection: base });
});

test("a header value typed where a name goes is refused, and not echoed as a name", () => {
  assert.deepEqual(withHeaderNames(base, "Authorization: Bearer sk-live-1"), {
    ok: false,
    error: '"Authorization: Bearer sk-live-1" is not a header name: only its name goes here (Authorization), never a value.',
  });
});

test("variables: a JSON object with valid names; anything else says what to write", () => {
  assert.deepEqual(withVariables(base, '{"team": "platform", "n": 2}'), {
    ok: true,
    collection: { ...base, environment: { server: "https://mcp.example.com/mcp", variables: { team: "platform", n: 2 } } },
  });
  assert.deepEqual(withVariables(base, "[1]"), { ok: false, error: 'Variables are a JSON object, e.g. {"team": "platform"}.' });
  assert.deepEqual(withVariables(base, "{team}"), { ok: false, error: 'Variables are a JSON object, e.g. {"team": "platform"}.' });
  assert.deepEqual(withVariables(base, '{"1x": 1}'), {
    ok: false,
    error: '"1x" is not a variable name: a letter or _, then letters, digits, _ . -.',
  });
  const emptied = withVariables({ format: "toolscope.collection/1", name: "c", environment: { variables: { a: 1 } }, calls: [] }, "");
  assert.deepEqual(emptied, { ok: true, collection: { format: "toolscope.collection/1", name: "c", calls: [] } });
});

test("missing headers: the names a runner lacks, compared without case (the CLI refuses a run with the same rule)", () => {
  const c: Collection = { ...base, environment: { headers: ["Authorization", "X-Api-Key"] } };
  assert.deepEqual(missingHeaders(c, ["authorization"]), ["X-Api-Key"]);
  assert.deepEqual(missingHeaders(c, ["AUTHORIZATION", "x-api-key"]), []);
  assert.deepEqual(missingHeaders(base, []), []);
});
