import "server-only";
import type { ProxyErrorKind } from "@/lib/mcp/contract";

/** Why a docs page shows an older copy: the fetch that failed, and when the copy was fetched. */
export interface StaleInfo {
  /** ISO time the copy being shown was fetched. */
  fetchedAt: string;
  error: { kind: ProxyErrorKind; message: string };
}

/** Copies kept per process (one per server URL). */
export const MAX_LAST_GOOD_DOCS = 200;

/**
 * A failure that says the server is down or overloaded right now, not that the request or the server is wrong:
 * only then may an older copy stand in (caching.mdx §Freshness Calculation allows serving stale data when a
 * re-fetch fails). A bad URL, a blocked target, a 4xx or a non-MCP answer is shown as the error it is.
 */
export function isOutage(kind: ProxyErrorKind, upstreamStatus?: number): boolean {
  if (kind === "upstream-unreachable" || kind === "upstream-timeout" || kind === "upstream-rate-limited") return true;
  return kind === "upstream-protocol" && upstreamStatus !== undefined && (upstreamStatus >= 500 || upstreamStatus === 429);
}

/**
 * The last docs snapshot of each server that loaded, to show (marked stale) while the server is unreachable.
 * Docs snapshots are fetched without credentials, so a copy is what any visitor would have seen anyway.
 * Bounded by count and by age (`maxAgeMs`, TOOLSCOPE_DOCS_STALE_MAX_MS; 0 turns it off); forgotten on list_changed.
 */
export class LastGoodDocs<T> {
  private readonly copies = new Map<string, { value: T; at: number }>();

  constructor(
    private readonly maxAgeMs: () => number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = MAX_LAST_GOOD_DOCS,
  ) {}

  remember(url: string, value: T): void {
    if (this.maxAgeMs() <= 0) return;
    this.copies.delete(url);
    if (this.copies.size >= this.maxEntries) this.copies.delete(this.copies.keys().next().value as string);
    this.copies.set(url, { value, at: this.now() });
  }

  /** The copy to show instead of `error`, when the error is an outage and the copy is young enough. */
  recall(
    url: string,
    error: { kind: ProxyErrorKind; message: string; upstreamStatus?: number },
  ): { value: T; stale: StaleInfo } | undefined {
    if (!isOutage(error.kind, error.upstreamStatus)) return undefined;
    const copy = this.copies.get(url);
    if (!copy) return undefined;
    if (this.now() - copy.at > this.maxAgeMs()) {
      this.copies.delete(url);
      return undefined;
    }
    return {
      value: copy.value,
      stale: { fetchedAt: new Date(copy.at).toISOString(), error: { kind: error.kind, message: error.message } },
    };
  }

  /** Drop every copy whose URL matches (a server can be spelled several ways). */
  forget(matches: (url: string) => boolean): void {
    for (const url of [...this.copies.keys()]) if (matches(url)) this.copies.delete(url);
  }
}
