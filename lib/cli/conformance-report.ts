/**
 * The official conformance suite's server results (a `checks.json` per scenario) as the command line reports them:
 * text for a person, JSON for a script, JUnit XML for a CI's test view (a test suite per scenario, a test case per
 * check; FAILURE is a failure, WARNING a failure too unless asked otherwise, SKIPPED skipped).
 */
import { EXIT, type ExitCode } from "./exit-codes.ts";

export interface ConformanceCheck {
  id: string;
  name: string;
  description: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
  specReferences?: { id: string; url?: string }[];
}

export interface ScenarioResult {
  scenario: string;
  checks: ConformanceCheck[];
}

export interface ConformanceSummary {
  scenarios: number;
  checks: number;
  failures: number;
  warnings: number;
  skipped: number;
}

const isBad = (c: ConformanceCheck, warningsFail: boolean) => c.status === "FAILURE" || (warningsFail && c.status === "WARNING");

export function summarize(results: readonly ScenarioResult[]): ConformanceSummary {
  const all = results.flatMap((r) => r.checks);
  return {
    scenarios: results.length,
    checks: all.length,
    failures: all.filter((c) => c.status === "FAILURE").length,
    warnings: all.filter((c) => c.status === "WARNING").length,
    skipped: all.filter((c) => c.status === "SKIPPED").length,
  };
}

/** 1 when a check failed (or warned, with `warningsFail`), else 0. */
export function conformanceExitCode(results: readonly ScenarioResult[], warningsFail: boolean): ExitCode {
  return results.some((r) => r.checks.some((c) => isBad(c, warningsFail))) ? EXIT.findings : EXIT.ok;
}

export function conformanceText(results: readonly ScenarioResult[], warningsFail: boolean): string {
  const lines: string[] = [];
  for (const r of results) {
    const bad = r.checks.filter((c) => isBad(c, warningsFail));
    lines.push(`${bad.length ? "✗" : "✓"} ${r.scenario}: ${r.checks.length - bad.length} passed, ${bad.length} failed`);
    for (const c of bad) lines.push(`    ${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
  }
  const s = summarize(results);
  lines.push(`${s.scenarios} scenarios, ${s.checks} checks: ${s.failures} failed, ${s.warnings} warnings, ${s.skipped} skipped`);
  return `${lines.join("\n")}\n`;
}

export function conformanceJson(results: readonly ScenarioResult[], server: string): string {
  return `${JSON.stringify({ server, summary: summarize(results), scenarios: results }, null, 2)}\n`;
}

/** Text as XML character data or an attribute value; characters XML 1.0 cannot carry are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** JUnit XML: `<testsuites>` with a `<testsuite>` per scenario and a `<testcase>` per check. */
export function conformanceJunit(results: readonly ScenarioResult[], server: string, warningsFail: boolean): string {
  const s = summarize(results);
  const failuresOf = (r: ScenarioResult) => r.checks.filter((c) => isBad(c, warningsFail)).length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(`MCP conformance: ${server}`)}" tests="${s.checks}" failures="${results.reduce((n, r) => n + failuresOf(r), 0)}" errors="0" skipped="${s.skipped}">`,
  ];
  for (const r of results) {
    const skipped = r.checks.filter((c) => c.status === "SKIPPED").length;
    out.push(
      `  <testsuite name="${xmlEscape(r.scenario)}" tests="${r.checks.length}" failures="${failuresOf(r)}" errors="0" skipped="${skipped}">`,
    );
    for (const c of r.checks) {
      const name = xmlEscape(`${c.id}: ${c.name}`);
      const open = `    <testcase classname="${xmlEscape(r.scenario)}" name="${name}"`;
      if (isBad(c, warningsFail)) {
        const refs = (c.specReferences ?? []).map((ref) => `${ref.id}${ref.url ? ` ${ref.url}` : ""}`).join("\n");
        out.push(
          `${open}>`,
          `      <failure message="${xmlEscape(c.errorMessage ?? c.description)}" type="${c.status}">${xmlEscape(`${c.description}${refs ? `\n${refs}` : ""}`)}</failure>`,
          "    </testcase>",
        );
      } else if (c.status === "SKIPPED")
        out.push(`${open}>`, `      <skipped message="${xmlEscape(c.errorMessage ?? c.description)}"/>`, "    </testcase>");
      else out.push(`${open}/>`);
    }
    out.push("  </testsuite>");
  }
  out.push("</testsuites>");
  return `${out.join("\n")}\n`;
}
