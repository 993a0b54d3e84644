/**
 * Tools that return non-text content: an image (`render_chart`), audio (`speak_summary`), a
 * `resource_link` (`export_issues`, backed by a readable resource) and an embedded resource
 * (`get_issue_report`, Markdown text plus a PNG blob).
 */
import * as z from "zod";
import { ICONS } from "./icons.ts";
import { ISSUE_STATUSES, getIssue, issueStats, listIssues, type Issue, type IssueStatus } from "./issue-store.ts";
import { barChartPng, encodePng, toneWav, type Rgb } from "./media.ts";
import { toolError, type DemoToolContext } from "./tool-kit.ts";
import { issueView } from "./tools-issues.ts";

export const EXPORT_URI = "demo://exports/issues.csv";

const STATUS_COLORS: Record<IssueStatus, Rgb> = { open: [22, 163, 74], in_progress: [217, 119, 6], closed: [107, 114, 128] };
const LABEL_COLORS: Rgb[] = [
  [37, 99, 235],
  [219, 39, 119],
  [5, 150, 105],
  [234, 88, 12],
  [124, 58, 237],
  [8, 145, 178],
];

function csvField(value: string | number | null | undefined): string {
  const s = value === null || value === undefined ? "" : String(value);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function issuesCsv(issues: Issue[]): string {
  const header = ["id", "title", "status", "labels", "assignee", "created_at"];
  const rows = issues.map((i) => {
    const v = issueView(i);
    const assignee = v.assignee === null ? null : "user_id" in v.assignee ? v.assignee.user_id : `team:${v.assignee.team}`;
    return [v.id, v.title, v.status, v.labels.join(" "), assignee, v.created_at].map(csvField).join(",");
  });
  return [header.join(","), ...rows].join("\r\n") + "\r\n";
}

function reportMarkdown(issue: Issue): string {
  const v = issueView(issue);
  const assignee =
    v.assignee === null ? "_unassigned_" : "user_id" in v.assignee ? `user \`${v.assignee.user_id}\`` : `team **${v.assignee.team}**`;
  return [
    `# #${v.id} ${v.title}`,
    "",
    `| Field | Value |`,
    `| --- | --- |`,
    `| Status | ${v.status} |`,
    `| Labels | ${v.labels.length ? v.labels.map((l) => `\`${l}\``).join(", ") : "none"} |`,
    `| Assignee | ${assignee} |`,
    `| Created | ${v.created_at} |`,
    `| Updated | ${v.updated_at} |`,
    "",
    "## Description",
    "",
    v.body || "_No description._",
    "",
  ].join("\n");
}

export function registerContentTools({ server, track }: DemoToolContext): void {
  track(
    "render_chart",
    server.registerTool(
      "render_chart",
      {
        title: "Render issue chart",
        description:
          "Draws a small PNG bar chart of issue counts, grouped by status or by label. Use it when the user wants to see the distribution; use get_stats when exact numbers are enough. Returns the image plus a one-line text legend.",
        inputSchema: z.object({
          group_by: z
            .enum(["status", "label"])
            .default("status")
            .describe("Draw one bar per status (open, in_progress, closed) or per label."),
        }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.chart],
      },
      async ({ group_by }) => {
        const stats = issueStats();
        const entries: Array<[string, number, Rgb]> =
          group_by === "status"
            ? ISSUE_STATUSES.map((s) => [s, stats.byStatus[s], STATUS_COLORS[s]])
            : Object.entries(stats.byLabel)
                .slice(0, 12)
                .map(([label, n], i) => [label, n, LABEL_COLORS[i % LABEL_COLORS.length]]);
        const png = barChartPng(entries.map(([, value, color]) => ({ value, color })));
        return {
          content: [
            { type: "image", data: png.toString("base64"), mimeType: "image/png" },
            { type: "text", text: `Issues by ${group_by}, left to right: ${entries.map(([k, n]) => `${k} ${n}`).join(", ")}.` },
          ],
        };
      },
    ),
  );

  track(
    "speak_summary",
    server.registerTool(
      "speak_summary",
      {
        title: "Audio summary",
        description:
          "Returns a short WAV clip announcing how many issues are in a given status: one rising chime, then one beep per issue (at most 12). The demo has no speech synthesiser, so a transcript is included as text. Use it only when the user asks for audio.",
        inputSchema: z.object({
          status: z
            .enum(ISSUE_STATUSES as [IssueStatus, ...IssueStatus[]])
            .default("open")
            .describe("Which issues to count."),
        }),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async ({ status }) => {
        const count = listIssues().filter((i) => i.status === status).length;
        const beeps = Math.min(count, 12);
        const tones = [
          { hz: 523, ms: 120 },
          { hz: 784, ms: 160 },
          { hz: 0, ms: 150 },
        ];
        for (let i = 0; i < beeps; i++) tones.push({ hz: 880, ms: 90 }, { hz: 0, ms: 80 });
        const wav = toneWav(tones);
        return {
          content: [
            { type: "audio", data: wav.toString("base64"), mimeType: "audio/wav" },
            {
              type: "text",
              text: `Transcript: there ${count === 1 ? "is" : "are"} ${count} ${status.replace("_", " ")} issue${count === 1 ? "" : "s"}.`,
            },
          ],
        };
      },
    ),
  );

  server.registerResource(
    "issues-export",
    EXPORT_URI,
    { title: "Issues export (CSV)", description: "Every issue of the demo tracker as CSV, generated when read.", mimeType: "text/csv" },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/csv", text: issuesCsv(listIssues()) }] }),
  );

  track(
    "export_issues",
    server.registerTool(
      "export_issues",
      {
        title: "Export issues",
        description:
          "Prepares a CSV export of every issue and returns a link to it instead of the data itself, so large exports do not flood the conversation. Read the linked resource (resources/read) to get the CSV. Use search_issues or execute_sql instead when you need to reason over a few issues.",
        inputSchema: z.object({}),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => {
        const count = listIssues().length;
        return {
          content: [
            { type: "text", text: `Export ready: ${count} issues.` },
            {
              type: "resource_link",
              uri: EXPORT_URI,
              name: "issues.csv",
              title: "Issues export (CSV)",
              mimeType: "text/csv",
              description: `${count} issues, one per row.`,
            },
          ],
        };
      },
    ),
  );

  track(
    "get_issue_report",
    server.registerTool(
      "get_issue_report",
      {
        title: "Issue report",
        description:
          "Builds a Markdown report for one issue and embeds it, together with a small PNG status badge, as resources in the result. Use it when the user wants a shareable write-up; use get_issue for the raw fields. Returns an error if the id does not exist.",
        inputSchema: z.object({ issue_id: z.number().int().min(1).describe("The numeric issue id, e.g. 3.") }),
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.issue],
      },
      async ({ issue_id }) => {
        const issue = getIssue(issue_id);
        if (!issue) return toolError(`Issue #${issue_id} does not exist. Use search_issues to find valid ids.`);
        const color = STATUS_COLORS[issue.status];
        const badge = encodePng(32, 8, () => color);
        return {
          content: [
            { type: "text", text: `Report for issue #${issue.id} (${issue.status}).` },
            {
              type: "resource",
              resource: { uri: `demo://issues/${issue.id}/report.md`, mimeType: "text/markdown", text: reportMarkdown(issue) },
            },
            {
              type: "resource",
              resource: { uri: `demo://issues/${issue.id}/badge.png`, mimeType: "image/png", blob: badge.toString("base64") },
            },
          ],
        };
      },
    ),
  );
}
