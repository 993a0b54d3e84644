/** Core issue-tracker tools: search, read, create, close, delete, assign, stats. */
import { fromJsonSchema } from "@modelcontextprotocol/server";
import * as z from "zod";
import { ICONS } from "./icons.ts";
import {
  ISSUE_STATUSES,
  LIMITS,
  assignIssue,
  closeIssue,
  createIssue,
  deleteIssue,
  getIssue,
  issueStats,
  searchIssues,
  type Assignee,
  type Issue,
} from "./issue-store.ts";
import { lazy, storeCall, structured, text, toolError, type DemoToolContext } from "./tool-kit.ts";

/** The wire view of an issue, shared by every tool that returns issues. */
export function issueView(issue: Issue) {
  return {
    id: issue.id,
    title: issue.title,
    body: issue.body,
    status: issue.status,
    labels: issue.labels,
    assignee:
      issue.assignee === null ? null : issue.assignee.kind === "user" ? { user_id: issue.assignee.userId } : { team: issue.assignee.team },
    created_at: new Date(issue.createdAt).toISOString(),
    updated_at: new Date(issue.updatedAt).toISOString(),
  };
}

const IssueViewSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  status: z.enum(ISSUE_STATUSES as [string, ...string[]]),
  labels: z.array(z.string()),
  assignee: z.union([z.object({ user_id: z.string() }), z.object({ team: z.string() }), z.null()]),
  created_at: z.string(),
  updated_at: z.string(),
});

const ALLOWED_STATUSES = ISSUE_STATUSES.join(", ");

/** The message a model sees for a bad `status` (SDK input validation turns it into an `isError` result). */
export function invalidStatusMessage(value: unknown): string {
  return `Invalid status ${JSON.stringify(value)}. Allowed values: ${ALLOWED_STATUSES}.`;
}

const SearchInput = z.object({
  query: z
    .string()
    .max(LIMITS.maxQuery)
    .meta({ examples: ["login"] })
    .describe("Words to look for in the title, body and labels (case- and accent-insensitive). Use an empty string to list everything."),
  status: z
    .enum(ISSUE_STATUSES as [string, ...string[]], { error: (issue) => invalidStatusMessage(issue.input) })
    .optional()
    .describe(`Only return issues in this state. One of: ${ALLOWED_STATUSES}. Omit to search all states.`),
  limit: z.number().int().min(1).max(50).default(10).describe("Maximum number of issues to return (1-50)."),
});

const SearchOutput = z.object({
  issues: z.array(IssueViewSchema),
  total: z.number().int().describe("Number of matching issues before `limit` was applied."),
});

const IssueIdInput = z.object({ issue_id: z.number().int().min(1).describe("The numeric issue id, e.g. 3 (from search_issues).") });

/** Raw JSON Schema: `assignee` is a `oneOf` over two `$defs` entries, which zod would not emit this way. */
const ASSIGN_SCHEMA = {
  type: "object",
  properties: {
    issue_id: { type: "integer", minimum: 1, description: "The numeric issue id, e.g. 3." },
    assignee: {
      description: "Who should own the issue: exactly one of a user (by id) or a team (by name).",
      oneOf: [{ $ref: "#/$defs/UserAssignee" }, { $ref: "#/$defs/TeamAssignee" }],
    },
  },
  required: ["issue_id", "assignee"],
  additionalProperties: false,
  $defs: {
    UserAssignee: {
      type: "object",
      title: "User",
      properties: { user_id: { type: "string", pattern: "^u_[a-z0-9_]{1,40}$", description: "A user id such as u_ada." } },
      required: ["user_id"],
      additionalProperties: false,
    },
    TeamAssignee: {
      type: "object",
      title: "Team",
      properties: { team: { type: "string", enum: ["frontend", "platform", "support"], description: "The team name." } },
      required: ["team"],
      additionalProperties: false,
    },
  },
} as const;

type AssignArgs = { issue_id: number; assignee: { user_id: string } | { team: string } };
const assignSchema = lazy(() => fromJsonSchema<AssignArgs>(ASSIGN_SCHEMA));

/** A tool that takes no arguments at all, and says so. */
const NO_ARGS_SCHEMA = { type: "object", additionalProperties: false } as const;
const noArgsSchema = lazy(() => fromJsonSchema<Record<string, never>>(NO_ARGS_SCHEMA));

export function registerIssueTools({ server, now, track }: DemoToolContext): void {
  track(
    "search_issues",
    server.registerTool(
      "search_issues",
      {
        title: "Search issues",
        description:
          "Searches the issue tracker by free text, optionally filtered by status, newest first. Use it to find issue ids before calling get_issue, close_issue or assign_issue; do not use it to fetch one issue you already know the id of. Returns the matching issues (up to `limit`) and the total number of matches.",
        inputSchema: SearchInput,
        outputSchema: SearchOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.search],
      },
      async ({ query, status, limit }) => {
        const found = searchIssues({ query, status: status as Issue["status"] | undefined, limit });
        return structured({ issues: found.issues.map(issueView), total: found.total });
      },
    ),
  );

  track(
    "get_issue",
    server.registerTool(
      "get_issue",
      {
        title: "Get issue",
        description:
          "Fetches one issue by its numeric id, including body, labels and assignee. Use it when you already know the id; use search_issues to find ids. Returns the issue as JSON, or an error if the id does not exist.",
        inputSchema: IssueIdInput,
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.issue],
      },
      async ({ issue_id }) => {
        const issue = getIssue(issue_id);
        if (!issue) return toolError(`Issue #${issue_id} does not exist. Use search_issues to find valid ids.`);
        return text(JSON.stringify(issueView(issue), null, 2));
      },
    ),
  );

  track(
    "create_issue",
    server.registerTool(
      "create_issue",
      {
        title: "Create issue",
        description:
          "Opens a new issue with a title, an optional Markdown body and optional labels. Use it only when the user asks to file something new; search first to avoid duplicates. Returns the created issue with its new id.",
        inputSchema: z.object({
          title: z.string().min(1).max(LIMITS.maxTitle).describe('A short summary, e.g. "Export fails for large projects".'),
          body: z
            .string()
            .max(LIMITS.maxBody)
            .optional()
            .describe("Details in Markdown: steps to reproduce, expected and actual behaviour."),
          labels: z
            .array(z.string().max(LIMITS.maxLabel))
            .max(LIMITS.maxLabels)
            .optional()
            .describe("Lower-case labels such as bug, feature, docs."),
        }),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
        icons: [...ICONS.issue],
      },
      async ({ title, body, labels }) =>
        storeCall(() => text(JSON.stringify(issueView(createIssue({ title, body, labels }, now())), null, 2))),
    ),
  );

  track(
    "close_issue",
    server.registerTool(
      "close_issue",
      {
        title: "Close issue",
        description:
          "Marks an issue as closed. Closing an already closed issue changes nothing and is safe to retry. Returns the issue and whether its status changed.",
        inputSchema: IssueIdInput,
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async ({ issue_id }) =>
        storeCall(() => {
          const { issue, changed } = closeIssue(issue_id, now());
          return text(JSON.stringify({ changed, issue: issueView(issue) }, null, 2));
        }),
    ),
  );

  track(
    "delete_issue",
    server.registerTool(
      "delete_issue",
      {
        title: "Delete issue",
        description:
          "Permanently deletes an issue; this cannot be undone. Prefer close_issue unless the user explicitly wants the issue gone (spam, duplicates). Returns the deleted issue for the record.",
        inputSchema: IssueIdInput,
        annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
        icons: [...ICONS.trash],
      },
      async ({ issue_id }) => storeCall(() => text(JSON.stringify({ deleted: issueView(deleteIssue(issue_id)) }, null, 2))),
    ),
  );

  track(
    "assign_issue",
    server.registerTool(
      "assign_issue",
      {
        title: "Assign issue",
        description:
          "Sets who owns an issue: either a single user (by user id) or a whole team (by team name), replacing any previous assignee. Use a team when no specific person is known. Returns the updated issue.",
        inputSchema: assignSchema(),
        annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      },
      async ({ issue_id, assignee }) => {
        const target: Assignee = "user_id" in assignee ? { kind: "user", userId: assignee.user_id } : { kind: "team", team: assignee.team };
        return storeCall(() => text(JSON.stringify(issueView(assignIssue(issue_id, target, now())), null, 2)));
      },
    ),
  );

  track(
    "get_stats",
    server.registerTool(
      "get_stats",
      {
        title: "Issue statistics",
        description:
          "Summarises the whole tracker: issue counts by status and by label, and how many issues are unassigned. It takes no arguments. Use it for overview questions instead of paging through search_issues.",
        inputSchema: noArgsSchema(),
        annotations: { readOnlyHint: true, openWorldHint: false },
        icons: [...ICONS.chart],
      },
      async () => text(JSON.stringify(issueStats(), null, 2)),
    ),
  );
}
