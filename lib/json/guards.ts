/**
 * Type guards for parsed JSON. Leaf module: imports nothing, runs in the browser, route handlers and tests alike.
 */

/** A plain JSON object: not null, not an array (`typeof` says "object" for both). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
