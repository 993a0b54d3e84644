/**
 * The docs' lints (lib/docs/lints.ts, the very rules the web docs show) as the command line reports them: text for a
 * person, JSON for a script, SARIF 2.1.0 for code scanning, with each finding placed at a line and column of the
 * snapshot file when there is one.
 */
import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser";
import type { Finding, ServerLint, Severity } from "../docs/lints.ts";
import { parsePointer } from "../json/pointer.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";

export type LintFailOn = "error" | "warning" | "never";

/** Where a finding sits in the snapshot file (1-based, as SARIF and editors count). */
export interface Place {
  line: number;
  column: number;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** The exit code for these findings at this threshold. */
export function lintExitCode(lint: ServerLint, failOn: LintFailOn): ExitCode {
  if (failOn === "never") return EXIT.ok;
  return lint.findings.some((f) => RANK[f.severity] <= RANK[failOn]) ? EXIT.findings : EXIT.ok;
}

/** Places findings in a snapshot file's text: the parameter's schema, else the tool, else the list. */
export function placeFindings(text: string, findings: readonly Finding[]): (Place | undefined)[] {
  const root = parseTree(text);
  if (!root) return findings.map(() => undefined);
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const at = (node: Node | undefined): Place | undefined => {
    if (!node) return undefined;
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= node.offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: node.offset - lineStarts[lo] + 1 };
  };
  // The file's own order of tools (a snapshot written by hand or by an older toolscope may not be sorted).
  const fileTools = findNodeAtLocation(root, ["list", "tools"]);
  const indexOf = new Map<string, number>();
  fileTools?.children?.forEach((child, i) => {
    const name = findNodeAtLocation(child, ["name"]);
    if (name && typeof name.value === "string" && !indexOf.has(name.value)) indexOf.set(name.value, i);
  });
  return findings.map((f) => {
    if (f.toolName === undefined || !indexOf.has(f.toolName)) return at(findNodeAtLocation(root, ["list"]));
    const tool = ["list", "tools", indexOf.get(f.toolName)!];
    if (f.path) {
      const segments = pointerSegments(f.path);
      const schemaPath: (string | number)[] = [...tool, "inputSchema"];
      for (const s of segments) schemaPath.push("properties", s);
      for (let n = schemaPath.length; n > tool.length + 1; n -= 2) {
        const node = findNodeAtLocation(root, schemaPath.slice(0, n));
        if (node) return at(node.parent ?? node);
      }
    }
    const node = findNodeAtLocation(root, tool);
    return at(node);
  });
}

/** A finding's pointer into the arguments, as property names (array indexes have no `properties` to point at). */
function pointerSegments(path: string): string[] {
  return (parsePointer(path) ?? []).filter((s) => s !== "" && !/^\d+$/.test(s));
}

/** A line per finding, like a compiler's: `file:line:col: severity id (tool): message`, then why and fix. */
export function lintText(lint: ServerLint, file: string | undefined, places: readonly (Place | undefined)[]): string {
  const lines: string[] = [];
  lint.findings.forEach((f, i) => {
    const place = places[i];
    const where = file ? `${file}${place ? `:${place.line}:${place.column}` : ""}: ` : "";
    lines.push(`${where}${f.severity} ${f.id}${f.toolName ? ` (${f.toolName}${f.path ? ` ${f.path}` : ""})` : ""}: ${f.message}`);
    lines.push(`    why: ${f.why}`);
    lines.push(`    fix: ${f.fix}`);
  });
  const s = lint.summary;
  lines.push(`${s.error} error${s.error === 1 ? "" : "s"}, ${s.warning} warning${s.warning === 1 ? "" : "s"}, ${s.info} info`);
  return `${lines.join("\n")}\n`;
}

/** The findings and counts as JSON (places included when known). */
export function lintJson(lint: ServerLint, file: string | undefined, places: readonly (Place | undefined)[]): string {
  const findings = lint.findings.map((f, i) => ({ ...f, ...(file ? { file } : {}), ...(places[i] ? { location: places[i] } : {}) }));
  return `${JSON.stringify({ summary: lint.summary, findings }, null, 2)}\n`;
}

const SARIF_LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note" };

/** SARIF 2.1.0: one run, a rule per lint id met, a result per finding located in the snapshot file. */
export function lintSarif(
  lint: ServerLint,
  file: string | undefined,
  places: readonly (Place | undefined)[],
  tool: { version: string },
): string {
  const rules = new Map<string, Finding>();
  for (const f of lint.findings) if (!rules.has(f.id)) rules.set(f.id, f);
  const ruleIds = [...rules.keys()].sort();
  const sarif = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "toolscope",
            version: tool.version,
            rules: ruleIds.map((id) => {
              const f = rules.get(id)!;
              return {
                id,
                name: id,
                shortDescription: { text: id },
                fullDescription: { text: f.why },
                help: { text: f.fix },
                defaultConfiguration: { level: SARIF_LEVEL[f.severity] },
              };
            }),
          },
        },
        results: lint.findings.map((f, i) => {
          const place = places[i];
          return {
            ruleId: f.id,
            ruleIndex: ruleIds.indexOf(f.id),
            level: SARIF_LEVEL[f.severity],
            message: { text: `${f.toolName ? `${f.toolName}: ` : ""}${f.message} Fix: ${f.fix}` },
            ...(file
              ? {
                  locations: [
                    {
                      physicalLocation: {
                        artifactLocation: { uri: file },
                        ...(place ? { region: { startLine: place.line, startColumn: place.column } } : {}),
                      },
                      ...(f.toolName ? { logicalLocations: [{ name: f.toolName, kind: "function" }] } : {}),
                    },
                  ],
                }
              : {}),
          };
        }),
      },
    ],
  };
  return `${JSON.stringify(sarif, null, 2)}\n`;
}
