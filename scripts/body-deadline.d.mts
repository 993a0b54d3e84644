// Types for scripts/body-deadline.mjs (plain Node ESM, loaded by scripts/server.mjs and by its node:test file).
import type { IncomingMessage, ServerResponse } from "node:http";

export function bodyReadTimeoutMs(env: Record<string, string | undefined>): number;
export function bodyTimeoutBody(timeoutMs: number): { error: { kind: "request-timeout"; message: string; hint: string } };
export function watchBody(req: IncomingMessage, res: ServerResponse, timeoutMs: number): { wasCut(): boolean };
