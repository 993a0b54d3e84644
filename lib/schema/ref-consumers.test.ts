/**
 * The editor (hover), the docs (parameter rows) and example arguments read `$ref`s through one resolver
 * (lib/schema/ref.ts), so they must say the same thing about the same schema.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Tool } from "../mcp/contract.ts";
import { hoverAt } from "../editor/hover.ts";
import { buildParamTree, type ParamRow } from "../docs/param-rows.ts";
import { exampleArgs } from "../docs/example-args.ts";

const inputSchema = {
  type: "object",
  $defs: {
    Status: { type: "string", enum: ["open", "closed"], description: "Status (target)", default: "closed" },
    A: { $ref: "#/$defs/B", description: "A (target)" },
    B: { $ref: "#/$defs/A" },
    Named: { $anchor: "named", type: "integer", description: "Found by its $anchor" },
    Node: {
      type: "object",
      description: "A node",
      properties: { label: { type: "string" }, child: { $ref: "#/$defs/Node", description: "The child node" } },
    },
  },
  properties: {
    status: { $ref: "#/$defs/Status", description: "Status (sibling)", default: "open" },
    plain: { $ref: "#/$defs/Status" },
    loop: { $ref: "#/$defs/A", description: "Loop (sibling)" },
    tree: { $ref: "#/$defs/Node" },
    gone: { $ref: "#/$defs/Missing", description: "Gone (sibling)" },
    bare: { $ref: "#/$defs/Missing" },
    anchored: { $ref: "#named" },
    clash: { $ref: "#/$defs/Status", type: "integer" },
  },
  required: ["status"],
};
const tool: Tool = { name: "t", inputSchema } as Tool;
const args = '{"status": "open", "plain": "open", "loop": 1, "tree": {"child": {}}, "gone": 1, "bare": 1, "anchored": 1, "clash": 1}';
const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": ${args}}}`;

function hover(key: string): string {
  const h = hoverAt(text, text.indexOf(`"${key}"`) + 1, { tools: [tool], era: "modern" });
  assert.ok(h, `a hover for ${key}`);
  return h.markdown;
}

/** The description line of a hover (the paragraph after the heading), if any. */
function hoverDescription(key: string): string | undefined {
  const paragraphs = hover(key).split("\n\n");
  const second = paragraphs[1];
  return second === undefined || /^(Allowed|Default): /.test(second) ? undefined : second;
}

const tree = buildParamTree(inputSchema);
function row(...names: string[]): ParamRow {
  let rows = tree.rows;
  let found: ParamRow | undefined;
  for (const name of names) {
    found = rows.find((r) => r.name === name);
    assert.ok(found, `a docs row for ${names.join(".")}`);
    rows = found.children;
  }
  return found!;
}

test("a sibling description and default win over the target's, in hover and docs alike", () => {
  assert.equal(hoverDescription("status"), "Status (sibling)");
  assert.equal(row("status").description, "Status (sibling)");
  assert.match(hover("status"), /Default: `"open"`/);
  assert.equal(row("status").default, "open");
  // The target's constraints still apply.
  assert.match(hover("status"), /Allowed: `"open"`, `"closed"`/);
  assert.deepEqual(row("status").enum, ["open", "closed"]);
});

test("without siblings the target's annotations show, in hover and docs alike", () => {
  assert.equal(hoverDescription("plain"), "Status (target)");
  assert.equal(row("plain").description, "Status (target)");
  assert.match(hover("plain"), /Default: `"closed"`/);
  assert.equal(row("plain").default, "closed");
});

test("a $ref cycle: both stop and show the referring schema's own annotations", () => {
  assert.equal(row("loop").cycleRef, "#/$defs/A");
  assert.equal(row("loop").description, "Loop (sibling)");
  assert.equal(hoverDescription("loop"), "Loop (sibling)");
});

test("a recursive schema: the docs stop at the repeat, the hover one level down reads the same description", () => {
  assert.equal(row("tree").description, "A node");
  assert.equal(hoverDescription("tree"), "A node");
  const child = row("tree", "child");
  assert.equal(child.cycleRef, "#/$defs/Node");
  assert.equal(child.description, "The child node");
  assert.equal(hoverDescription("child"), "The child node");
});

test("a missing $ref: the sibling description survives in both; nothing is invented without one", () => {
  assert.equal(row("gone").missingRef, "#/$defs/Missing");
  assert.equal(row("gone").description, "Gone (sibling)");
  assert.equal(hoverDescription("gone"), "Gone (sibling)");
  assert.equal(row("bare").missingRef, "#/$defs/Missing");
  assert.equal(row("bare").description, undefined);
  assert.equal(hoverDescription("bare"), undefined);
});

test("a $anchor reference resolves in both", () => {
  assert.equal(row("anchored").description, "Found by its $anchor");
  assert.equal(row("anchored").type, "integer");
  assert.equal(hoverDescription("anchored"), "Found by its $anchor");
  assert.match(hover("anchored"), /^\*\*anchored\*\*: `integer`/);
});

test("a sibling constraint does not replace the target's: both apply (2020-12), so the type stays the target's", () => {
  assert.match(hover("clash"), /^\*\*clash\*\*: `string`/);
  assert.match(row("clash").type, /^string/);
});

test("example arguments follow the same rule and terminate on cycles", () => {
  const example = exampleArgs(inputSchema, { includeOptional: true });
  assert.equal(example.status, "open");
  assert.equal(example.plain, "closed");
});
