/**
 * The request for the next page of a paginated list (MCP pagination: an opaque `nextCursor` in the result, sent
 * back as `params.cursor`), written like the editor's templates so "Next page" reads like "List tools".
 */
import { requestTemplate, type TemplateKind } from "./templates.ts";

/** The MCP methods that page with `cursor` / `nextCursor`. */
export const PAGED_METHODS = [
  "tools/list",
  "resources/list",
  "resources/templates/list",
  "prompts/list",
] as const satisfies readonly TemplateKind[];

export type PagedMethod = (typeof PAGED_METHODS)[number];

export function isPagedMethod(method: unknown): method is PagedMethod {
  return (PAGED_METHODS as readonly unknown[]).includes(method);
}

export interface NextPage {
  method: PagedMethod;
  cursor: string;
  /** The editor text: the method's template with `params.cursor` set. */
  text: string;
}

/**
 * The next page to ask for after `response` answered `method`, or undefined when there is none: not a list method,
 * an error, or no string `nextCursor` (the last page).
 */
export function nextPageRequest(method: unknown, response: unknown): NextPage | undefined {
  if (!isPagedMethod(method) || typeof response !== "object" || response === null) return undefined;
  const result = (response as { result?: unknown }).result;
  const cursor = typeof result === "object" && result !== null ? (result as { nextCursor?: unknown }).nextCursor : undefined;
  if (typeof cursor !== "string") return undefined;
  const message = JSON.parse(requestTemplate(method)) as { params?: Record<string, unknown> };
  message.params = { ...message.params, cursor };
  return { method, cursor, text: JSON.stringify(message, null, 2) };
}
