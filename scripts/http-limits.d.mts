// Types for scripts/http-limits.mjs (plain Node ESM, loaded by scripts/server.mjs, lib/server/platform/config.ts and its node:test file).
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http";

export interface HttpLimitSettings {
  headersTimeoutMs: number;
  /** The whole request, headers and body: TOOLSCOPE_HEADERS_TIMEOUT_MS + TOOLSCOPE_BODY_READ_TIMEOUT_MS. */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxRequestsPerSocket: number;
  maxConnections: number;
  /** 0: no cap per client. */
  maxConnectionsPerClient: number;
}

export function httpLimitSettings(env: Record<string, string | undefined>): HttpLimitSettings;
export function serverOptions(s: HttpLimitSettings): ServerOptions;
export function clientKey(address: string | undefined): string;
export function applyConnectionLimits(
  server: Server,
  s: HttpLimitSettings,
  options?: {
    log?: (level: "warn", msg: string, fields: Record<string, number>) => void;
    /** Stop taking new connections (default: the server's own socket); with listeners.mjs, every socket. */
    stopListening?: () => void;
  },
): {
  admit(req: IncomingMessage, res: ServerResponse, options?: { always?: boolean }): boolean;
  drain(graceMs: number): Promise<number>;
  stats(): { connections: number; active: number };
};
