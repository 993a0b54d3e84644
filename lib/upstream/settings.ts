/** How long an era verdict is reused by default (TOOLSCOPE_ERA_CACHE_TTL_MS; 0 disables the cache). */
export const ERA_CACHE_TTL_MS = 5 * 60 * 1000;

/**
 * The skills extension's own limits (SEP-2640): a host MUST support skills of up to 512 files and 16 MiB, so these
 * are the defaults; a lower setting refuses skills a conformant server may publish (docs/configuration.md).
 */
export const SKILL_LIMIT_DEFAULTS = {
  skillFileMaxBytes: 16 * 1024 * 1024,
  skillMaxFiles: 512,
  skillMaxBytes: 16 * 1024 * 1024,
} as const;

/**
 * The settings the MCP client core reads (connect, exchanges, egress, stdio, list walks). The web service parses them
 * from the environment with the rest of its configuration (lib/server/platform/config.ts, docs/configuration.md); a program
 * using the core without the service passes its own.
 */
export interface UpstreamSettings {
  /** "local": stdio allowed, private-network targets allowed. "hosted": public internet only. */
  mode: "local" | "hosted";
  /** Allow upstream targets on loopback/private networks even in hosted mode. Loud on purpose. */
  allowPrivateNetwork: boolean;
  /** Private targets reachable even in hosted mode (on-premise): CIDR ranges and host:port pairs. */
  egressAllow: string[];
  /** Upper bound for one upstream request (connect, list page, rpc), in ms. */
  requestTimeoutMs: number;
  /** Largest upstream response body we read, in bytes. */
  maxResponseBytes: number;
  /** Caps when following `tools/list` cursors. */
  maxToolPages: number;
  maxTools: number;
  /** How long an anonymous `auto` connect's era verdict is reused, in ms (0: never). */
  eraCacheTtlMs: number;
  /** How long an interactive legacy Streamable HTTP session's GET stream is held after connecting, in ms (0: never). */
  sessionWelcomeMs: number;
  /** Such held streams at once in the process; a connect beyond it holds none. */
  maxSessionWelcomes: number;
  /** Local mode only: the `mcpServers` JSON file stdio servers are launched from (the only source of command lines). */
  stdioConfigPath: string;
  /** A stdio server process unused this long is stopped, in ms. */
  stdioIdleMs: number;
  /** stdio server processes running at once, at most. */
  stdioMaxProcesses: number;
  /** Skills: the largest skill file read, in bytes (by its manifest before reading, by its bytes after). */
  skillFileMaxBytes: number;
  /** Skills: the most files one skill may list; a skill listing more is not read at all. */
  skillMaxFiles: number;
  /** Skills: the most bytes one skill's files may add up to, by its manifest; a larger skill is not read at all. */
  skillMaxBytes: number;
  /** Upstream requests in flight to one origin (until their answer ends or turns into an event stream); more wait, within the request timeout. */
  maxConnectionsPerOrigin: number;
}
