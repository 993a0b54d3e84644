/** How long an era verdict is reused by default (TOOLSCOPE_ERA_CACHE_TTL_MS; 0 disables the cache). */
export const ERA_CACHE_TTL_MS = 5 * 60 * 1000;

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
  /** Upstream requests in flight to one origin (until their answer ends or turns into an event stream); more wait, within the request timeout. */
  maxConnectionsPerOrigin: number;
}
