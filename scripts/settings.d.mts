// Types for scripts/settings.mjs.
export function int(env: Record<string, string | undefined>, spec: readonly [string, number, number, number]): number;
