import "server-only";
import { createHash } from "node:crypto";
import type { ToolsResponse, UserHeaders } from "@/lib/mcp/contract";

/** Where fetched tool lists are kept. Small on purpose, so a shared store (Redis) can replace the in-memory one. */
export interface ToolListStore {
  get(key: string): ToolsResponse | undefined;
  set(key: string, value: ToolsResponse, ttlMs: number): void;
}

/** Longest any list is kept, whatever the server says (the spec's 24 h cap). */
export const MAX_TOOL_LIST_TTL_MS = 24 * 60 * 60 * 1000;
/** Entries kept per process. */
export const MAX_TOOL_LIST_ENTRIES = 500;

class MemoryToolListStore implements ToolListStore {
  private entries = new Map<string, { value: ToolsResponse; expires: number }>();
  get(key: string) {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }
  set(key: string, value: ToolsResponse, ttlMs: number) {
    if (ttlMs <= 0) return;
    if (this.entries.size >= MAX_TOOL_LIST_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, expires: Date.now() + Math.min(ttlMs, MAX_TOOL_LIST_TTL_MS) });
  }
}

export const toolListStore: ToolListStore = new MemoryToolListStore();

/**
 * The cache key for a caller's view of a server's tools: the URL plus a hash of the caller's headers,
 * so one caller's credentials never select another's entry, and the headers themselves are never kept.
 */
export function toolListKey(url: string, headers: UserHeaders): string {
  const auth = Object.entries(headers)
    .map(([k, v]) => [k.toLowerCase(), v])
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${url}|${createHash("sha256").update(JSON.stringify(auth)).digest("base64url")}`;
}
