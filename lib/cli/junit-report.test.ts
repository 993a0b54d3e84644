/**
 * The JUnit XML writer: its output is valid against the published JUnit schema (jenkins-junit.xsd, checked
 * by libxml2) whatever text goes in, counts and outcomes are where CIs read them, and the check itself rejects
 * documents that are not valid, so it can fail.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { junitXml, type JunitReport } from "./junit-report.ts";
import { conformanceJunit } from "./conformance-report.ts";
import { junitSchemaErrors } from "./testing/junit-schema.ts";

/** Every kind of text a server or a check can hand over that XML must not carry as is. */
const HOSTILE = [
  "a]]>b]]>c", // ends a CDATA section, twice
  "<script>alert('x')</script>",
  '"quoted" & &amp; <b>',
  "nul\u0000 bell\u0007 vtab\u000b esc\u001b del\u007f",
  "lone high \uD800| lone low x\uDC00y| reversed \uDC00\uD800|",
  "non-characters \uFFFE\uFFFF",
  "tab\tline\nreturn\r.",
  "astral 😀 kept",
].join(" / ");

const sample: JunitReport = {
  name: "collection",
  time: 1.5,
  suites: [
    {
      name: "tools",
      time: 1.25,
      cases: [
        { classname: "tools", name: "lists tools", time: 0.1234 },
        { classname: "tools", name: "echo", time: 0.5, failure: { message: "expected 1, got 2", type: "assertion", detail: "at step 3" } },
        { classname: "tools", name: "add", error: { message: "connection refused" } },
        { classname: "tools", name: "later", skipped: { message: "not in this version" } },
      ],
    },
    { name: "empty", cases: [] },
  ],
};

describe("junitXml", () => {
  test("passes, a failure, an error and a skip: valid JUnit, counted per suite and in all", async () => {
    const xml = junitXml(sample);
    assert.deepEqual(await junitSchemaErrors(xml), []);
    assert.equal(
      xml,
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="collection" tests="4" failures="1" errors="1" time="1.500">',
        '  <testsuite name="tools" tests="4" failures="1" errors="1" skipped="1" time="1.250">',
        '    <testcase classname="tools" name="lists tools" time="0.123"/>',
        '    <testcase classname="tools" name="echo" time="0.500">',
        '      <failure message="expected 1, got 2" type="assertion">at step 3</failure>',
        "    </testcase>",
        '    <testcase classname="tools" name="add">',
        '      <error message="connection refused"/>',
        "    </testcase>",
        '    <testcase classname="tools" name="later">',
        "      <skipped>not in this version</skipped>",
        "    </testcase>",
        "  </testsuite>",
        '  <testsuite name="empty" tests="0" failures="0" errors="0" skipped="0">',
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  test("hostile text in every field stays text: the report is well-formed and valid, nothing becomes markup", async () => {
    const outcome = { message: HOSTILE, type: HOSTILE, detail: HOSTILE };
    const xml = junitXml({
      name: HOSTILE,
      suites: [
        {
          name: HOSTILE,
          cases: [
            { classname: HOSTILE, name: HOSTILE, failure: outcome },
            { classname: HOSTILE, name: `${HOSTILE} 2`, error: outcome },
            { classname: HOSTILE, name: `${HOSTILE} 3`, skipped: { message: HOSTILE } },
          ],
        },
      ],
    });
    assert.deepEqual(await junitSchemaErrors(xml), []);
    assert.doesNotMatch(xml, /<script|<b>|]]>/);
    assert.doesNotMatch(xml, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]|\p{Cs}/u, "no character XML 1.0 cannot carry");
    assert.match(xml, /lone low xy\|/, "dropping a lone surrogate takes nothing else with it");
    assert.match(xml, /astral 😀 kept/);
    // Line breaks and tabs in attributes as references (a parser would read literal ones as spaces), `\r` everywhere.
    assert.match(xml, /message="[^"]*tab&#9;line&#10;return&#13;\.[^"]*"/);
    assert.match(xml, />[^<]*tab\tline\nreturn&#13;\.[^<]*<\/failure>/);
  });

  test("times that are not a duration are left out", async () => {
    const xml = junitXml({ name: "t", time: Number.NaN, suites: [{ name: "s", time: -1, cases: [{ name: "c", time: Infinity }] }] });
    assert.doesNotMatch(xml, /time=/);
    assert.deepEqual(await junitSchemaErrors(xml), []);
  });

  test("the conformance report: a suite per scenario, a case per check, warnings as failures only when asked", async () => {
    const results = [
      {
        scenario: "tools-call",
        checks: [
          { id: "ok", name: "Lists", description: "lists tools", status: "SUCCESS" as const },
          {
            id: "bad",
            name: "Calls <x>",
            description: "calls a tool",
            status: "FAILURE" as const,
            errorMessage: "got ]]> back",
            specReferences: [{ id: "MCP-Tools", url: "https://example.test/spec#tools" }],
          },
          { id: "warn", name: "Warns", description: "a should", status: "WARNING" as const },
          { id: "skip", name: "Skips", description: "not here", status: "SKIPPED" as const },
        ],
      },
    ];
    for (const warningsFail of [false, true]) {
      const xml = conformanceJunit(results, "http://127.0.0.1:1/mcp", warningsFail);
      assert.deepEqual(await junitSchemaErrors(xml), [], `warningsFail ${warningsFail}`);
      assert.match(xml, new RegExp(`<testsuite name="tools-call" tests="4" failures="${warningsFail ? 2 : 1}" errors="0" skipped="1">`));
      assert.match(
        xml,
        /<failure message="got \]\]&gt; back" type="FAILURE">calls a tool\nMCP-Tools https:\/\/example\.test\/spec#tools<\/failure>/,
      );
      assert.equal(/<failure message="a should" type="WARNING">/.test(xml), warningsFail);
      assert.match(xml, /<testcase classname="tools-call" name="skip: Skips">\n {6}<skipped>not here<\/skipped>/);
    }
  });
});

describe("junitSchemaErrors rejects what is not a valid JUnit report", () => {
  const wrap = (inner: string, root = "<testsuites>") =>
    `<?xml version="1.0" encoding="UTF-8"?>\n${root}<testsuite name="s" tests="1" failures="0" errors="0">${inner}</testsuite></testsuites>\n`;

  test("a valid minimal report passes (so the rejections below are the schema's)", async () => {
    assert.deepEqual(await junitSchemaErrors(wrap('<testcase name="c"/>')), []);
  });

  for (const [what, xml, expected] of [
    ["a test case without a name", wrap("<testcase/>"), /attribute 'name' is required/],
    ["a failure outside a test case", wrap('<failure message="m"/>'), /'failure': This element is not expected/],
    [
      "a skipped count on the root (what this writer once wrote)",
      wrap('<testcase name="c"/>', '<testsuites skipped="0">'),
      /'skipped' is not allowed/,
    ],
    [
      "a suite without its counts",
      '<testsuites><testsuite name="s"><testcase name="c"/></testsuite></testsuites>',
      /attribute 'tests' is required/,
    ],
    ["text that is not well-formed", wrap('<testcase name="c"><failure>a ]]> b</failure></testcase>'), /']]>' not allowed/],
  ] as const) {
    test(what, async () => {
      const errors = await junitSchemaErrors(xml);
      assert.ok(errors.length > 0, "rejected");
      assert.match(errors.join("\n"), expected);
    });
  }
});
