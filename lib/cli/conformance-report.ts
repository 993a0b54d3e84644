/**
 * The official conformance suite's server results (a `checks.json` per scenario) as the command line reports them:
 * text for a person, JSON for a script, JUnit XML for a CI's test view (a test suite per scenario, a test case per
 * check; FAILURE is a failure, WARNING a failure too unless asked otherwise, SKIPPED skipped).
 */
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { junitXml, type JunitCase } from "./junit-report.ts";

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

/** JUnit XML (lib/cli/junit-report.ts): a test suite per scenario, a test case per check. */
export function conformanceJunit(results: readonly ScenarioResult[], server: string, warningsFail: boolean): string {
  return junitXml({
    name: `MCP conformance: ${server}`,
    suites: results.map((r) => ({ name: r.scenario, cases: r.checks.map((c) => checkCase(r.scenario, c, warningsFail)) })),
  });
}

function checkCase(scenario: string, c: ConformanceCheck, warningsFail: boolean): JunitCase {
  const testCase: JunitCase = { classname: scenario, name: `${c.id}: ${c.name}` };
  if (isBad(c, warningsFail)) {
    const refs = (c.specReferences ?? []).map((ref) => `${ref.id}${ref.url ? ` ${ref.url}` : ""}`).join("\n");
    testCase.failure = { message: c.errorMessage ?? c.description, type: c.status, detail: `${c.description}${refs ? `\n${refs}` : ""}` };
  } else if (c.status === "SKIPPED") testCase.skipped = { message: c.errorMessage ?? c.description };
  return testCase;
}
