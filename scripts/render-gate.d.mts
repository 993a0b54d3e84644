import type { IncomingMessage, ServerResponse } from "node:http";

export interface RenderGateSettings {
  /** TOOLSCOPE_MAX_CONCURRENT_RENDERS: pages rendered at once (0: no gate). */
  maxRenders: number;
  /** TOOLSCOPE_RENDER_SLOT_MS: how long a render counts against the gate at most. */
  slotMs: number;
  /** TOOLSCOPE_MAX_QUEUED_RENDERS: pages waiting at most. */
  maxQueued: number;
  /** TOOLSCOPE_RENDER_QUEUE_TIMEOUT_MS: how long a page waits at most. */
  queueTimeoutMs: number;
}
export const RENDER_RETRY_AFTER_SECONDS: number;
export function renderGateSettings(env: Record<string, string | undefined>): RenderGateSettings;
export function isRender(method: string | undefined, path: string): boolean;
export interface RenderGate {
  enter(req: IncomingMessage, res: ServerResponse, path: string, go: () => void): void;
  /** How long the page at the head of the queue has waited, in ms (0 with none waiting). */
  oldestWaitMs(): number;
  stats(): { renders: number; renderQueue: number; rendered: number; queued: number; refused: number; lent: number };
}
export function createRenderGate(
  s: RenderGateSettings,
  options?: { now?: () => number; log?: (level: string, msg: string, fields?: Record<string, unknown>) => void },
): RenderGate;
