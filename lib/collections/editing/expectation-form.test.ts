import { test } from "node:test";
import assert from "node:assert/strict";
import {
  defaultExpectation,
  expectationProblems,
  fieldText,
  KIND_OPTIONS,
  kindDescription,
  kindFields,
  withField,
  type FieldSpec,
} from "./expectation-form.ts";
import type { Expectation } from "../index.ts";

type Kind = Expectation["kind"];

/** The field `name` of `kind`, as the form shows it. */
function field(kind: Kind, name: string): FieldSpec {
  const found = kindFields(kind).find((f) => f.name === name);
  assert.ok(found, `${kind} has a field ${name}`);
  return found;
}

/** withField that must succeed: the expectation it gives. */
function edit(e: Expectation, f: FieldSpec, text: string): Expectation {
  const r = withField(e, f, text);
  assert.ok(r.ok, !r.ok ? r.error : "");
  return r.expectation;
}

/** What the search_issues answer of the demo records for `unchanged` (a realistic result). */
const RECORDED = {
  content: [{ type: "text", text: '{"issues":[{"id":3,"title":"CSV export drops rows with commas in the title"}],"total":1}' }],
  structuredContent: { issues: [{ id: 3, title: "CSV export drops rows with commas in the title", status: "open" }], total: 1 },
};

test("KIND_OPTIONS: every kind of the format, in the schema's order", () => {
  assert.deepEqual(
    [...KIND_OPTIONS],
    [
      "no-error",
      "error",
      "is-error",
      "output-schema",
      "schema",
      "equals",
      "matches",
      "present",
      "absent",
      "text-contains",
      "text-matches",
      "tool-listed",
      "latency",
      "unchanged",
    ],
  );
});

test("kindFields: equals is a required pointer and a required JSON value", () => {
  assert.deepEqual(kindFields("equals"), [
    { name: "pointer", type: "pointer", required: true },
    { name: "value", type: "json", required: true },
  ]);
});

test("kindFields: unchanged is recorded (JSON, required), then an optional pointer and optional volatile pointers", () => {
  assert.deepEqual(kindFields("unchanged"), [
    { name: "recorded", type: "json", required: true },
    { name: "pointer", type: "pointer", required: false },
    { name: "volatile", type: "pointers", required: false },
  ]);
});

test("kindFields: required fields first, schema order kept otherwise", () => {
  assert.deepEqual(kindFields("schema"), [
    { name: "schema", type: "json", required: true },
    { name: "pointer", type: "pointer", required: false },
  ]);
  assert.deepEqual(kindFields("matches"), [
    { name: "pointer", type: "pointer", required: true },
    { name: "pattern", type: "text", required: true },
    { name: "flags", type: "text", required: false },
  ]);
  assert.deepEqual(kindFields("text-matches"), [
    { name: "pattern", type: "text", required: true },
    { name: "flags", type: "text", required: false },
  ]);
});

test("kindFields: integer, boolean and text fields", () => {
  assert.deepEqual(kindFields("latency"), [{ name: "maxMs", type: "integer", required: true }]);
  assert.deepEqual(kindFields("error"), [{ name: "code", type: "integer", required: false }]);
  assert.deepEqual(kindFields("is-error"), [{ name: "value", type: "boolean", required: true }]);
  assert.deepEqual(kindFields("tool-listed"), [
    { name: "tool", type: "text", required: true },
    { name: "listed", type: "boolean", required: false },
  ]);
  assert.deepEqual(kindFields("text-contains"), [{ name: "text", type: "text", required: true }]);
  assert.deepEqual(kindFields("present"), [{ name: "pointer", type: "pointer", required: true }]);
  assert.deepEqual(kindFields("absent"), [{ name: "pointer", type: "pointer", required: true }]);
});

test("kindFields: kinds without members have no fields (kind itself is never a field)", () => {
  assert.deepEqual(kindFields("no-error"), []);
  assert.deepEqual(kindFields("output-schema"), []);
  for (const kind of KIND_OPTIONS)
    assert.equal(
      kindFields(kind).some((f) => f.name === "kind"),
      false,
      kind,
    );
});

test("kindDescription: every kind has the schema's description", () => {
  for (const kind of KIND_OPTIONS) {
    const d = kindDescription(kind);
    assert.equal(typeof d, "string");
    assert.ok(d.trim().length > 10, `${kind}: ${JSON.stringify(d)}`);
    assert.match(d, /\.$/, kind);
  }
  assert.equal(kindDescription("equals"), "The value at pointer equals value.");
  assert.equal(kindDescription("latency"), "The call took at most maxMs.");
  assert.equal(kindDescription("unchanged"), "The value at pointer (default /result) equals recorded, apart from the volatile pointers.");
  assert.equal(new Set(KIND_OPTIONS.map(kindDescription)).size, KIND_OPTIONS.length, "no two kinds share a description");
});

test("defaultExpectation: every kind's default is a valid expectation of that kind, except tool-listed without a tool", () => {
  for (const kind of KIND_OPTIONS) {
    const e = defaultExpectation(kind);
    assert.equal(e.kind, kind);
    const problems = expectationProblems(e);
    if (kind === "tool-listed") {
      // Deliberately incomplete: the person has to name the tool (no tool was hinted).
      assert.deepEqual(e, { kind: "tool-listed", tool: "" });
      assert.deepEqual(problems, ["tool: tool must be at least 1 characters long"]);
    } else assert.deepEqual(problems, [], `${kind}: ${JSON.stringify(e)}`);
  }
});

test("defaultExpectation: exact defaults without hints", () => {
  assert.deepEqual(defaultExpectation("no-error"), { kind: "no-error" });
  assert.deepEqual(defaultExpectation("error"), { kind: "error" });
  assert.deepEqual(defaultExpectation("output-schema"), { kind: "output-schema" });
  assert.deepEqual(defaultExpectation("is-error"), { kind: "is-error", value: false });
  assert.deepEqual(defaultExpectation("schema"), { kind: "schema", schema: { type: "object" } });
  assert.deepEqual(defaultExpectation("equals"), { kind: "equals", pointer: "/result/structuredContent", value: null });
  assert.deepEqual(defaultExpectation("matches"), { kind: "matches", pointer: "/result/structuredContent", pattern: "^" });
  assert.deepEqual(defaultExpectation("present"), { kind: "present", pointer: "/result/structuredContent" });
  assert.deepEqual(defaultExpectation("absent"), { kind: "absent", pointer: "/result/structuredContent" });
  assert.deepEqual(defaultExpectation("text-contains"), { kind: "text-contains", text: "" });
  assert.deepEqual(defaultExpectation("text-matches"), { kind: "text-matches", pattern: "" });
  assert.deepEqual(defaultExpectation("latency"), { kind: "latency", maxMs: 1000 });
  assert.deepEqual(defaultExpectation("unchanged"), { kind: "unchanged", recorded: null });
});

test("defaultExpectation: filled from the editor's hints (pointer, value, tool, last result); still valid", () => {
  const hint = { pointer: "/result/content/0/text/status", value: "open", tool: "create_issue", result: RECORDED };
  const equals = defaultExpectation("equals", hint);
  assert.deepEqual(equals, { kind: "equals", pointer: "/result/content/0/text/status", value: "open" });
  assert.deepEqual(defaultExpectation("present", hint), { kind: "present", pointer: "/result/content/0/text/status" });
  assert.deepEqual(defaultExpectation("matches", hint), { kind: "matches", pointer: "/result/content/0/text/status", pattern: "^" });
  const listed = defaultExpectation("tool-listed", hint);
  assert.deepEqual(listed, { kind: "tool-listed", tool: "create_issue" });
  const unchanged = defaultExpectation("unchanged", hint);
  assert.deepEqual(unchanged, { kind: "unchanged", recorded: RECORDED });
  for (const e of [equals, listed, unchanged]) assert.deepEqual(expectationProblems(e), [], e.kind);
  // Falsy values are values: 0 and false are kept, not replaced by null.
  assert.deepEqual(defaultExpectation("equals", { value: 0 }), { kind: "equals", pointer: "/result/structuredContent", value: 0 });
  assert.deepEqual(defaultExpectation("equals", { value: false }), {
    kind: "equals",
    pointer: "/result/structuredContent",
    value: false,
  });
});

test("fieldText: each type as the field shows it; an absent member is empty", () => {
  const unchanged: Expectation = {
    kind: "unchanged",
    recorded: RECORDED,
    pointer: "/result",
    volatile: ["/_meta", "/structuredContent/total"],
  };
  assert.equal(fieldText(unchanged, field("unchanged", "pointer")), "/result");
  assert.equal(fieldText(unchanged, field("unchanged", "volatile")), "/_meta\n/structuredContent/total");
  assert.equal(fieldText(unchanged, field("unchanged", "recorded")), JSON.stringify(RECORDED, null, 2));
  assert.equal(fieldText({ kind: "unchanged", recorded: null }, field("unchanged", "pointer")), "");
  assert.equal(fieldText({ kind: "unchanged", recorded: null }, field("unchanged", "volatile")), "");
  assert.equal(fieldText({ kind: "unchanged", recorded: null }, field("unchanged", "recorded")), "null");
  assert.equal(fieldText({ kind: "equals", pointer: "/a", value: "open" }, field("equals", "value")), '"open"');
  assert.equal(fieldText({ kind: "latency", maxMs: 250 }, field("latency", "maxMs")), "250");
  assert.equal(fieldText({ kind: "error", code: -32602 }, field("error", "code")), "-32602");
  assert.equal(fieldText({ kind: "error" }, field("error", "code")), "");
  assert.equal(fieldText({ kind: "is-error", value: true }, field("is-error", "value")), "true");
  assert.equal(fieldText({ kind: "is-error", value: false }, field("is-error", "value")), "false");
  assert.equal(fieldText({ kind: "tool-listed", tool: "delete_issue" }, field("tool-listed", "listed")), "");
  assert.equal(fieldText({ kind: "matches", pointer: "/a", pattern: "^\\d{4}-" }, field("matches", "pattern")), "^\\d{4}-");
});

test("fieldText → withField round trips, for every field type", () => {
  const cases: Array<[Expectation, string]> = [
    // pointer
    [{ kind: "equals", pointer: "/result/content/0/text/id", value: 13 }, "pointer"],
    [{ kind: "present", pointer: "/result/structuredContent/issues/0/a~1b" }, "pointer"],
    // pointers
    [{ kind: "unchanged", recorded: RECORDED, volatile: ["/structuredContent/issues/0/updated_at", "/_meta"] }, "volatile"],
    // json
    [{ kind: "equals", pointer: "/result/structuredContent", value: { issues: [{ id: 3, labels: ["bug"] }], total: 1 } }, "value"],
    [{ kind: "equals", pointer: "/result/content/0/text/status", value: "open" }, "value"],
    [{ kind: "equals", pointer: "/result/content/0/text/assignee", value: null }, "value"],
    [{ kind: "unchanged", recorded: RECORDED }, "recorded"],
    [{ kind: "schema", schema: { type: "object", required: ["issues"] } }, "schema"],
    // text
    [{ kind: "matches", pointer: "/result/content/0/text/updated_at", pattern: "^\\d{4}-\\d{2}-\\d{2}T", flags: "i" }, "pattern"],
    [{ kind: "matches", pointer: "/a", pattern: "x", flags: "iu" }, "flags"],
    [{ kind: "text-contains", text: '  "labels"  ' }, "text"],
    [{ kind: "tool-listed", tool: "assign_issue" }, "tool"],
    // integer
    [{ kind: "latency", maxMs: 5000 }, "maxMs"],
    [{ kind: "error", code: -32602 }, "code"],
    // boolean
    [{ kind: "is-error", value: true }, "value"],
    [{ kind: "is-error", value: false }, "value"],
    [{ kind: "tool-listed", tool: "toggle_beta_tools", listed: false }, "listed"],
    [{ kind: "tool-listed", tool: "toggle_beta_tools", listed: true }, "listed"],
  ];
  const seen = new Set<string>();
  for (const [e, name] of cases) {
    const f = field(e.kind, name);
    seen.add(f.type);
    assert.deepEqual(edit(e, f, fieldText(e, f)), e, `${e.kind}.${name}`);
  }
  assert.deepEqual([...seen].sort(), ["boolean", "integer", "json", "pointer", "pointers", "text"]);
});

test("withField: sets the member from text, keeping the others; the expectation given is not changed", () => {
  const e: Expectation = { kind: "equals", pointer: "/result/structuredContent/total", value: 1 };
  const next = edit(e, field("equals", "value"), '{ "total": 2 }');
  assert.deepEqual(next, { kind: "equals", pointer: "/result/structuredContent/total", value: { total: 2 } });
  assert.deepEqual(e, { kind: "equals", pointer: "/result/structuredContent/total", value: 1 });
  assert.deepEqual(edit(e, field("equals", "pointer"), "  /result/content/0/text/id \n"), {
    kind: "equals",
    pointer: "/result/content/0/text/id",
    value: 1,
  });
  assert.deepEqual(edit({ kind: "latency", maxMs: 1000 }, field("latency", "maxMs"), " 250 "), { kind: "latency", maxMs: 250 });
  assert.deepEqual(edit({ kind: "is-error", value: false }, field("is-error", "value"), " true "), { kind: "is-error", value: true });
  assert.deepEqual(edit({ kind: "is-error", value: true }, field("is-error", "value"), "no"), { kind: "is-error", value: false });
  // A required pointer may be empty: "" is the whole answer.
  assert.deepEqual(edit(e, field("equals", "pointer"), "  "), { kind: "equals", pointer: "", value: 1 });
  // A required text keeps its spaces.
  assert.deepEqual(edit({ kind: "text-contains", text: "x" }, field("text-contains", "text"), ""), { kind: "text-contains", text: "" });
});

test("withField: pointers one per line, trimmed, blanks dropped, duplicates once", () => {
  const e: Expectation = { kind: "unchanged", recorded: RECORDED };
  assert.deepEqual(edit(e, field("unchanged", "volatile"), " /_meta \n/structuredContent/total\n\n/_meta\n"), {
    kind: "unchanged",
    recorded: RECORDED,
    volatile: ["/_meta", "/structuredContent/total"],
  });
});

test("withField: an empty optional field removes the member", () => {
  const unchanged: Expectation = { kind: "unchanged", recorded: RECORDED, pointer: "/result", volatile: ["/_meta"] };
  assert.deepEqual(edit(unchanged, field("unchanged", "pointer"), ""), { kind: "unchanged", recorded: RECORDED, volatile: ["/_meta"] });
  assert.deepEqual(edit(unchanged, field("unchanged", "volatile"), " \n "), { kind: "unchanged", recorded: RECORDED, pointer: "/result" });
  assert.deepEqual(edit({ kind: "matches", pointer: "/a", pattern: "x", flags: "i" }, field("matches", "flags"), ""), {
    kind: "matches",
    pointer: "/a",
    pattern: "x",
  });
  assert.deepEqual(edit({ kind: "error", code: -32601 }, field("error", "code"), "   "), { kind: "error" });
  assert.deepEqual(edit({ kind: "tool-listed", tool: "t", listed: false }, field("tool-listed", "listed"), ""), {
    kind: "tool-listed",
    tool: "t",
  });
  const removed = edit({ kind: "schema", schema: true, pointer: "/result" }, field("schema", "pointer"), "");
  assert.equal("pointer" in removed, false);
});

test("withField: a pointer not starting with / is refused, with the exact message", () => {
  assert.deepEqual(withField({ kind: "equals", pointer: "/a", value: 1 }, field("equals", "pointer"), "result/structuredContent/id"), {
    ok: false,
    error: 'pointer: a JSON pointer starts with "/" (e.g. /result/structuredContent/id).',
  });
  assert.deepEqual(withField({ kind: "unchanged", recorded: 1 }, field("unchanged", "pointer"), "#/result"), {
    ok: false,
    error: 'pointer: a JSON pointer starts with "/" (e.g. /result/structuredContent/id).',
  });
});

test("withField: a list item not starting with / is refused, naming it", () => {
  assert.deepEqual(withField({ kind: "unchanged", recorded: 1 }, field("unchanged", "volatile"), "/_meta\nstructuredContent/total"), {
    ok: false,
    error: 'volatile: "structuredContent/total" is not a JSON pointer (start it with "/").',
  });
});

test("withField: an integer field takes whole numbers only, with the exact message", () => {
  for (const text of ["fast", "1.5", "1e3", "12ms", "0x10", ""]) {
    assert.deepEqual(withField({ kind: "latency", maxMs: 1000 }, field("latency", "maxMs"), text), {
      ok: false,
      error: "maxMs: a whole number, e.g. 500.",
    });
  }
  assert.deepEqual(withField({ kind: "error" }, field("error", "code"), "-32602.0"), {
    ok: false,
    error: "code: a whole number, e.g. 500.",
  });
});

test("withField: a JSON field that does not parse is refused, with the exact message", () => {
  const error = 'value: not JSON. Put a string in double quotes ("open"); numbers, true, false, null, objects and arrays as they are.';
  const e: Expectation = { kind: "equals", pointer: "/a", value: 1 };
  for (const text of ["open", "{ total: 1 }", "'open'", "", "[1,]"])
    assert.deepEqual(withField(e, field("equals", "value"), text), { ok: false, error }, text);
  assert.deepEqual(withField({ kind: "unchanged", recorded: 1 }, field("unchanged", "recorded"), "{"), {
    ok: false,
    error: 'recorded: not JSON. Put a string in double quotes ("open"); numbers, true, false, null, objects and arrays as they are.',
  });
});

test("withField: a volatile pointer whose key holds a comma survives the round trip", () => {
  const e: Expectation = { kind: "unchanged", recorded: { en: 1, "en,fr": 2 }, volatile: ["/en,fr"] };
  const f = field("unchanged", "volatile");
  assert.deepEqual(withField(e, f, fieldText(e, f)), { ok: true, expectation: e });
});

test("expectationProblems: nothing for valid expectations of the example collection", () => {
  const valid: Expectation[] = [
    { kind: "no-error" },
    { kind: "is-error", value: false },
    { kind: "present", pointer: "/result/content/0/text/id" },
    { kind: "equals", pointer: "/result/content/0/text/status", value: "open" },
    { kind: "latency", maxMs: 5000 },
    { kind: "text-contains", text: '"labels"' },
    { kind: "matches", pointer: "/result/content/0/text/updated_at", pattern: "^\\d{4}-\\d{2}-\\d{2}T", flags: "i" },
    { kind: "tool-listed", tool: "assign_issue", listed: true },
    { kind: "error", code: -32602 },
    { kind: "schema", schema: { type: "object", properties: { total: { type: "integer" } } } },
    { kind: "schema", schema: true, pointer: "/result" },
    { kind: "unchanged", recorded: RECORDED, volatile: ["/_meta"] },
  ];
  for (const e of valid) assert.deepEqual(expectationProblems(e), [], JSON.stringify(e));
});

test("expectationProblems: a pattern that is not a regular expression", () => {
  const m = expectationProblems({ kind: "matches", pointer: "/result/content/0/text/title", pattern: "(unclosed" });
  assert.equal(m.length, 1, JSON.stringify(m));
  assert.match(m[0], /^pattern: not a regular expression \(Invalid regular expression: .*Unterminated group\)\.$/);
  const t = expectationProblems({ kind: "text-matches", pattern: "[a-" });
  assert.equal(t.length, 1, JSON.stringify(t));
  assert.match(t[0], /^pattern: not a regular expression \(Invalid regular expression: .*Unterminated character class\)\.$/);
});

test("expectationProblems: bad flags are reported by the schema and by the RegExp check", () => {
  const problems = expectationProblems({ kind: "text-matches", pattern: "open", flags: "q" });
  assert.equal(problems.length, 2, JSON.stringify(problems));
  assert.equal(problems[0], "flags: flags must match the pattern ^[imsu]*$");
  assert.match(problems[1], /^pattern: not a regular expression \(Invalid flags .*'q'.*\)\.$/);
  // "g" is a valid RegExp flag but not one a collection allows: only the schema complains.
  assert.deepEqual(expectationProblems({ kind: "matches", pointer: "/a", pattern: "open", flags: "gi" }), [
    "flags: flags must match the pattern ^[imsu]*$",
  ]);
});

test("expectationProblems: a schema that does not compile", () => {
  const problems = expectationProblems({ kind: "schema", schema: { type: "issue" } });
  assert.equal(problems.length, 1, JSON.stringify(problems));
  assert.match(problems[0], /^schema: The schema cannot be compiled: /);
  assert.match(problems[0], /type/);
  const ref = expectationProblems({ kind: "schema", schema: { $ref: "#/$defs/missing" } });
  assert.equal(ref.length, 1, JSON.stringify(ref));
  assert.match(ref[0], /^schema: The schema cannot be compiled: /);
});

test("expectationProblems: wrong member types, out-of-range values, missing and unknown members", () => {
  assert.deepEqual(expectationProblems({ kind: "latency", maxMs: "fast" } as unknown as Expectation), ["maxMs: maxMs must be integer"]);
  assert.deepEqual(expectationProblems({ kind: "latency", maxMs: 1.5 }), ["maxMs: maxMs must be integer"]);
  assert.deepEqual(expectationProblems({ kind: "latency", maxMs: 0 }), ["maxMs: maxMs must be >= 1"]);
  assert.deepEqual(expectationProblems({ kind: "error", code: "-32602" } as unknown as Expectation), ["code: code must be integer"]);
  assert.deepEqual(expectationProblems({ kind: "equals", pointer: "result/id", value: 1 }), [
    "pointer: pointer must match the pattern ^(/.*)?$",
  ]);
  assert.deepEqual(expectationProblems({ kind: "unchanged", recorded: 1, volatile: ["/a", "/a"] }), [
    "volatile: volatile must not contain duplicates (items 1 and 0 are equal)",
  ]);
  assert.deepEqual(expectationProblems({ kind: "equals", pointer: "/a" } as unknown as Expectation), ['missing required property "value"']);
  assert.deepEqual(expectationProblems({ kind: "present", pointer: "/a", value: 1 } as unknown as Expectation), [
    'value: unexpected property "value"; the schema allows no other properties',
  ]);
  const unknown = expectationProblems({ kind: "contains" } as unknown as Expectation);
  assert.equal(unknown.length, 1);
  assert.match(unknown[0], /^kind: kind must be one of no-error, error, is-error, /);
});
