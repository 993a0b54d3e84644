import "server-only";
import { processSingleton } from "@/lib/runtime/process-singleton";
import { normaliseServerUrl } from "@/lib/upstream";

/** Servers whose invalidation count is kept (the oldest go first: a forgotten count reads 0, which only means "refetch"). */
const MAX_SERVERS = 10_000;

/**
 * How many times each server's tool list was invalidated in this process (`notifications/tools/list_changed`, here
 * or from another instance). A cache stamps what it holds with the number it saw, and a different number means
 * stale: no cache has to register with whoever hears the change (no hooks wired by import side effects).
 */
function generations(): Map<string, number> {
  return processSingleton("tool-list-generations", () => new Map<string, number>());
}

export function toolListGeneration(url: string): number {
  return generations().get(normaliseServerUrl(url)) ?? 0;
}

export function bumpToolListGeneration(url: string): void {
  const map = generations();
  const key = normaliseServerUrl(url);
  const next = (map.get(key) ?? 0) + 1;
  map.delete(key);
  map.set(key, next);
  while (map.size > MAX_SERVERS) map.delete(map.keys().next().value as string);
}
