// Types for scripts/overload.mjs (plain Node ESM, loaded by scripts/server.mjs, lib/server/platform/config.ts and its test).
import type { IncomingMessage, ServerResponse } from "node:http";

export interface OverloadSettings {
  /** 0: no shedding by delay. */
  loopDelayMs: number;
  minInflight: number;
  maxInflight: number;
  /** Where the adaptive cap starts when shedding by delay is on. */
  startInflight: number;
}

export const SHED_RETRY_AFTER_SECONDS: number;
export function nextLimit(limit: number, now: { inflight: number; delay: number; canCut: boolean }, s: OverloadSettings): number;
export function overloadSettings(env: Record<string, string | undefined>): OverloadSettings;
export function createOverloadGuard(
  s: OverloadSettings,
  options?: {
    now?: () => number;
    log?: (level: "warn", msg: string, fields: Record<string, number>) => void;
    /** How long the oldest request waiting in a queue of the server's own has waited, in ms (counted as delay). */
    queued?: () => number;
  },
): {
  admit(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  stats(): { inflight: number; limit: number; loopDelayMs: number; shed: number };
  stop(): void;
};
