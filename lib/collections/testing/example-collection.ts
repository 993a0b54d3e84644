/**
 * Tests only: the example collection of docs/collections.md against the built-in demo — create an issue, read it back
 * by the id captured from the first answer, assign it to a team, read it again — as a value the tests can change.
 */
import type { Collection } from "../format.ts";

export function exampleCollection(): Collection {
  return {
    format: "toolscope.collection/1",
    name: "Issue lifecycle",
    environment: { variables: { team: "platform" } },
    calls: [
      {
        name: "create an issue",
        request: {
          jsonrpc: "2.0",
          method: "tools/call",
          params: { name: "create_issue", arguments: { title: "Export fails for large projects", labels: ["bug"] } },
        },
        expect: [
          { kind: "no-error" },
          { kind: "is-error", value: false },
          { kind: "present", pointer: "/result/content/0/text/id" },
          { kind: "equals", pointer: "/result/content/0/text/status", value: "open" },
          { kind: "latency", maxMs: 5000 },
        ],
        capture: { id: "/result/content/0/text/id" },
      },
      {
        name: "read it back",
        request: { jsonrpc: "2.0", method: "tools/call", params: { name: "get_issue", arguments: { issue_id: "{{id}}" } } },
        expect: [
          { kind: "is-error", value: false },
          { kind: "equals", pointer: "/result/content/0/text/id", value: "{{id}}" },
          { kind: "equals", pointer: "/result/content/0/text/title", value: "Export fails for large projects" },
          { kind: "text-contains", text: '"labels"' },
        ],
      },
      {
        name: "assign it to a team",
        request: {
          jsonrpc: "2.0",
          method: "tools/call",
          params: { name: "assign_issue", arguments: { issue_id: "{{id}}", assignee: { team: "{{team}}" } } },
        },
        expect: [
          { kind: "is-error", value: false },
          { kind: "equals", pointer: "/result/content/0/text/assignee", value: { team: "{{team}}" } },
        ],
      },
      {
        name: "check the update",
        request: { jsonrpc: "2.0", method: "tools/call", params: { name: "get_issue", arguments: { issue_id: "{{id}}" } } },
        expect: [
          { kind: "equals", pointer: "/result/content/0/text/assignee/team", value: "{{team}}" },
          { kind: "matches", pointer: "/result/content/0/text/updated_at", pattern: "^\\d{4}-\\d{2}-\\d{2}T" },
          { kind: "tool-listed", tool: "assign_issue" },
        ],
      },
      {
        name: "search answers in its output schema",
        request: { jsonrpc: "2.0", method: "tools/call", params: { name: "search_issues", arguments: { query: "export", limit: 5 } } },
        expect: [
          { kind: "output-schema" },
          { kind: "schema", pointer: "/result/structuredContent/total", schema: { type: "integer", minimum: 1 } },
        ],
      },
    ],
  };
}
