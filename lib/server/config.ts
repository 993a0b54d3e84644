import "server-only";
import { ERA_CACHE_TTL_MS } from "./era-cache.ts";

/** Toolscope's runtime configuration, parsed once from the environment. Every limit lives here and in the README. */
export interface Config {
  /** "local": stdio allowed, private-network targets allowed. "hosted": public internet only. */
  mode: "local" | "hosted";
  /** Allow upstream targets on loopback/private networks even in hosted mode. Loud on purpose. */
  allowPrivateNetwork: boolean;
  /** Private targets reachable even in hosted mode (on-premise): CIDR ranges and host:port pairs. */
  egressAllow: string[];
  /** Servers whose tool annotations are trusted (shown as facts, not claims); builtin servers always are. */
  trustedServers: string[];
  /** Upper bound for one upstream request (connect, list page, rpc), in ms. */
  requestTimeoutMs: number;
  /** Upper bound for one `subscriptions/listen` stream through /api/rpc, in ms (once its event stream is open). */
  listenMaxMs: number;
  /** An upstream event stream on which no byte arrives for this long is cut, in ms. */
  streamIdleMs: number;
  /** Upper bound for a call whose response streams (once its event stream is open; it replaces `requestTimeoutMs` there), in ms. */
  streamMaxMs: number;
  /** Tool schemas (inputSchema, outputSchema) larger or deeper than these are never compiled or walked: the tool is excluded. */
  maxSchemaBytes: number;
  maxSchemaDepth: number;
  /** Largest request body our API accepts, in bytes. */
  maxRequestBytes: number;
  /** Largest upstream response body we read, in bytes. */
  maxResponseBytes: number;
  /** Caps when following `tools/list` cursors. */
  maxToolPages: number;
  maxTools: number;
  /** Number of user-supplied headers and their total size. */
  maxUserHeaders: number;
  maxUserHeaderBytes: number;
  /** Page size of the built-in demo server's `tools/list`. */
  demoPageSize: number;
  /** How long an anonymous `auto` connect's era verdict is reused, in ms (0: never). */
  eraCacheTtlMs: number;
  /** Directory for Toolscope's own files (the snapshots database), resolved against the working directory. */
  dataDir: string;
  /** How old a docs page's last good copy may be to stand in while its server is unreachable, in ms (0: never). */
  docsStaleMaxMs: number;
  /** Largest stored snapshot (canonical JSON of the definitions), in bytes. */
  maxSnapshotBytes: number;
  /** Local mode only: the `mcpServers` JSON file stdio servers are launched from (the only source of command lines). */
  stdioConfigPath: string;
  /** A stdio server process unused this long is stopped, in ms. */
  stdioIdleMs: number;
  /** stdio server processes running at once, at most. */
  stdioMaxProcesses: number;
}

function int(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name}=${raw} is invalid: use an integer from ${min} to ${max}.`);
  }
  return n;
}

/** A comma-separated list whose every entry must match `shape`. */
function list(name: string, shape: RegExp, what: string): string[] {
  const entries = (process.env[name] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const bad = entries.find((e) => !shape.test(e));
  if (bad) throw new Error(`${name} entry "${bad}" is invalid: use ${what}.`);
  return entries;
}

function flag(name: string): boolean {
  return ["1", "true", "yes"].includes((process.env[name] ?? "").toLowerCase());
}

function parseConfig(): Config {
  const mode = (process.env.TOOLSCOPE_MODE ?? "local").toLowerCase();
  if (mode !== "local" && mode !== "hosted") throw new Error(`TOOLSCOPE_MODE=${mode} is invalid: use "local" or "hosted".`);
  return {
    mode,
    allowPrivateNetwork: mode === "local" || flag("DANGEROUSLY_ALLOW_PRIVATE_NETWORK"),
    trustedServers: list("TOOLSCOPE_TRUSTED_SERVERS", /^https?:\/\/\S+$/, "a full server URL such as https://mcp.example.com/mcp"),
    egressAllow: list("TOOLSCOPE_EGRESS_ALLOW", /^(\S+\/\d{1,3}|\S+:\d{1,5})$/, "a CIDR range (10.1.0.0/16) or host:port (mcp.internal:8443)"),
    requestTimeoutMs: int("TOOLSCOPE_REQUEST_TIMEOUT_MS", 15_000, 100, 300_000),
    listenMaxMs: int("TOOLSCOPE_LISTEN_MAX_MS", 30 * 60 * 1000, 1_000, 24 * 60 * 60 * 1000),
    streamIdleMs: int("TOOLSCOPE_STREAM_IDLE_MS", 60_000, 100, 60 * 60 * 1000),
    streamMaxMs: int("TOOLSCOPE_STREAM_MAX_MS", 10 * 60 * 1000, 1_000, 24 * 60 * 60 * 1000),
    maxSchemaBytes: int("TOOLSCOPE_MAX_SCHEMA_BYTES", 262_144, 1_000, 50_000_000),
    maxSchemaDepth: int("TOOLSCOPE_MAX_SCHEMA_DEPTH", 64, 4, 10_000),
    maxRequestBytes: int("TOOLSCOPE_MAX_REQUEST_BYTES", 1_000_000, 1_000, 50_000_000),
    maxResponseBytes: int("TOOLSCOPE_MAX_RESPONSE_BYTES", 10_000_000, 1_000, 200_000_000),
    maxToolPages: int("TOOLSCOPE_MAX_TOOL_PAGES", 50, 1, 10_000),
    maxTools: int("TOOLSCOPE_MAX_TOOLS", 5_000, 1, 100_000),
    maxUserHeaders: int("TOOLSCOPE_MAX_USER_HEADERS", 20, 0, 200),
    maxUserHeaderBytes: int("TOOLSCOPE_MAX_USER_HEADER_BYTES", 16_384, 0, 1_000_000),
    demoPageSize: int("TOOLSCOPE_DEMO_PAGE_SIZE", 5, 1, 1_000),
    eraCacheTtlMs: int("TOOLSCOPE_ERA_CACHE_TTL_MS", ERA_CACHE_TTL_MS, 0, 24 * 60 * 60 * 1000),
    dataDir: process.env.TOOLSCOPE_DATA_DIR?.trim() || "./data",
    docsStaleMaxMs: int("TOOLSCOPE_DOCS_STALE_MAX_MS", 24 * 60 * 60 * 1000, 0, 7 * 24 * 60 * 60 * 1000),
    maxSnapshotBytes: int("TOOLSCOPE_MAX_SNAPSHOT_BYTES", 5_000_000, 1_000, 200_000_000),
    stdioConfigPath: process.env.TOOLSCOPE_STDIO_CONFIG?.trim() || "./toolscope.servers.json",
    stdioIdleMs: int("TOOLSCOPE_STDIO_IDLE_MS", 600_000, 1_000, 24 * 60 * 60 * 1000),
    stdioMaxProcesses: int("TOOLSCOPE_STDIO_MAX_PROCESSES", 8, 1, 256),
  };
}

let cached: Config | undefined;

/** The configuration, parsed on first use (not at import: `next build` imports route modules). */
export function config(): Config {
  return (cached ??= parseConfig());
}
