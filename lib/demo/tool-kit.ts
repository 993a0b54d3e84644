/** Shared plumbing for the demo's tool groups: the per-server context and result helpers. */
import type { CallToolResult, McpServer, RegisteredTool } from "@modelcontextprotocol/server";
import { NotFoundError, StoreLimitError } from "./issue-store.ts";

export interface DemoToolContext {
  /** The server instance the group registers on. */
  server: McpServer;
  /** Which protocol era this instance serves (drives the legacy elicitation fallback). */
  era: "modern" | "legacy";
  /** Clock for anything that expires (baskets); injectable for tests. */
  now: () => number;
  /** Registration hook: every tool goes through it so `tools/list` can page them in a fixed order. */
  track: (name: string, tool: RegisteredTool) => void;
}

export function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

/** A tool execution error: the model sees the message and can correct itself (SEP-1303). */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Structured output plus the same JSON as text, for clients that only read `content`. */
export function structured<T extends Record<string, unknown>>(value: T): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** Maps the store's expected failures to tool errors; anything else is a real bug and propagates. */
export function storeCall(fn: () => CallToolResult): CallToolResult {
  try {
    return fn();
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof StoreLimitError || error instanceof RangeError) return toolError(error.message);
    throw error;
  }
}

/**
 * Memoises a value built on first use. Servers are created per request, so schema objects that
 * compile a validator (`fromJsonSchema`) are built once per process, and not at import time.
 */
export function lazy<T>(make: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: make() }).v;
}
