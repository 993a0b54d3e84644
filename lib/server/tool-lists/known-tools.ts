import "server-only";
import type { ConnectionDescriptor, Tool, ToolsResponse, UserHeaders } from "@/lib/mcp/contract";
import { canonicalJson } from "@/lib/json/canonical";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { headerSetHash } from "./tools-cache.ts";

/** Servers whose last listed definitions are kept (the oldest go first). */
export const MAX_KNOWN_TOOL_LISTS = 200;

/**
 * The tool definitions this process last listed for a server (per era, stdio process and header set), kept only to
 * judge calls: the outputSchema verdict and the refusal of excluded tools. Lists without `ttlMs` (every legacy server,
 * every stdio one) are never cached for serving, so without this a legacy call would get no verdict at all.
 * Never served as a list, never shared across header sets. Dropped on list_changed like every cached list.
 */
export class KnownTools {
  readonly #lists = new Map<string, { url: string; tools: Tool[]; listedAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  static key(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "stdioId">, headers: UserHeaders): string {
    return [descriptor.url, descriptor.era, descriptor.stdioId ?? "", headerSetHash(headers)].join("\n");
  }

  remember(
    descriptor: Pick<ConnectionDescriptor, "url" | "era" | "stdioId">,
    headers: UserHeaders,
    list: Pick<ToolsResponse, "tools" | "excluded">,
  ): void {
    const key = KnownTools.key(descriptor, headers);
    this.#lists.delete(key);
    this.#lists.set(key, { url: descriptor.url, tools: [...list.tools, ...list.excluded.map((e) => e.tool)], listedAt: this.now() });
    while (this.#lists.size > MAX_KNOWN_TOOL_LISTS) this.#lists.delete(this.#lists.keys().next().value as string);
  }

  /**
   * Whether `list` differs from the definitions last listed for this key (false when none were): a fetch past the
   * caches that finds another list is news of a change nobody announced to us. Order does not count (a reshuffle
   * is reported on its own, see list-order.ts).
   */
  differs(
    descriptor: Pick<ConnectionDescriptor, "url" | "era" | "stdioId">,
    headers: UserHeaders,
    list: Pick<ToolsResponse, "tools" | "excluded">,
  ): boolean {
    const known = this.#lists.get(KnownTools.key(descriptor, headers));
    return known !== undefined && fingerprint(known.tools) !== fingerprint([...list.tools, ...list.excluded.map((e) => e.tool)]);
  }

  find(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "stdioId">, headers: UserHeaders, name: string): Tool | undefined {
    return this.#lists.get(KnownTools.key(descriptor, headers))?.tools.find((t) => t.name === name);
  }

  /** Whether the definitions for this key were listed less than `floorMs` ago (then a call may use them as they are). */
  listedWithin(descriptor: Pick<ConnectionDescriptor, "url" | "era" | "stdioId">, headers: UserHeaders, floorMs: number): boolean {
    const known = this.#lists.get(KnownTools.key(descriptor, headers));
    return known !== undefined && this.now() - known.listedAt < floorMs;
  }

  invalidate(url: string): void {
    for (const [key, entry] of this.#lists) if (entry.url === url) this.#lists.delete(key);
  }
}

/** The definitions as one string, by name: equal strings mean equal lists whatever their order. */
function fingerprint(tools: readonly Tool[]): string {
  return canonicalJson([...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}

export function knownTools(): KnownTools {
  return processSingleton("known-tools", () => new KnownTools());
}
