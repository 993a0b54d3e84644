import type { OutputValidation, Tool } from "@/lib/mcp/contract";
import { classifyResponse } from "@/lib/mcp/response-kind";
import { validateAgainst } from "@/lib/schema/validate";
import { omittedSchemaReason } from "./schema-guard.ts";

/**
 * Check a successful tools/call result against the tool's outputSchema. Returns undefined when there is
 * nothing to check: no outputSchema, an error, a tool error (isError results carry no contract), or input_required.
 * An outputSchema over the schema limits is never compiled: the verdict is `skipped` with the reason.
 */
export function checkOutput(tool: Tool, response: Record<string, unknown> | null): OutputValidation | undefined {
  if (!tool.outputSchema || !response) return undefined;
  const kind = classifyResponse(response, "tools/call");
  if (kind.kind !== "result") return undefined;
  const result = response.result as { structuredContent?: unknown };
  if (result.structuredContent === undefined) {
    return { ok: false, mismatches: [], problem: "The tool declares an outputSchema but the result has no structuredContent." };
  }
  const omitted = omittedSchemaReason(tool.outputSchema);
  if (omitted) return { ok: false, mismatches: [], skipped: `structuredContent was not checked: ${omitted}.` };
  const verdict = validateAgainst(tool.outputSchema, result.structuredContent);
  return {
    ok: verdict.ok,
    mismatches: verdict.diagnostics.map((d) => ({ pointer: d.pointer, message: d.message })),
    ...(verdict.schemaError ? { problem: verdict.schemaError } : {}),
  };
}
