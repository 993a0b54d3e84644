// Types for scripts/listeners.mjs (plain Node ESM, loaded by scripts/server.mjs and its test).
import type { Server } from "node:http";

export function reusePortSupported(version?: string): boolean;
export function listenerCount(env: Record<string, string | undefined>, version?: string): number;
export function listenAll(server: Server, options: { port: number; host: string; count: number }): Promise<{ port: number; close(): void }>;
