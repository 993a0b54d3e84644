/**
 * The demo's skills (SEP-2640) as files, keyed by their path under the skill's folder: what an agent would load to
 * work the demo tracker well. Written for the demo's own tools and table, so what they teach can be tried at once.
 */

export const TRIAGE_FILES = {
  "SKILL.md": `---
name: triage-issues
description: Triage new issues in the demo tracker - find duplicates, label, assign to the right team and close what is not actionable.
license: CC0-1.0
metadata:
  audience: maintainers
  version: "1.2"
---

# Triage issues

Use this skill when someone asks to triage, sort or clean up the tracker's open issues.

## Steps

1. List what needs triage: \`search_issues\` with \`status: "open"\`, newest first. Issues without an assignee come first.
2. For each issue, search for duplicates with two or three words from its title. A duplicate is closed with
   \`close_issue\`, never deleted: its history stays searchable.
3. Check its labels against [LABELS.md](references/LABELS.md). The tracker has no tool to relabel an issue, so note
   missing labels in your summary instead of guessing.
4. Assign it with \`assign_issue\`: security and api issues go to the \`platform\` team, ui issues to \`web\`, the rest
   to whoever reported the area last.
5. End with a short table: issue, action taken, why.

## Rules

- Never call \`delete_issue\` while triaging; \`purge_closed_issues\` only when the user asks for it by name.
- An issue labelled \`security\` is never closed as a duplicate without saying which issue it duplicates.
`,
  "references/LABELS.md": `# Labels

| label | meaning | usual team |
| --- | --- | --- |
| bug | something that worked, or should, does not | whoever owns the area |
| feature | new behaviour someone asked for | web or platform |
| security | can expose data or access; handle first | platform |
| api | the public HTTP API | platform |
| ui | screens, layout, wording on screen | web |
| docs | documentation only | anyone |
| chore | upkeep without user-visible change | anyone |
| test, flaky | the test suite; flaky means it fails at random | platform |
`,
};

export const SQL_REPORTING_FILES = {
  "SKILL.md": `---
name: sql-reporting
description: Answer questions about the tracker with read-only SQL through execute_sql, and present the result as a small report.
allowed-tools: execute_sql render_chart
---

# SQL reporting

Use this skill for counts, breakdowns and lists the search tool cannot express ("how many bugs are still open per
label?").

1. Read [SCHEMA.md](references/SCHEMA.md) for the columns and what the SQL subset allows.
2. Write one \`SELECT\` and run it with \`execute_sql\`. Start with \`LIMIT 20\`; widen only when the user needs more.
3. A breakdown of up to eight groups reads best as a chart: pass the rows to \`render_chart\`.
4. Quote the query you ran under the result, so the user can run it again.
`,
  "references/SCHEMA.md": `# The issues table

| column | type | notes |
| --- | --- | --- |
| id | integer | stable, never reused |
| title | text | |
| status | text | open, in_progress or closed |
| labels | text | comma-separated, lowercase |
| assignee | text | a user id or a team name; empty when unassigned |
| created_at | text | ISO 8601, UTC |
| updated_at | text | ISO 8601, UTC |

The SQL subset: \`SELECT <columns | * | COUNT(*)> FROM issues [WHERE <column> = <value> [AND ...]]
[ORDER BY <column> [ASC|DESC]] [LIMIT <n>]\`. Nothing else runs: no joins, no writes.
`,
};

/** The dynamic skill's frontmatter: the entry publishes it, and every generated SKILL.md starts with exactly this. */
export const STATUS_FRONTMATTER = {
  name: "weekly-status",
  description: "Write this week's status update for the demo tracker from its current numbers, generated fresh on every read.",
};

/** The dynamic skill's SKILL.md, generated from the tracker's current state. */
export function weeklyStatusMarkdown(counts: { open: number; inProgress: number; closed: number }, generatedAt: string): string {
  return `---
name: ${STATUS_FRONTMATTER.name}
description: ${STATUS_FRONTMATTER.description}
---

# Weekly status

Generated ${generatedAt} from the tracker itself; read it again for newer numbers.

| open | in progress | closed |
| ---: | ---: | ---: |
| ${counts.open} | ${counts.inProgress} | ${counts.closed} |

Write three short paragraphs: what closed, what is in progress and who has it (\`search_issues\` with
\`status: "in_progress"\`), and what is open and unassigned. Do not list every issue; link the three most urgent.
`;
}
