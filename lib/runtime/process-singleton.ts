/**
 * One value per server process, whatever the bundle. Next.js loads route handlers and pages through separate
 * module graphs, each with its own copy of every module: state that must be shared (the demo's data, caches that
 * a list_changed invalidates, child processes) is kept on `globalThis` under a registered symbol instead.
 */
export function processSingleton<T>(key: string, create: () => T): T {
  const slot = Symbol.for(`toolscope.${key}`);
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  if (g[slot] === undefined) g[slot] = create();
  return g[slot] as T;
}

/** Replace a process singleton (tests reset the demo data this way). */
export function replaceProcessSingleton<T>(key: string, value: T): void {
  (globalThis as unknown as Record<symbol, T>)[Symbol.for(`toolscope.${key}`)] = value;
}
