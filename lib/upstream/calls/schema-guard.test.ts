import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "@/lib/mcp/contract";
import { partitionTools } from "./list-tools.ts";
import { guardToolSchemas, omittedSchemaReason } from "./schema-guard.ts";

const limits = { maxBytes: 2_000, maxDepth: 8 };
const small: Tool = {
  name: "small",
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  outputSchema: { type: "object" },
};
/** A real-shaped schema nested through `properties`, `levels` objects deep (2 JSON levels per schema level). */
function deepSchema(levels: number): Record<string, unknown> {
  const text = `${'{"type":"object","properties":{"next":'.repeat(levels)}{"type":"string"}${"}}".repeat(levels)}`;
  return JSON.parse(text) as Record<string, unknown>;
}

test("a tool within the limits comes back untouched (the same object)", () => {
  assert.equal(guardToolSchemas(small, limits).tool, small);
  assert.equal(guardToolSchemas(small, limits).problem, undefined);
});

test("an over-limit schema is replaced by a stub that says why; the other schema stays", () => {
  const deep = { ...small, name: "deep", inputSchema: deepSchema(5_000) };
  const { tool, problem } = guardToolSchemas(deep, limits);
  assert.equal(
    problem,
    "inputSchema is 200,017 bytes of JSON (the limit is 2,000, TOOLSCOPE_MAX_SCHEMA_BYTES) and nested 10,001 levels deep (the limit is 8, TOOLSCOPE_MAX_SCHEMA_DEPTH)",
  );
  assert.deepEqual(tool.inputSchema, { "x-toolscope-omitted": problem });
  assert.equal(omittedSchemaReason(tool.inputSchema), problem);
  assert.equal(tool.outputSchema, small.outputSchema);
  // The stub is small and shallow: it serialises (the original would throw in JSON.stringify).
  assert.ok(JSON.stringify(tool).length < 300);
  assert.equal(omittedSchemaReason(small.inputSchema), undefined);
});

test("partitionTools excludes tools over a limit with both problems named, before any x-mcp-header walk", () => {
  const huge: Tool = { name: "huge", inputSchema: { type: "object", description: "x".repeat(5_000) }, outputSchema: deepSchema(10) };
  const badHeader: Tool = {
    name: "bad_header",
    inputSchema: { type: "object", properties: { n: { type: "number", "x-mcp-header": "N" } } },
  };
  const { tools, excluded } = partitionTools([small, huge, badHeader], limits);
  assert.deepEqual(
    tools.map((t) => t.name),
    ["small"],
  );
  assert.deepEqual(
    excluded.map((e) => e.tool.name),
    ["huge", "bad_header"],
  );
  assert.equal(
    excluded[0].reason,
    "inputSchema is 5,034 bytes of JSON (the limit is 2,000, TOOLSCOPE_MAX_SCHEMA_BYTES); outputSchema is nested 21 levels deep (the limit is 8, TOOLSCOPE_MAX_SCHEMA_DEPTH)",
  );
  assert.match(excluded[1].reason, /x-mcp-header is only allowed on string, integer or boolean/);
});

/**
 * The chain built by deepSchema() with every object wrapped in a Proxy that counts property reads (rebuilt from
 * the leaf up with a loop: 100,000 levels would overflow a recursive copy), and how many properties it holds.
 */
function counted(value: unknown): { value: unknown; properties: number; reads: () => number } {
  const chain: Record<string, unknown>[] = [];
  for (let v = value; typeof v === "object" && v !== null;) {
    const o = v as Record<string, unknown>;
    chain.push(o);
    v = "properties" in o ? o.properties : o.next;
  }
  let reads = 0;
  let properties = 0;
  let inner: unknown = undefined;
  for (let i = chain.length - 1; i >= 0; i--) {
    const copy: Record<string, unknown> = { ...chain[i] };
    if (inner !== undefined) copy["properties" in copy ? "properties" : "next"] = inner;
    properties += Object.keys(copy).length;
    inner = new Proxy(copy, {
      get(target, key, receiver) {
        if (typeof key === "string") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
  }
  return { value: inner, properties, reads: () => reads };
}

test("a 100,000-level schema is excluded after one linear walk (never compiled, never scanned for x-mcp-header)", () => {
  const bomb = counted(deepSchema(50_000));
  assert.equal(bomb.properties, 150_001, "type + properties per schema level, next per properties object, the leaf's type");
  const { tools, excluded } = partitionTools([{ name: "bomb", inputSchema: bomb.value as Tool["inputSchema"] }], limits);
  assert.deepEqual(tools, []);
  assert.equal(excluded.length, 1);
  assert.match(excluded[0].reason, /^inputSchema is [\d,]+ bytes of JSON .* nested 100,001 levels deep/);
  // Speed is the benchmarks' business; here, the work: each property read at most once (the size/depth measure),
  // so nothing else (a validator, the docs model, the x-mcp-header scan) went through the schema.
  assert.ok(bomb.reads() > 0, "the schema was measured");
  assert.ok(bomb.reads() <= bomb.properties, `${bomb.reads()} property reads for ${bomb.properties} properties`);
});

test("a tools/call naming a tool whose inputSchema was left out is refused in both eras (its headers are unknown)", async () => {
  const { refuseExcludedTool } = await import("./send-rpc.ts");
  const { tool } = guardToolSchemas({ name: "deep", inputSchema: deepSchema(20) }, limits);
  for (const era of ["modern", "legacy"] as const) {
    assert.throws(
      () => refuseExcludedTool(era, tool),
      (err: Error & { kind?: string }) =>
        err.kind === "bad-request" &&
        err.message === `Tool "deep" is excluded and cannot be called: ${omittedSchemaReason(tool.inputSchema)}.`,
    );
  }
});
