import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { diffTool, diffToolLists, type Change, type ChangeSeverity } from "./diff.ts";

function tool(inputSchema: Record<string, unknown>, extra: Partial<Tool> = {}): Tool {
  return { name: "t", inputSchema, ...extra };
}

const obj = (properties: Record<string, unknown>, required: string[] = [], extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  ...extra,
});

/** The single change between two input schemas (fails when there is not exactly one). */
function only(a: Record<string, unknown>, b: Record<string, unknown>): Change {
  const changes = diffTool(tool(a), tool(b));
  assert.equal(changes.length, 1, JSON.stringify(changes, null, 1));
  return changes[0];
}

function expect(a: Record<string, unknown>, b: Record<string, unknown>, severity: ChangeSeverity, message: RegExp, path?: string) {
  const c = only(a, b);
  assert.equal(c.severity, severity, c.message);
  assert.match(c.message, message);
  if (path !== undefined) assert.equal(c.path, path);
}

describe("input schema: breaking", () => {
  test("new required parameter", () =>
    expect(
      obj({ q: { type: "string" } }, ["q"]),
      obj({ q: { type: "string" }, org: { type: "string" } }, ["q", "org"]),
      "breaking",
      /New required parameter `org`/,
      "org",
    ));
  test("removed parameter", () =>
    expect(
      obj({ q: { type: "string" }, limit: { type: "integer" } }),
      obj({ q: { type: "string" } }),
      "breaking",
      /Parameter `limit` removed/,
    ));
  test("narrowed type", () =>
    expect(
      obj({ n: { type: ["integer", "string"] } }),
      obj({ n: { type: "integer" } }),
      "breaking",
      /narrowed: integer \| string → integer/,
    ));
  test("number → integer is a narrowing", () =>
    expect(obj({ n: { type: "number" } }), obj({ n: { type: "integer" } }), "breaking", /narrowed/));
  test("unrelated type", () =>
    expect(obj({ n: { type: "string" } }), obj({ n: { type: "boolean" } }), "breaking", /changed: string → boolean/));
  test("narrowed enum", () =>
    expect(
      obj({ s: { type: "string", enum: ["open", "closed", "all"] } }),
      obj({ s: { type: "string", enum: ["open", "closed"] } }),
      "breaking",
      /narrowed: removed "all"/,
    ));
  test("enum introduced", () =>
    expect(obj({ s: { type: "string" } }), obj({ s: { type: "string", enum: ["a"] } }), "breaking", /now restricted to "a"/));
  test("param became required", () =>
    expect(obj({ q: { type: "string" } }), obj({ q: { type: "string" } }, ["q"]), "breaking", /`q` became required/));
  test("additionalProperties tightened", () =>
    expect(
      obj({ q: { type: "string" } }),
      obj({ q: { type: "string" } }, [], { additionalProperties: false }),
      "breaking",
      /additionalProperties tightened/,
    ));
  test("nested: a removed field inside an object inside an array", () => {
    const a = obj({ items: { type: "array", items: obj({ id: { type: "string" }, qty: { type: "integer" } }) } });
    const b = obj({ items: { type: "array", items: obj({ id: { type: "string" } }) } });
    expect(a, b, "breaking", /Parameter `items\[\]\.qty` removed/, "items[].qty");
  });
  test("bounds tightened", () =>
    expect(
      obj({ n: { type: "integer", maximum: 100 } }),
      obj({ n: { type: "integer", maximum: 50 } }),
      "breaking",
      /`maximum` of `n` tightened: 100 → 50/,
    ));
  test("pattern added", () =>
    expect(obj({ s: { type: "string" } }), obj({ s: { type: "string", pattern: "^a" } }), "breaking", /`pattern`/));
  test("changed composition is flagged for review", () =>
    expect(
      obj({ v: { oneOf: [{ type: "string" }, { type: "integer" }] } }),
      obj({ v: { oneOf: [{ type: "string" }] } }),
      "breaking",
      /`oneOf`.*treat it as breaking/,
    ));
});

describe("input schema: compatible", () => {
  test("new optional parameter", () =>
    expect(
      obj({ q: { type: "string" } }),
      obj({ q: { type: "string" }, limit: { type: "integer" } }),
      "compatible",
      /New optional parameter `limit`/,
    ));
  test("widened enum", () => expect(obj({ s: { enum: ["a"] } }), obj({ s: { enum: ["a", "b"] } }), "compatible", /widened: added "b"/));
  test("widened type", () =>
    expect(obj({ n: { type: "integer" } }), obj({ n: { type: "number" } }), "compatible", /widened: integer → number/));
  test("param became optional", () =>
    expect(obj({ q: { type: "string" } }, ["q"]), obj({ q: { type: "string" } }), "compatible", /became optional/));
  test("additionalProperties relaxed", () => expect(obj({}, [], { additionalProperties: false }), obj({}), "compatible", /relaxed/));
  test("bounds relaxed", () =>
    expect(obj({ s: { type: "string", minLength: 3 } }), obj({ s: { type: "string" } }), "compatible", /relaxed: 3 → none/));
});

describe("output schema", () => {
  const out = (outputSchema: Record<string, unknown> | undefined): Tool => tool({ type: "object" }, outputSchema ? { outputSchema } : {});
  const one = (a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined) => {
    const changes = diffTool(out(a), out(b));
    assert.equal(changes.length, 1, JSON.stringify(changes));
    assert.equal(changes[0].area, "output");
    return changes[0];
  };
  test("output field removed is breaking", () =>
    assert.equal(one(obj({ id: { type: "string" }, url: { type: "string" } }), obj({ id: { type: "string" } })).severity, "breaking"));
  test("new output field is compatible", () =>
    assert.equal(one(obj({ id: { type: "string" } }), obj({ id: { type: "string" }, url: { type: "string" } })).severity, "compatible"));
  test("a wider output enum breaks readers", () =>
    assert.equal(one(obj({ s: { enum: ["a"] } }), obj({ s: { enum: ["a", "b"] } })).severity, "breaking"));
  test("a narrower output type is compatible", () =>
    assert.equal(one(obj({ s: { type: ["string", "null"] } }), obj({ s: { type: "string" } })).severity, "compatible"));
  test("field no longer always present is breaking", () =>
    assert.equal(one(obj({ id: { type: "string" } }, ["id"]), obj({ id: { type: "string" } })).severity, "breaking"));
  test("output schema dropped / added", () => {
    assert.equal(one(obj({}), undefined).severity, "breaking");
    assert.equal(one(undefined, obj({})).severity, "compatible");
  });
});

describe("annotations and text", () => {
  test("an annotation change reports effective values, defaults included", () => {
    const changes = diffTool(tool({ type: "object" }, { annotations: { readOnlyHint: true } }), tool({ type: "object" }));
    assert.equal(changes.length, 1);
    assert.equal(changes[0].area, "annotations");
    assert.match(changes[0].message, /readOnlyHint: true → false \(read-only → may modify, by the spec default\)/);
  });
  test("setting a hint to its default value is reported as provenance only", () => {
    const [c] = diffTool(tool({ type: "object" }), tool({ type: "object" }, { annotations: { openWorldHint: true } }));
    assert.match(c.message, /openWorldHint is now set explicitly \(still true\)/);
  });
  test("description and title changes keep both texts", () => {
    const changes = diffTool(
      tool({ type: "object" }, { description: "Old words" }),
      tool({ type: "object" }, { description: "New words", title: "T" }),
    );
    assert.deepEqual(
      changes.map((c) => [c.area, c.severity, c.message]),
      [
        ["text", "info", "The title was added."],
        ["text", "info", "The description changed."],
      ],
    );
    assert.equal(changes[1].before, "Old words");
    assert.equal(changes[1].after, "New words");
  });
  test("long texts are shown from just before their first difference", () => {
    const long = "word ".repeat(200);
    const [c] = diffTool(
      tool({ type: "object" }, { description: `${long}old end` }),
      tool({ type: "object" }, { description: `${long}new end` }),
    );
    assert.match(c.before!, /^….*old end$/);
    assert.match(c.after!, /^….*new end$/);
  });
  test("a parameter's description and default are informational", () => {
    const changes = diffTool(
      tool(obj({ q: { type: "string", description: "a", default: "x" } })),
      tool(obj({ q: { type: "string", description: "b", default: "y" } })),
    );
    assert.deepEqual(
      changes.map((c) => c.severity),
      ["info", "info"],
    );
  });
});

describe("refs and bounds", () => {
  test("local $refs are followed on both sides, cycles do not loop", () => {
    const node = (extra: Record<string, unknown>) => ({
      type: "object",
      $defs: { Node: { type: "object", properties: { child: { $ref: "#/$defs/Node" }, ...extra } } },
      properties: { root: { $ref: "#/$defs/Node" } },
    });
    const changes = diffTool(tool(node({ label: { type: "string" } })), tool(node({})));
    assert.ok(
      changes.some((c) => c.severity === "breaking" && c.path === "root.label"),
      JSON.stringify(changes),
    );
  });
  test("very deep differences stop at the depth cap", () => {
    let a: Record<string, unknown> = { type: "string" };
    let b: Record<string, unknown> = { type: "integer" };
    for (let i = 0; i < 40; i++) {
      a = obj({ x: a });
      b = obj({ x: b });
    }
    const changes = diffTool(tool(a), tool(b));
    assert.equal(changes.length, 1);
    assert.match(changes[0].message, /not classified/);
  });
});

describe("diffToolLists", () => {
  const a: Tool[] = [
    { name: "keep", inputSchema: { type: "object" } },
    { name: "gone", inputSchema: { type: "object" } },
    { name: "soft", inputSchema: obj({ q: { type: "string" } }) },
    { name: "hard", inputSchema: obj({ q: { type: "string" } }) },
  ];
  const b: Tool[] = [
    { name: "new", inputSchema: { type: "object" } },
    { name: "keep", inputSchema: { type: "object" } },
    { name: "soft", inputSchema: obj({ q: { type: "string" }, n: { type: "integer" } }) },
    { name: "hard", inputSchema: obj({ q: { type: "string" } }, ["q"]) },
  ];
  test("added, removed, changed (breaking first), unchanged, counts", () => {
    const d = diffToolLists(a, b);
    assert.deepEqual(
      d.added.map((t) => t.name),
      ["new"],
    );
    assert.deepEqual(
      d.removed.map((t) => t.name),
      ["gone"],
    );
    assert.deepEqual(
      d.changed.map((t) => [t.name, t.severity]),
      [
        ["hard", "breaking"],
        ["soft", "compatible"],
      ],
    );
    assert.deepEqual(d.unchanged, ["keep"]);
    assert.deepEqual(d.counts, { breaking: 2, compatible: 2, info: 0 });
    assert.equal(d.identical, false);
  });
  test("identical lists (key order aside) are identical", () => {
    const copy = a.map((t) => ({ inputSchema: t.inputSchema, name: t.name }));
    const d = diffToolLists(a, copy);
    assert.equal(d.identical, true);
    assert.deepEqual(d.counts, { breaking: 0, compatible: 0, info: 0 });
  });
  test("changes outside the compared fields still show", () => {
    const d = diffToolLists(
      [{ name: "x", inputSchema: { type: "object" } }],
      [{ name: "x", inputSchema: { type: "object" }, _meta: { v: 2 } }],
    );
    assert.equal(d.changed[0].changes[0].severity, "info");
  });
});
