/**
 * JUnit XML for a CI's test view, from suites of test cases: what `conformance --format junit` writes, and what any
 * other command that runs checks (a collection runner) can write the same way. The output is valid against the Jenkins
 * JUnit schema (jenkins-junit.xsd; lib/cli/testing/junit-schema.ts checks it in the tests).
 *
 * Written by hand rather than with junit-report-builder 5.1.2 (what the dependency notes suggest): its XML layer,
 * xmlbuilder 15.1.1, escapes only the first `]]>` in a CDATA section, so a message with two of them ends the section
 * early and the rest is parsed as markup (a `<script>` in a server's error text becomes an element and the report is
 * not well-formed); it drops the character before a lone low surrogate; its `<skipped>` takes no reason; its default
 * export is one builder shared by every caller; and it would add 166 KB minified (lodash, xmlbuilder, semver) to the
 * packed CLI for what is about forty lines here.
 */

export interface JunitOutcome {
  /** One line, for the CI's list (`message` attribute). */
  message: string;
  /** What kind: the failed check's status, an exception's class, … (`type` attribute). */
  type?: string;
  /** Longer text shown when the case is opened (the element's content). */
  detail?: string;
}

export interface JunitCase {
  name: string;
  /** Groups cases in the CI's view; conventionally the suite's name. */
  classname?: string;
  /** Seconds. */
  time?: number;
  /** The check did not hold. */
  failure?: JunitOutcome;
  /** The check could not be run at all (the request failed, …). */
  error?: JunitOutcome;
  /** Not run, on purpose. */
  skipped?: { message: string };
}

export interface JunitSuite {
  name: string;
  /** Seconds. */
  time?: number;
  cases: readonly JunitCase[];
}

export interface JunitReport {
  name: string;
  /** Seconds. */
  time?: number;
  suites: readonly JunitSuite[];
}

/** Characters XML 1.0 can carry: everything else (controls, lone surrogates, U+FFFE/U+FFFF) is dropped. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Character data. `>` too, so `]]>` cannot appear; `\r` as a reference, or a parser would turn it into `\n`. */
function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\r/g, "&#13;");
}

/** An attribute value in double quotes. Tabs and line breaks as references: a parser turns literal ones into spaces. */
function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;");
}

/** Seconds as the schema's SUREFIRE_TIME wants them (no sign, no exponent); nothing when there is no sensible value. */
function seconds(time: number | undefined): string | undefined {
  return time !== undefined && Number.isFinite(time) && time >= 0 ? time.toFixed(3) : undefined;
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${xmlAttr(String(value))}"`)
    .join("");
}

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

function countCases(cases: readonly JunitCase[]): Counts {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped).length,
  };
}

function outcome(element: "failure" | "error", o: JunitOutcome): string {
  const open = `<${element}${attrs({ message: o.message, type: o.type })}`;
  return o.detail ? `${open}>${xmlText(o.detail)}</${element}>` : `${open}/>`;
}

function testCase(c: JunitCase): string[] {
  const open = `    <testcase${attrs({ classname: c.classname, name: c.name, time: seconds(c.time) })}`;
  // The order the Jenkins schema requires. The skip's reason is the element's text: that schema allows no attribute
  // on it, and CI viewers read the text when there is no `message`.
  const children = [
    c.skipped && `<skipped>${xmlText(c.skipped.message)}</skipped>`,
    c.error && outcome("error", c.error),
    c.failure && outcome("failure", c.failure),
  ].filter((child): child is string => Boolean(child));
  return children.length ? [`${open}>`, ...children.map((child) => `      ${child}`), "    </testcase>"] : [`${open}/>`];
}

/**
 * `<testsuites>` with a `<testsuite>` per suite and a `<testcase>` per case, the counts worked out from the cases. The
 * root has no `skipped` count: no JUnit schema allows one there (each suite has its own).
 */
export function junitXml(report: JunitReport): string {
  const suites = report.suites.map((suite) => ({ suite, counts: countCases(suite.cases) }));
  const total = countCases(report.suites.flatMap((s) => s.cases));
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: report.name, tests: total.tests, failures: total.failures, errors: total.errors, time: seconds(report.time) })}>`,
  ];
  for (const { suite, counts } of suites) {
    out.push(`  <testsuite${attrs({ name: suite.name, ...counts, time: seconds(suite.time) })}>`);
    for (const c of suite.cases) out.push(...testCase(c));
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}
