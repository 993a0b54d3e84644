/**
 * A `create_issue`-like input schema in the shape of the demo server's assign tool (lib/demo/tools-issues.ts):
 * `assignee` is a `oneOf` over two `$defs` entries, plus the other constructs a tool form meets.
 */
export const ASSIGN_SCHEMA = {
  type: "object",
  properties: {
    title: { type: "string", minLength: 3, maxLength: 80, description: "A short summary." },
    issue_id: { type: "integer", minimum: 1, description: "The numeric issue id, e.g. 3." },
    assignee: {
      description: "Who should own the issue: exactly one of a user (by id) or a team (by name).",
      oneOf: [{ $ref: "#/$defs/UserAssignee" }, { $ref: "#/$defs/TeamAssignee" }],
    },
    labels: { type: "array", items: { type: "string" }, maxItems: 3 },
    urgent: { type: "boolean" },
    priority: { type: "integer", enum: [1, 2, 3], default: 2 },
  },
  required: ["title", "issue_id", "assignee"],
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
