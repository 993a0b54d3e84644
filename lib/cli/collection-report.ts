/**
 * `toolscope test`'s report of a collection run: text for a person (a line per call, the failed expectations under
 * it), JSON (the runner's report as it is, for other tools), and JUnit XML through the shared writer (a test case per
 * call, a collection a suite), and its exit code.
 */
import type { RunReport } from "../collections/index.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";
import { junitXml, type JunitCase } from "./junit-report.ts";

const MARK = { passed: "ok  ", failed: "FAIL", error: "ERR ", skipped: "skip" } as const;

export function collectionText(report: RunReport): string {
  const lines = [`${report.collection}`];
  for (const c of report.calls) {
    lines.push(`  ${MARK[c.status]} ${c.name} (${Math.round(c.durationMs)} ms)`);
    if (c.error) lines.push(`         ${c.error}`);
    for (const e of c.expectations.filter((x) => !x.pass)) lines.push(`         ✗ ${e.label}: ${e.message}`);
  }
  const s = report.summary;
  lines.push(
    `${s.total} calls: ${s.passed} passed, ${s.failed} failed, ${s.errors} errors, ${s.skipped} skipped (${(s.durationMs / 1000).toFixed(2)} s)`,
  );
  return `${lines.join("\n")}\n`;
}

export function collectionJson(report: RunReport, file: string): string {
  return `${JSON.stringify({ file, ...report }, null, 2)}\n`;
}

export function collectionJunit(report: RunReport, file: string): string {
  const cases: JunitCase[] = report.calls.map((c) => {
    const failed = c.expectations.filter((e) => !e.pass);
    const detail = c.expectations.map((e) => `${e.pass ? "✓" : "✗"} ${e.label}: ${e.message}`).join("\n");
    return {
      name: c.name,
      classname: report.collection,
      time: c.durationMs / 1000,
      ...(c.status === "failed"
        ? { failure: { message: failed.map((e) => `${e.label}: ${e.message}`).join("; "), type: failed[0]?.kind, detail } }
        : {}),
      ...(c.status === "error" ? { error: { message: c.error ?? "the call could not run", type: "error" } } : {}),
      ...(c.status === "skipped" ? { skipped: { message: c.error ?? "not run" } } : {}),
    };
  });
  return junitXml({
    name: `toolscope test ${file}`,
    time: report.summary.durationMs / 1000,
    suites: [{ name: report.collection, time: report.summary.durationMs / 1000, cases }],
  });
}

/** ok when every call that ran passed; findings when one failed, could not run, or was skipped by --bail. */
export function collectionExitCode(report: RunReport): ExitCode {
  return report.calls.every((c) => c.status === "passed") ? EXIT.ok : EXIT.findings;
}
