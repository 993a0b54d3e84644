// Types for scripts/supervise.mjs (plain Node ESM, loaded by scripts/start.mjs, scripts/server.mjs and its node:test file).
import type { ChildProcess } from "node:child_process";

export function superviseChild(
  script: string,
  options?: { args?: string[]; env?: NodeJS.ProcessEnv; killAfterMs?: number; pollMs?: number },
): ChildProcess;
export function onSupervisorGone(onGone: () => void): void;
