import type { Tool } from "@/lib/mcp/contract";
import { schemaLimitProblem, type SchemaLimits } from "@/lib/schema/schema-size";

/**
 * The key of the stub that stands in for a schema over TOOLSCOPE_MAX_SCHEMA_BYTES / _DEPTH; its value is the reason.
 * The oversized schema itself is dropped where the list is read, so no validator, docs page, cache or JSON answer
 * ever holds it (a 10,000-level schema even breaks JSON.stringify).
 */
export const OMITTED_SCHEMA_KEY = "x-toolscope-omitted";

const SCHEMA_KEYS = ["inputSchema", "outputSchema"] as const;

/**
 * Measure a tool's schemas. Each one over a limit is replaced by `{ "x-toolscope-omitted": "<why>" }` and `problem`
 * says why (the tool is then excluded from calling); a tool within the limits comes back as it was.
 */
export function guardToolSchemas(tool: Tool, limits: SchemaLimits): { tool: Tool; problem?: string } {
  const problems: string[] = [];
  let guarded = tool;
  for (const key of SCHEMA_KEYS) {
    if (tool[key] === undefined) continue;
    const problem = schemaLimitProblem(key, tool[key], limits);
    if (!problem) continue;
    problems.push(problem);
    guarded = { ...guarded, [key]: { [OMITTED_SCHEMA_KEY]: problem } } as Tool;
  }
  return problems.length ? { tool: guarded, problem: problems.join("; ") } : { tool };
}

/** Why this schema was left out (the stub's reason), or undefined for a real schema. */
export function omittedSchemaReason(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const reason = (schema as Record<string, unknown>)[OMITTED_SCHEMA_KEY];
  return typeof reason === "string" ? reason : undefined;
}
