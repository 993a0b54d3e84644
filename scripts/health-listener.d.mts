// Types for scripts/health-listener.mjs (plain Node ESM, loaded by scripts/server.mjs and its test).
export interface HealthListenerSettings {
  /** 0: no health listener. */
  port: number;
  stallMs: number;
}
export const SLOT: { beat: number; draining: number; loopDelayMs: number; inflight: number; limit: number };
export function healthListenerSettings(env: Record<string, string | undefined>): HealthListenerSettings;
export function startHealthListener(
  s: HealthListenerSettings,
  options?: { host?: string; stats?: () => { loopDelayMs?: number; inflight?: number; limit?: number } },
): Promise<{ port: number; draining(): void; stop(): Promise<void> }>;
