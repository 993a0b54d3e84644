import { processSingleton } from "../../runtime/process-singleton.ts";

/** How many servers' last tool order is remembered (the check needs two fetches of the same server). */
export const MAX_REMEMBERED_ORDERS = 1_000;

/**
 * Compare a server's tool order with the order it gave last time, and remember this one. Clients and gateways
 * cache and diff tool lists, and models see them in order: a server that reshuffles between fetches defeats both.
 * Returns a warning when the same tools came back in a different order.
 */
export function checkToolOrder(key: string, names: string[]): string | undefined {
  const seen = processSingleton("tool-order", () => new Map<string, string[]>());
  const before = seen.get(key);
  seen.delete(key);
  if (seen.size >= MAX_REMEMBERED_ORDERS) seen.delete(seen.keys().next().value as string);
  seen.set(key, names);
  if (!before || before.length !== names.length) return undefined;
  const sameSet = [...before].sort().join("\n") === [...names].sort().join("\n");
  if (!sameSet || before.every((n, i) => n === names[i])) return undefined;
  return "The server listed the same tools in a different order than on the previous fetch: tools/list should be deterministic, so clients and caches can compare lists and models see a stable order.";
}
