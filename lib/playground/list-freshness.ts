/**
 * When the playground's tool list (templates, completion, checks) is no longer the server's: the server announced
 * `notifications/tools/list_changed` (on a call's stream, a legacy session's stream or a listen stream), or it
 * answered a `tools/call` with "unknown tool" (caching.mdx §Freshness Calculation: reason enough to fetch again).
 * One rule for every place that hears the server, so they all react the same way: fetch the list again, past the
 * proxy's cache, and say so.
 */
import type { RpcResponse, Tool } from "../mcp/contract.ts";
import { classifyResponse } from "../mcp/response-kind.ts";

export const TOOLS_LIST_CHANGED = "notifications/tools/list_changed";

/** Why the tool list we hold is stale. */
export type ListStaleReason = "list-changed" | "unknown-tool";

/** Whether a message from the server announces that its tool list changed. */
export function isToolListChanged(message: Record<string, unknown>): boolean {
  return message.method === TOOLS_LIST_CHANGED;
}

/** One answer the playground got: the method it sent and what came back. */
export interface HeardAnswer {
  method?: string;
  rpc: Pick<RpcResponse, "response" | "notifications" | "sessionNotifications">;
}

/**
 * Whether these answers (the rounds of one exchange) say the tool list changed: a list_changed among any round's
 * notifications or session notifications wins over an unknown-tool answer (it is the more specific news).
 */
export function listStaleReason(answers: readonly HeardAnswer[]): ListStaleReason | undefined {
  let reason: ListStaleReason | undefined;
  for (const { method, rpc } of answers) {
    if ([...rpc.notifications, ...(rpc.sessionNotifications ?? [])].some(isToolListChanged)) return "list-changed";
    const answer = rpc.response ? classifyResponse(rpc.response, method) : undefined;
    if (answer?.kind === "rpc-error" && answer.errorKind === "unknown-tool") reason = "unknown-tool";
  }
  return reason;
}

/** What the playground says after fetching the list again (`list`: the new list, or null when the fetch failed). */
export function refreshNotice(reason: ListStaleReason, list: readonly Tool[] | null): string {
  const why = reason === "list-changed" ? "The server announced that its tool list changed" : "The server did not know that tool";
  return list ? `${why}, so the tool list was fetched again: ${list.length} tools.` : `${why}, and fetching the tool list again failed.`;
}

/** Refreshes under way, by the refresh function: a change heard twice at once (the call's stream and the listen stream) is fetched once. */
const running = new WeakMap<() => Promise<Tool[] | null>, Promise<Tool[] | null>>();

/**
 * The rule itself: a stale list is fetched again (`refresh` goes past the proxy's cache, e.g. useConnection's
 * refreshTools) and the outcome reported. Returns the new list, or null when the fetch failed. A call while the same
 * `refresh` is already under way joins it and reports nothing (the first caller does).
 */
export function followToolList(
  reason: ListStaleReason,
  refresh: () => Promise<Tool[] | null>,
  report: (notice: string) => void,
): Promise<Tool[] | null> {
  const joined = running.get(refresh);
  if (joined) return joined;
  const run = (async () => {
    try {
      const list = await refresh().catch(() => null);
      report(refreshNotice(reason, list));
      return list;
    } finally {
      running.delete(refresh);
    }
  })();
  running.set(refresh, run);
  return run;
}
