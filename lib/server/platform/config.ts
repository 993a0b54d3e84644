import "server-only";
import { logSettings, type LogFormat, type LogLevel } from "@/lib/log/format.mjs";
import { httpLimitSettings, type HttpLimitSettings } from "@/scripts/http-limits.mjs";
import { overloadSettings, type OverloadSettings } from "@/scripts/overload.mjs";
import { renderGateSettings, type RenderGateSettings } from "@/scripts/render-gate.mjs";
import { ERA_CACHE_TTL_MS, SKILL_LIMIT_DEFAULTS } from "@/lib/upstream/settings";
import type { UpstreamSettings } from "@/lib/upstream/settings";
import { DEFAULT_MAX_APP_HTML_BYTES } from "@/lib/docs/apps/app-resource";

/**
 * Toolscope's runtime configuration, parsed once from the environment. Every limit lives here (the MCP client core's
 * own in UpstreamSettings) and in docs/configuration.md.
 */
export interface Config extends UpstreamSettings {
  /** Servers whose tool annotations are trusted (shown as facts, not claims); builtin servers always are. */
  trustedServers: string[];
  /** Upper bound for one `subscriptions/listen` stream through /api/rpc, in ms (once its event stream is open). */
  listenMaxMs: number;
  /** An upstream event stream on which no byte arrives for this long is cut, in ms. */
  streamIdleMs: number;
  /** Upper bound for a call whose response streams (once its event stream is open; it replaces `requestTimeoutMs` there), in ms. */
  streamMaxMs: number;
  /** How long a server request (elicitation, sampling, roots) waits for the person in the browser, in ms. */
  serverRequestTimeoutMs: number;
  /** Server requests waiting for an answer at once: in the whole process, and on one /api/rpc stream. */
  maxPendingServerRequests: number;
  maxPendingPerStream: number;
  /** Tool schemas (inputSchema, outputSchema) larger or deeper than these are never compiled or walked: the tool is excluded. */
  maxSchemaBytes: number;
  maxSchemaDepth: number;
  /** Largest request body our API accepts, in bytes. */
  maxRequestBytes: number;
  /** Largest MCP App view (the HTML of a `ui://` resource) shown, in bytes of UTF-8. */
  maxAppHtmlBytes: number;
  /** Bytes one API request or docs page may read from upstream in all, over every page and answer (upstream-budget.ts). */
  maxCallUpstreamBytes: number;
  /** Bytes of upstream answers the process holds at once over all requests (0: an eighth of the heap limit). */
  maxInflightUpstreamBytes: number;
  /** Longest tool description and title kept; longer ones are cut, with a warning (a list is held whole). */
  maxDescriptionChars: number;
  /** One deadline for a whole tools/list walk, every page (each page still has TOOLSCOPE_REQUEST_TIMEOUT_MS at most). */
  listDeadlineMs: number;
  /** Number of user-supplied headers and their total size. */
  maxUserHeaders: number;
  maxUserHeaderBytes: number;
  /** Page size of the built-in demo server's `tools/list`. */
  demoPageSize: number;
  /**
   * How long a call may use tool definitions this process listed, whatever their `ttlMs` (0: only as `ttlMs` allows).
   * A modern tools/call needs its tool's definition (`Mcp-Param-*`); without this floor a list with no `ttlMs` would be
   * walked again before every call.
   */
  toolDefinitionFloorMs: number;
  /** Directory for Toolscope's own files (the snapshots database), resolved against the working directory. */
  dataDir: string;
  /** How old a docs page's last good copy may be to stand in while its server is unreachable, in ms (0: never). */
  docsStaleMaxMs: number;
  /** Largest stored snapshot (canonical JSON of the definitions), in bytes. */
  maxSnapshotBytes: number;
  /** The public origin (scheme, host, port) people reach Toolscope at: snapshot URLs, Open Graph, the demo's display URL. Required in hosted mode. */
  publicUrl?: string;
  /**
   * A separate origin that serves only the MCP App relay (TOOLSCOPE_SANDBOX_ORIGIN), for hosted use; without it the
   * relay is an opaque same-origin frame. Never Toolscope's own origin.
   */
  sandboxOrigin?: string;
  /** Strict-Transport-Security max-age in seconds, sent in hosted mode when the public URL is https (0: not sent). */
  hstsMaxAgeSeconds: number;
  /**
   * Toolscope's OAuth client id at authorization servers that accept Client ID Metadata Documents: an https URL
   * serving the document (default: `<public origin>/oauth/client-metadata.json` when that origin is https).
   */
  oauthClientMetadataUrl?: string;
  /** Extra `Host` names accepted in local mode (beside localhost, 127.0.0.1 and [::1]). */
  allowedHosts: string[];
  /** Reverse-proxy hops in front of Toolscope whose `X-Forwarded-*` headers are believed (0: none, the default). */
  trustProxy: number;
  /** Tool icons from other hosts are fetched by Toolscope (through the egress guard) and served from our origin: largest icon, and how long one is cached. */
  iconMaxBytes: number;
  iconCacheMs: number;
  /** Abuse limits (hosted mode, or local with TOOLSCOPE_LIMITS=on). */
  limits: LimitsConfig;
  /** Requests of each route class this instance works on at once, in every mode (admission.ts): more are answered 503. */
  maxInflight: Record<RateClass, number>;
  /** A request body must have arrived this long after its handler starts reading it, in ms: else 408. */
  bodyReadTimeoutMs: number;
  /** PostgreSQL connection string for snapshots (several instances); unset: SQLite under dataDir. */
  databaseUrl?: string;
  /** Redis URL for state shared between instances (rate limits, caches, list_changed, pending answers); unset: memory. */
  redisUrl?: string;
  /** PostgreSQL: how long opening a connection (TCP, TLS, startup) may take, and one statement, in ms. */
  databaseConnectTimeoutMs: number;
  databaseStatementTimeoutMs: number;
  /** After the snapshot store fails, Share and snapshot pages answer 503 at once for this long (ms) instead of waiting on it again. */
  snapshotStoreBackoffMs: number;
  /** Log level (TOOLSCOPE_LOG_LEVEL): lines below it are not written. */
  logLevel: LogLevel;
  /** Log format (TOOLSCOPE_LOG_FORMAT): JSON lines or readable text; default JSON in hosted mode, text locally. */
  logFormat: LogFormat;
  /** On SIGTERM/SIGINT: how long in-flight requests and open streams get to finish, in ms. */
  shutdownGraceMs: number;
  /**
   * Bounds on client connections, kept by scripts/server.mjs (scripts/http-limits.mjs, whose rule this is): header and
   * whole-request timeouts, keep-alive, requests per connection, open connections in all and per client.
   */
  httpLimits: HttpLimitSettings;
  /** Load shedding by scripts/server.mjs (scripts/overload.mjs, whose rule this is). */
  overload: OverloadSettings;
  /** Page renders a few at a time, by scripts/server.mjs (scripts/render-gate.mjs, whose rule this is). */
  renderGate: RenderGateSettings;
}

/** Per-client request rates (requests per minute), concurrency caps and snapshot quotas. */
export interface LimitsConfig {
  enabled: boolean;
  /** Requests per minute per client, by route class. */
  ratePerMinute: Record<RateClass, number>;
  /** Upstream requests in flight per client and in all. */
  maxConcurrentPerClient: number;
  maxConcurrentTotal: number;
  /** Open event streams (streamed calls, listen) per client and in all. */
  maxStreamsPerClient: number;
  maxStreamsTotal: number;
  /** Snapshots a client may store per day. */
  snapshotsPerClientPerDay: number;
  /** Total size of the snapshot store, in bytes: past it, new snapshots are refused until retention frees space. */
  snapshotStoreMaxBytes: number;
  /** Snapshots not opened for this many days are removed (0: kept forever). */
  snapshotRetentionDays: number;
  /** Bytes of snapshots one client (address, IPv6 /64) may hold in the store: its share, so one client cannot fill it for all. */
  snapshotClientMaxBytes: number;
  /** A snapshot is removed this many days after it was taken, however often it is opened (0: no cap). */
  snapshotMaxAgeDays: number;
}

/** The route classes that have a request rate of their own. */
export const RATE_CLASSES = ["connect", "tools", "rpc", "docs", "snapshots", "icons", "oauth", "control"] as const;
export type RateClass = (typeof RATE_CLASSES)[number];

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
  const entries = (process.env[name] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.find((e) => !shape.test(e));
  if (bad) throw new Error(`${name} entry "${bad}" is invalid: use ${what}.`);
  return entries;
}

function flag(name: string): boolean {
  return ["1", "true", "yes"].includes((process.env[name] ?? "").toLowerCase());
}

/** The URL in setting `name`, or undefined when unset; `problem` says what to write instead (never echoing a secret). */
function urlSetting(name: string, problem: string): URL | undefined {
  const raw = process.env[name]?.trim();
  if (!raw) return undefined;
  try {
    return new URL(raw);
  } catch {
    throw new Error(`${name} is invalid: ${problem}`);
  }
}

/** An absolute http(s) origin (no path, query or credentials), or undefined when unset. */
function origin(name: string): string | undefined {
  const u = urlSetting(name, "use an absolute URL such as https://toolscope.example.com.");
  if (!u) return undefined;
  const raw = process.env[name]!.trim();
  if (
    (u.protocol !== "http:" && u.protocol !== "https:") ||
    u.username ||
    u.password ||
    (u.pathname !== "/" && u.pathname !== "") ||
    u.search ||
    u.hash
  ) {
    throw new Error(`${name}=${raw} is invalid: use only a scheme, host and optional port, such as https://toolscope.example.com.`);
  }
  return u.origin;
}

/** A connection URL with one of the given schemes, or undefined when unset. The value is never echoed (it may hold a password). */
function connectionUrl(name: string, schemes: string[]): string | undefined {
  const u = urlSetting(name, `use ${schemes[0]}//user:password@host:port/…`);
  if (!u) return undefined;
  if (!schemes.includes(u.protocol)) throw new Error(`${name} must start with ${schemes.map((s) => `${s}//`).join(" or ")}.`);
  return process.env[name]!.trim();
}

/** The log settings, validated by the one rule the HTTP server uses too (lib/log/format.mjs). */
function logConfig(): { logLevel: LogLevel; logFormat: LogFormat } {
  const { level, format } = logSettings(process.env);
  return { logLevel: level, logFormat: format };
}

// oauth: a sign-in is a handful of steps, each a few requests to the authorization server. control: answers and
// cancels the browser sends during its own streamed calls, one per server request or Stop: cheap, so generous.
const RATE_DEFAULTS: Record<RateClass, number> = {
  connect: 30,
  tools: 60,
  rpc: 120,
  docs: 30,
  snapshots: 10,
  icons: 120,
  oauth: 30,
  control: 600,
};

/** Requests of each route class one instance works on at once (admission.ts); past it, 503 with Retry-After. */
const INFLIGHT_DEFAULTS: Record<RateClass, number> = {
  connect: 64,
  tools: 32,
  rpc: 256,
  docs: 32,
  snapshots: 16,
  icons: 64,
  oauth: 32,
  control: 256,
};

function parseLimits(mode: "local" | "hosted"): LimitsConfig {
  const switchRaw = (process.env.TOOLSCOPE_LIMITS ?? "").toLowerCase();
  if (!["", "on", "off"].includes(switchRaw))
    throw new Error(`TOOLSCOPE_LIMITS=${switchRaw} is invalid: use "on" or "off" (default: on in hosted mode).`);
  const ratePerMinute = Object.fromEntries(
    RATE_CLASSES.map((c) => [c, int(`TOOLSCOPE_RATE_${c.toUpperCase()}_PER_MIN`, RATE_DEFAULTS[c], 1, 100_000)]),
  ) as Record<RateClass, number>;
  const storeMaxBytes = int("TOOLSCOPE_SNAPSHOT_STORE_MAX_BYTES", 1_000_000_000, 1_000_000, Number.MAX_SAFE_INTEGER);
  return {
    enabled: switchRaw === "" ? mode === "hosted" : switchRaw === "on",
    ratePerMinute,
    maxConcurrentPerClient: int("TOOLSCOPE_MAX_CONCURRENT_PER_CLIENT", 8, 1, 10_000),
    maxConcurrentTotal: int("TOOLSCOPE_MAX_CONCURRENT_TOTAL", 256, 1, 100_000),
    maxStreamsPerClient: int("TOOLSCOPE_MAX_STREAMS_PER_CLIENT", 4, 1, 10_000),
    maxStreamsTotal: int("TOOLSCOPE_MAX_STREAMS_TOTAL", 200, 1, 100_000),
    snapshotsPerClientPerDay: int("TOOLSCOPE_SNAPSHOTS_PER_CLIENT_PER_DAY", 50, 1, 1_000_000),
    snapshotStoreMaxBytes: storeMaxBytes,
    snapshotRetentionDays: int("TOOLSCOPE_SNAPSHOT_RETENTION_DAYS", 180, 0, 36_500),
    // Default 2% of the store: fifty clients (addresses or /64s) are needed to fill it, not four.
    snapshotClientMaxBytes: int("TOOLSCOPE_SNAPSHOT_CLIENT_MAX_BYTES", Math.floor(storeMaxBytes / 50), 1_000, Number.MAX_SAFE_INTEGER),
    snapshotMaxAgeDays: int("TOOLSCOPE_SNAPSHOT_MAX_AGE_DAYS", 365, 0, 36_500),
  };
}

function parseConfig(): Config {
  const mode = (process.env.TOOLSCOPE_MODE ?? "local").toLowerCase();
  if (mode !== "local" && mode !== "hosted") throw new Error(`TOOLSCOPE_MODE=${mode} is invalid: use "local" or "hosted".`);
  const publicUrl = origin("TOOLSCOPE_PUBLIC_URL");
  if (mode === "hosted" && !publicUrl) {
    throw new Error(
      "TOOLSCOPE_PUBLIC_URL is required in hosted mode: set it to the origin people reach Toolscope at, such as https://toolscope.example.com.",
    );
  }
  const sandboxOrigin = origin("TOOLSCOPE_SANDBOX_ORIGIN");
  if (sandboxOrigin && !publicUrl)
    throw new Error(
      "TOOLSCOPE_SANDBOX_ORIGIN needs TOOLSCOPE_PUBLIC_URL: the relay on the sandbox origin lets only Toolscope's own origin frame it, so that origin must be known.",
    );
  if (sandboxOrigin && sandboxOrigin === publicUrl)
    throw new Error(
      `TOOLSCOPE_SANDBOX_ORIGIN=${sandboxOrigin} is Toolscope's own origin (TOOLSCOPE_PUBLIC_URL): MCP App views must never run there. Use a host that serves only the relay, such as https://sandbox.toolscope-apps.example, or leave it unset for an opaque same-origin relay.`,
    );
  return {
    publicUrl,
    ...(sandboxOrigin ? { sandboxOrigin } : {}),
    hstsMaxAgeSeconds: int("TOOLSCOPE_HSTS_MAX_AGE", 31_536_000, 0, 63_072_000),
    oauthClientMetadataUrl: clientMetadataUrl(),
    allowedHosts: list(
      "TOOLSCOPE_ALLOWED_HOSTS",
      /^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/,
      "a host name without port or scheme, such as devbox.lan",
    ).map((h) => h.toLowerCase()),
    trustProxy: int("TOOLSCOPE_TRUST_PROXY", 0, 0, 10),
    databaseUrl: connectionUrl("DATABASE_URL", ["postgres:", "postgresql:"]),
    redisUrl: connectionUrl("REDIS_URL", ["redis:", "rediss:"]),
    databaseConnectTimeoutMs: int("TOOLSCOPE_DATABASE_CONNECT_TIMEOUT_MS", 2_000, 100, 60_000),
    databaseStatementTimeoutMs: int("TOOLSCOPE_DATABASE_STATEMENT_TIMEOUT_MS", 5_000, 100, 300_000),
    snapshotStoreBackoffMs: int("TOOLSCOPE_SNAPSHOT_STORE_BACKOFF_MS", 5_000, 0, 600_000),
    ...logConfig(),
    shutdownGraceMs: int("TOOLSCOPE_SHUTDOWN_GRACE_MS", 10_000, 0, 10 * 60 * 1000),
    httpLimits: httpLimitSettings(process.env),
    overload: overloadSettings(process.env),
    renderGate: renderGateSettings(process.env),
    maxConnectionsPerOrigin: int("TOOLSCOPE_MAX_CONNECTIONS_PER_ORIGIN", 64, 1, 1024),
    iconMaxBytes: int("TOOLSCOPE_ICON_MAX_BYTES", 262_144, 1_000, 10_000_000),
    iconCacheMs: int("TOOLSCOPE_ICON_CACHE_MS", 60 * 60 * 1000, 0, 7 * 24 * 60 * 60 * 1000),
    limits: parseLimits(mode),
    maxInflight: Object.fromEntries(
      RATE_CLASSES.map((c) => [c, int(`TOOLSCOPE_MAX_INFLIGHT_${c.toUpperCase()}`, INFLIGHT_DEFAULTS[c], 1, 100_000)]),
    ) as Record<RateClass, number>,
    bodyReadTimeoutMs: int("TOOLSCOPE_BODY_READ_TIMEOUT_MS", 10_000, 100, 300_000),
    mode,
    allowPrivateNetwork: mode === "local" || flag("DANGEROUSLY_ALLOW_PRIVATE_NETWORK"),
    trustedServers: list("TOOLSCOPE_TRUSTED_SERVERS", /^https?:\/\/\S+$/, "a full server URL such as https://mcp.example.com/mcp"),
    egressAllow: list(
      "TOOLSCOPE_EGRESS_ALLOW",
      /^(\S+\/\d{1,3}|\S+:\d{1,5})$/,
      "a CIDR range (10.1.0.0/16) or host:port (mcp.internal:8443)",
    ),
    requestTimeoutMs: int("TOOLSCOPE_REQUEST_TIMEOUT_MS", 15_000, 100, 300_000),
    listenMaxMs: int("TOOLSCOPE_LISTEN_MAX_MS", 30 * 60 * 1000, 1_000, 24 * 60 * 60 * 1000),
    streamIdleMs: int("TOOLSCOPE_STREAM_IDLE_MS", 60_000, 100, 60 * 60 * 1000),
    serverRequestTimeoutMs: int("TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS", 300_000, 1_000, 60 * 60 * 1000),
    maxPendingServerRequests: int("TOOLSCOPE_MAX_PENDING_SERVER_REQUESTS", 1_000, 1, 100_000),
    maxPendingPerStream: int("TOOLSCOPE_MAX_PENDING_PER_STREAM", 16, 1, 1_000),
    streamMaxMs: int("TOOLSCOPE_STREAM_MAX_MS", 10 * 60 * 1000, 1_000, 24 * 60 * 60 * 1000),
    maxSchemaBytes: int("TOOLSCOPE_MAX_SCHEMA_BYTES", 262_144, 1_000, 50_000_000),
    maxSchemaDepth: int("TOOLSCOPE_MAX_SCHEMA_DEPTH", 64, 4, 10_000),
    maxRequestBytes: int("TOOLSCOPE_MAX_REQUEST_BYTES", 1_000_000, 1_000, 50_000_000),
    maxAppHtmlBytes: int("TOOLSCOPE_MAX_APP_HTML_BYTES", DEFAULT_MAX_APP_HTML_BYTES, 1_000, 100_000_000),
    maxResponseBytes: int("TOOLSCOPE_MAX_RESPONSE_BYTES", 10_000_000, 1_000, 200_000_000),
    maxCallUpstreamBytes: int("TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES", 32_000_000, 1_000, 2_000_000_000),
    maxInflightUpstreamBytes: int("TOOLSCOPE_MAX_INFLIGHT_UPSTREAM_BYTES", 0, 0, Number.MAX_SAFE_INTEGER),
    maxDescriptionChars: int("TOOLSCOPE_MAX_DESCRIPTION_CHARS", 16_384, 100, 10_000_000),
    listDeadlineMs: int("TOOLSCOPE_LIST_DEADLINE_MS", 20_000, 100, 10 * 60 * 1000),
    maxToolPages: int("TOOLSCOPE_MAX_TOOL_PAGES", 50, 1, 10_000),
    maxTools: int("TOOLSCOPE_MAX_TOOLS", 5_000, 1, 100_000),
    skillFileMaxBytes: int("TOOLSCOPE_SKILL_FILE_MAX_BYTES", SKILL_LIMIT_DEFAULTS.skillFileMaxBytes, 1_000, 200_000_000),
    skillMaxFiles: int("TOOLSCOPE_SKILL_MAX_FILES", SKILL_LIMIT_DEFAULTS.skillMaxFiles, 1, 100_000),
    skillMaxBytes: int("TOOLSCOPE_SKILL_MAX_BYTES", SKILL_LIMIT_DEFAULTS.skillMaxBytes, 1_000, 2_000_000_000),
    maxUserHeaders: int("TOOLSCOPE_MAX_USER_HEADERS", 20, 0, 200),
    maxUserHeaderBytes: int("TOOLSCOPE_MAX_USER_HEADER_BYTES", 16_384, 0, 1_000_000),
    demoPageSize: int("TOOLSCOPE_DEMO_PAGE_SIZE", 5, 1, 1_000),
    eraCacheTtlMs: int("TOOLSCOPE_ERA_CACHE_TTL_MS", ERA_CACHE_TTL_MS, 0, 24 * 60 * 60 * 1000),
    toolDefinitionFloorMs: int("TOOLSCOPE_TOOL_DEFINITION_FLOOR_MS", 5_000, 0, 60_000),
    sessionWelcomeMs: int("TOOLSCOPE_SESSION_WELCOME_MS", 2_000, 0, 60_000),
    maxSessionWelcomes: int("TOOLSCOPE_MAX_SESSION_WELCOMES", 64, 0, 10_000),
    dataDir: process.env.TOOLSCOPE_DATA_DIR?.trim() || "./data",
    docsStaleMaxMs: int("TOOLSCOPE_DOCS_STALE_MAX_MS", 24 * 60 * 60 * 1000, 0, 7 * 24 * 60 * 60 * 1000),
    maxSnapshotBytes: int("TOOLSCOPE_MAX_SNAPSHOT_BYTES", 5_000_000, 1_000, 200_000_000),
    stdioConfigPath: process.env.TOOLSCOPE_STDIO_CONFIG?.trim() || "./toolscope.servers.json",
    stdioIdleMs: int("TOOLSCOPE_STDIO_IDLE_MS", 600_000, 1_000, 24 * 60 * 60 * 1000),
    stdioMaxProcesses: int("TOOLSCOPE_STDIO_MAX_PROCESSES", 8, 1, 256),
  };
}

/** TOOLSCOPE_OAUTH_CLIENT_METADATA_URL: an https URL with a path (a CIMD client_id must be one). */
function clientMetadataUrl(): string | undefined {
  const raw = process.env.TOOLSCOPE_OAUTH_CLIENT_METADATA_URL?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== "https:" || url.pathname === "/" || url.hash)
    throw new Error(
      `TOOLSCOPE_OAUTH_CLIENT_METADATA_URL must be an https URL with a path, such as https://toolscope.example.com/oauth/client-metadata.json (got "${raw.slice(0, 200)}").`,
    );
  return url.toString();
}

let cached: Config | undefined;

/** The configuration, parsed on first use (not at import: `next build` imports route modules). */
export function config(): Config {
  return (cached ??= parseConfig());
}
