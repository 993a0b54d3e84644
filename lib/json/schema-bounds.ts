/**
 * Numeric bounds a schema generator writes for "any safe integer" (zod's .int() emits ±(2^53 − 1)): they say
 * nothing a reader needs, so docs and forms do not show them (issue 26: `issue_id` read "≤ 9007199254740991").
 */
export function isGeneratorBound(value: unknown): boolean {
  return value === Number.MAX_SAFE_INTEGER || value === -Number.MAX_SAFE_INTEGER;
}
