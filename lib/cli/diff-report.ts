/**
 * The breaking-change diff (lib/docs/diff.ts, the same classification as the web's diff page) as the command line
 * reports it: text, JSON, or Markdown fit for a pull-request comment.
 */
import type { Change, ChangeSeverity, ToolListDiff } from "../docs/diff.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";

export type DiffFailOn = "breaking" | "compatible" | "never";

/** The exit code for this diff at this threshold (informational changes never fail). */
export function diffExitCode(diff: ToolListDiff, failOn: DiffFailOn): ExitCode {
  if (failOn === "never") return EXIT.ok;
  if (diff.counts.breaking > 0) return EXIT.findings;
  return failOn === "compatible" && diff.counts.compatible > 0 ? EXIT.findings : EXIT.ok;
}

function counts(diff: ToolListDiff): string {
  const c = diff.counts;
  return `${c.breaking} breaking, ${c.compatible} compatible, ${c.info} informational`;
}

function where(c: Change): string {
  return c.path ? `${c.area} ${c.path}` : c.area;
}

/** Plain text: a line per tool and per change. */
export function diffText(diff: ToolListDiff, before: string, after: string): string {
  const lines = [`${before} → ${after}: ${diff.identical ? "no changes" : counts(diff)}`];
  for (const t of diff.removed) lines.push(`breaking   - ${t.name}: removed`);
  for (const t of diff.added) lines.push(`compatible + ${t.name}: added`);
  for (const t of diff.changed) {
    lines.push(`${t.severity.padEnd(10)} ~ ${t.name}`);
    for (const c of t.changes) lines.push(`    ${c.severity.padEnd(10)} ${where(c)}: ${c.message}`);
  }
  return `${lines.join("\n")}\n`;
}

/** JSON: the diff as lib/docs computes it, with both sides named. */
export function diffJson(diff: ToolListDiff, before: string, after: string): string {
  return `${JSON.stringify(
    {
      before,
      after,
      identical: diff.identical,
      counts: diff.counts,
      added: diff.added.map((t) => t.name),
      removed: diff.removed.map((t) => t.name),
      changed: diff.changed,
      unchanged: diff.unchanged,
    },
    null,
    2,
  )}\n`;
}

const BADGE: Record<ChangeSeverity, string> = { breaking: "🔴 breaking", compatible: "🟢 compatible", info: "⚪ info" };

/** Markdown text in a table cell: pipes escaped, line breaks flattened, HTML and mentions defused. */
export function mdCell(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/`/g, "\\`")
    .replace(/@(?=\w)/g, "@\u200b");
}

/** A name as code when it is a plain identifier (backticks cannot be escaped inside code), else as escaped text. */
function mdName(name: string): string {
  return /^[\w.\-/:@]+$/.test(name) ? `\`${name}\`` : mdCell(name);
}

/** Markdown for a pull-request comment: a headline with the counts, then a table of changes, breaking first. */
export function diffMarkdown(diff: ToolListDiff, before: string, after: string): string {
  const out = [`### MCP tools: ${diff.identical ? "no changes" : counts(diff)}`, "", `${mdName(before)} → ${mdName(after)}`, ""];
  if (diff.identical) return `${out.join("\n")}\n`;
  out.push("| | Tool | Where | Change |", "| --- | --- | --- | --- |");
  for (const t of diff.removed) out.push(`| ${BADGE.breaking} | ${mdName(t.name)} | | removed |`);
  for (const t of diff.changed)
    for (const c of t.changes) out.push(`| ${BADGE[c.severity]} | ${mdName(t.name)} | ${mdCell(where(c))} | ${mdCell(c.message)} |`);
  for (const t of diff.added) out.push(`| ${BADGE.compatible} | ${mdName(t.name)} | | added |`);
  if (diff.unchanged.length) out.push("", `${diff.unchanged.length} tool${diff.unchanged.length === 1 ? "" : "s"} unchanged.`);
  return `${out.join("\n")}\n`;
}
