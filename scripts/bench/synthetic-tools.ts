/**
 * Realistic synthetic tools for the docs benchmarks (scripts/bench-docs.ts renders them, scripts/bench/docs-page.ts
 * serves them from a real MCP server): one generator, so both measure the same page.
 */
import type { Tool } from "../../lib/mcp/contract.ts";

const AREAS = ["github", "jira", "slack", "drive", "calendar", "billing", "crm", "search", "files", "admin", "k8s", "db"];
const VERBS = ["get", "list", "create", "update", "delete", "archive", "search", "export", "sync", "tag"];

/** A realistic tool: namespaced name, title, a 3-sentence description with Markdown, nested parameters, annotations. */
export function syntheticTool(i: number): Tool {
  const area = AREAS[i % AREAS.length];
  const verb = VERBS[Math.floor(i / AREAS.length) % VERBS.length];
  const readOnly = ["get", "list", "search", "export"].includes(verb);
  return {
    name: i % 7 === 0 ? `${area}.${verb}_thing_${i}` : `${area}_${verb}_thing_${i}`,
    title: `${verb[0].toUpperCase()}${verb.slice(1)} ${area} thing ${i}`,
    description: `${verb[0].toUpperCase()}${verb.slice(1)}s one **${area}** thing by id (tool ${i}).\nUse it when the user names a ${area} thing; see [the API docs](https://example.com/${area}/${verb}). It does not return attachments or history, and it never follows links.`,
    inputSchema: {
      type: "object",
      properties: {
        thing_id: { type: "string", description: `The ${area} thing's id.`, pattern: "^[a-z0-9-]{3,40}$", examples: ["abc-123"] },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "Page size." },
        fields: { type: "array", items: { type: "string", enum: ["id", "name", "owner", "updated"] }, description: "Fields to return." },
        filter: {
          type: "object",
          description: "Optional filter.",
          properties: {
            owner: { type: "string", description: "Owner login." },
            since: { type: "string", format: "date-time", description: "Changed since." },
          },
          additionalProperties: false,
        },
      },
      required: ["thing_id"],
      additionalProperties: false,
    },
    outputSchema: {
      type: "object",
      properties: { id: { type: "string" }, name: { type: "string" }, updated: { type: "string", format: "date-time" } },
    },
    annotations: readOnly
      ? { readOnlyHint: true, openWorldHint: false }
      : verb === "delete"
        ? { destructiveHint: true }
        : i % 3 === 0
          ? {}
          : { destructiveHint: false, idempotentHint: verb === "update" },
    ...(i % 5 === 0 ? { icons: [{ src: `https://example.com/icons/${area}.png`, mimeType: "image/png", sizes: ["48x48"] }] } : {}),
  };
}

/** The first `n` synthetic tools, in server order. */
export function syntheticTools(n: number): Tool[] {
  return Array.from({ length: n }, (_, i) => syntheticTool(i));
}
