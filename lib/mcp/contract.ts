/**
 * The proxy contract: the one set of types shared by our API routes and the browser.
 * Route handlers validate incoming bodies against these shapes (see ./contract-guards.ts);
 * the browser's typed fetch returns them.
 */
import type { OAuthChallenge, OAuthFailureDetail } from "./oauth-contract.ts";
import type { HttpExchange, SseEvent } from "./http-exchange.ts";

export type { HttpExchange, SseEvent };

/** A protocol era: modern = 2026-07-28 (stateless, server/discover); legacy = 2025-11-25 and earlier (initialize). */
export type Era = "modern" | "legacy";
/**
 * What the user asks for when connecting. `legacy-sse` goes straight to the deprecated HTTP+SSE transport
 * (2024-11-05: GET an event stream, POST to the endpoint it names); `auto` and `legacy` fall back to it on their own.
 */
export type EraChoice = "auto" | Era | "legacy-sse";

export const ERA_CHOICES: readonly EraChoice[] = ["auto", "modern", "legacy", "legacy-sse"];

/** A server identity as MCP reports it (`serverInfo`). */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** A tool definition as it arrives from `tools/list`. Untrusted: every field may be missing or odd. */
export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export type CacheScope = "public" | "private";

/**
 * What the browser keeps after connecting and sends back with every call, so any proxy
 * instance can serve any request. Holds no secrets: user headers travel separately.
 */
export interface ConnectionDescriptor {
  v: 1;
  /** The upstream URL, or `builtin:<id>` for a server from our registry (the demo). */
  url: string;
  era: Era;
  protocolVersion: string;
  /** Legacy only: the `Mcp-Session-Id` minted by the server at initialize. */
  sessionId?: string;
  /** Modern only: the discover result, replayed as the SDK's prior discovery (zero round trips). */
  discover?: Record<string, unknown>;
  /** stdio only (`url` is `stdio:<name>`): the id of the server process Toolscope launched for this connection. */
  stdioId?: string;
  /**
   * Legacy only: `"sse"` when the server speaks the deprecated HTTP+SSE transport (2024-11-05) instead of Streamable
   * HTTP (absent). The proxy holds no stream between calls, so each call on such a descriptor runs its own short
   * session: GET the event stream, wait for its `endpoint` event, initialize, send, read the answer, close.
   */
  transport?: "sse";
  /**
   * A person answers the server's requests (ConnectRequest.interactive): a legacy call also listens on the session's
   * GET stream. The client capabilities are declared on every connection (CLIENT_CAPABILITIES in lib/mcp/meta.ts).
   */
  interactive?: true;
  /**
   * `false` when the connection does not declare the MCP Apps extension (ConnectRequest.apps): a legacy server was
   * told so at initialize, and every modern request says so in its `_meta`. Absent: declared.
   */
  apps?: false;
}

/** Extra HTTP headers the user wants on upstream requests (e.g. Authorization). Never stored or logged. */
export type UserHeaders = Record<string, string>;

export interface ConnectRequest {
  url: string;
  era?: EraChoice;
  headers?: UserHeaders;
  /**
   * A person answers the server's requests (the playground, which streams every call): a legacy call also listens on
   * the session's GET stream. Every connection declares elicitation, sampling and roots; where no person is there
   * (docs pages, scripts, a call that is not streamed) the proxy answers them at once (unattendedAsker).
   */
  interactive?: boolean;
  /**
   * The roots this browser set, for a `roots/list` a legacy Streamable HTTP server asks right after connecting, on
   * the session's GET stream (lib/upstream/transports/session-welcome.ts). Not kept after that.
   */
  roots?: RootEntry[];
  /**
   * Declare the MCP Apps extension (`io.modelcontextprotocol/ui`). Default true; false shows what a server answers a
   * host without apps (the playground's switch). Kept in the descriptor for every call of the connection.
   */
  apps?: boolean;
}

/** A root as `roots/list` gives it (spec: client/roots). */
export interface RootEntry {
  uri: string;
  name?: string;
}

export interface ServerSummary {
  serverInfo?: Implementation;
  era: Era;
  protocolVersion: string;
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** A human label for the URL, e.g. the public URL of a builtin server. */
  displayUrl: string;
  /** `"sse"`: reached over the deprecated HTTP+SSE transport (as ConnectionDescriptor.transport), so the docs can say so. */
  transport?: "sse";
}

export interface ConnectResponse {
  server: ServerSummary;
  connection: ConnectionDescriptor;
  /** stdio only: lines the server process wrote to stderr since the last response (bounded). */
  stderr?: string[];
}

export interface ToolsRequest {
  connection: ConnectionDescriptor;
  headers?: UserHeaders;
  /** Skip the tool-list cache and fetch from the server (default false: a fresh cached list is served). */
  fresh?: boolean;
}

/** A tool the client rules exclude from calling (e.g. invalid `x-mcp-header`), kept for the docs. */
export interface ExcludedTool {
  tool: Tool;
  reason: string;
}

export interface ToolsResponse {
  tools: Tool[];
  excluded: ExcludedTool[];
  ttlMs?: number;
  cacheScope?: CacheScope;
  /** ISO timestamp of the fetch. */
  fetchedAt: string;
  pages: number;
  /** Non-fatal problems: page cap reached, cursor did not advance, duplicate names. */
  warnings: string[];
  /** Whether this list came from the proxy's cache, and the cached entry's lifetime (absent when not kept). */
  cache?: ToolListCacheInfo;
  /** A replacement descriptor (e.g. a new legacy session after the old one expired): keep it instead of the sent one. */
  connection?: ConnectionDescriptor;
  /** What the proxy did on the user's behalf (e.g. started a new legacy session). */
  notes?: string[];
}

export interface ToolListCacheInfo {
  hit: boolean;
  /** ISO timestamps of the cached entry; absent when the list was not kept (ttlMs absent or 0, too large). */
  storedAt?: string;
  expiresAt?: string;
}

export interface RpcRequest {
  connection: ConnectionDescriptor;
  /** The JSON-RPC message exactly as the user wrote it. */
  message: unknown;
  headers?: UserHeaders;
  /**
   * Experiments: `Mcp-Name` / `Mcp-Param-*` values to send instead of the ones derived from the message (e.g. to see a
   * server reject a header/body mismatch with -32020). HTTP only; names and values checked by the contract guards.
   */
  headerOverrides?: Record<string, string>;
  /**
   * `false`: answer without the HTTP exchanges (`exchanges` comes back empty), for scripts that only want the result.
   * The exchanges are still recorded for the proxy's own checks; they are just not serialised and sent. Default true.
   */
  exchanges?: boolean;
  /**
   * Declare the tasks extension (2026-07-28) on this request, so a server may answer a tools/call with a task handle.
   * Only a caller that follows a task to its end sets it (the playground); default false.
   */
  tasks?: boolean;
}

/** One thing the proxy put on the wire that the user did not write. */
export interface AddedField {
  where: "body" | "header";
  /** A JSON pointer for the body (e.g. `/params/_meta/io.modelcontextprotocol~1protocolVersion`) or a header name. */
  name: string;
  value: unknown;
  /** A header the user overrode (RpcRequest.headerOverrides): `value` is what was sent. */
  overridden?: boolean;
  /** For an overridden header: the value it would have had (absent when the request would not have carried it). */
  replaced?: string;
}

export interface RpcResponse {
  /** The JSON-RPC response to the message, or null for a notification or when none came. */
  response: Record<string, unknown> | null;
  /** Other messages that arrived for this request (progress, log messages). */
  notifications: Record<string, unknown>[];
  /** The message as actually sent. */
  sent: unknown;
  added: AddedField[];
  exchanges: HttpExchange[];
  durationMs: number;
  /** A replacement descriptor (e.g. a new legacy session after the old one expired): keep it instead of the sent one. */
  connection?: ConnectionDescriptor;
  /** What the proxy did on the user's behalf (e.g. started a new legacy session). */
  notes?: string[];
  /** For a tools/call whose tool declares an outputSchema: does `structuredContent` match it? */
  outputValidation?: OutputValidation;
  /** What a 2026-07-28 server did wrong on this request's stream (a request sent to us, logs nobody asked for, …). */
  protocolWarnings?: string[];
  /** stdio only: lines the server process wrote to stderr since the last response (bounded). */
  stderr?: string[];
  /** Requests the server sent us during this call (elicitation, sampling, roots, ping) and how each was answered. */
  serverRequests?: ServerRequestRecord[];
  /**
   * HTTP+SSE only: messages the session's stream carried that belong to no request (log messages, list changes),
   * kept apart from `notifications` so they are not mistaken for this call's.
   */
  sessionNotifications?: Record<string, unknown>[];
}

/** Who answered a server-to-client request. */
export type ServerRequestAnswerer =
  /** The person in the browser (a dialog in the playground, or a script through /api/rpc/answer). */
  | "user"
  /** The proxy itself: `ping`, or a refusal when no one can answer (a call that was not streamed, a modern server). */
  | "proxy"
  /** A collection call's prepared answer (`answers` in the file; `toolscope test`). */
  | "prepared"
  /** No answer came within TOOLSCOPE_SERVER_REQUEST_TIMEOUT_MS: the server got a JSON-RPC error. */
  | "timeout"
  /** The call ended (cancelled, or its stream closed) before the answer: the server got a JSON-RPC error. */
  | "cancelled";

/** One server-to-client request seen during a call, with the JSON-RPC answer sent back upstream. */
export interface ServerRequestRecord {
  request: Record<string, unknown>;
  /** The JSON-RPC response we sent to the server (`result` or `error`), with the server's id. */
  answer: Record<string, unknown>;
  answeredBy: ServerRequestAnswerer;
  /** Milliseconds from the start of the call to the request, and to the answer. */
  atMs: number;
  answeredAtMs: number;
}

/** POST /api/rpc/answer: the browser's answer to a server request announced on its /api/rpc stream. */
export interface RpcAnswerRequest {
  /** From the stream's first event (`{ type: "stream" }`): binds the answer to the call that raised the request. */
  streamId: string;
  /** From the `server-request` event. */
  pendingId: string;
  /** The JSON-RPC answer without `jsonrpc` and `id` (the proxy adds the server's id): `{ result }` or `{ error }`. */
  response: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };
  /** The answer is a collection call's prepared answer (the Tests panel), not the person's: recorded as such. */
  prepared?: true;
}

/** POST /api/rpc/cancel: stop the call of a stream; the stream then ends with its exchanges (nothing is lost). */
export interface RpcCancelRequest {
  streamId: string;
}

export interface RpcControlResponse {
  ok: true;
  /** `local`: this instance holds the call; `relayed`: another instance does, and the message went to it over Redis. */
  delivered: "local" | "relayed";
}

/** The verdict on a result's `structuredContent` against the tool's `outputSchema` (ajv, 2020-12). */
export interface OutputValidation {
  ok: boolean;
  /** Each mismatch: a JSON pointer into structuredContent and a message. */
  mismatches: { pointer: string; message: string }[];
  /** Set when the outputSchema itself cannot be compiled, or a result with an outputSchema has no structuredContent. */
  problem?: string;
  /** Set when the result was not checked at all, and why (an outputSchema over Toolscope's schema limits); `ok` is then false: nothing was confirmed. */
  skipped?: string;
}

export interface DisconnectRequest {
  connection: ConnectionDescriptor;
  headers?: UserHeaders;
}

export interface DisconnectResponse {
  ok: true;
  /** True when the session is gone on the server (ended now, or already expired). */
  ended: boolean;
  note: string;
  exchanges: HttpExchange[];
}

/**
 * Events of a streamed `/api/rpc` (requested with `Accept: text/event-stream`), in order: any number of
 * `upstream-event` (an SSE event as it arrived from the server) and `notification` (a JSON-RPC notification for
 * the request, e.g. progress), then exactly one `result` (the RpcResponse) or `error` (a ProxyErrorBody plus status).
 */
export type RpcStreamEvent =
  /** First event of every /api/rpc stream: the id that answers (/api/rpc/answer) and cancels (/api/rpc/cancel) name. */
  | { type: "stream"; streamId: string }
  /** The server asks the client something mid-call: answer through POST /api/rpc/answer within `timeoutMs`. */
  | { type: "server-request"; streamId: string; pendingId: string; request: Record<string, unknown>; timeoutMs: number }
  /** A server request stopped waiting: answered, timed out (the server got an error), or the call ended. */
  | { type: "server-request-ended"; pendingId: string; answeredBy: ServerRequestAnswerer; note?: string }
  | { type: "upstream-event"; event: SseEvent }
  | { type: "notification"; message: Record<string, unknown> }
  | { type: "result"; body: RpcResponse }
  | { type: "error"; status: number; body: ProxyErrorBody };

/** GET /api/stdio: the stdio servers of the local config file (never their env values or full command lines). */
export interface StdioServersResponse {
  /** False in hosted mode: stdio servers are only available when Toolscope runs locally. */
  enabled: boolean;
  servers: { name: string; /** The command's basename, e.g. `node`. */ command: string; argCount: number }[];
  /** The config file read (`TOOLSCOPE_STDIO_CONFIG`), when enabled. */
  configPath?: string;
  /** Why the list is empty or incomplete (file missing, invalid JSON or shape). */
  problem?: string;
}

/** "We couldn't ask" kinds: shown as a banner, never as the server's answer. */
export type ProxyErrorKind =
  | "bad-request"
  | "blocked-target"
  | "upstream-unreachable"
  | "upstream-timeout"
  | "upstream-protocol"
  /**
   * The server refused for now and asked to be asked later: HTTP 429, or 503 with `Retry-After`. The message says
   * when to retry; Toolscope sends nothing more to it meanwhile (no further probe, no fallback).
   */
  | "upstream-rate-limited"
  /**
   * The server wants authorization (HTTP 401, or 403 `insufficient_scope`): `auth` carries its challenge, and the
   * browser runs the OAuth flow (POST /api/oauth/authorize) and sends again with the token.
   */
  | "upstream-auth"
  /** A step of the OAuth flow failed: `oauth` says which, with every step's exchange up to it. */
  | "oauth-flow"
  /** The server's event stream ended before the answer: the request is lost, and it may or may not have run. */
  | "stream-broken"
  | "too-large"
  /** The request body to our API did not arrive within TOOLSCOPE_BODY_READ_TIMEOUT_MS: a client that stalled. */
  | "request-timeout"
  | "rate-limited"
  /** Toolscope's request guard refused the call itself (foreign Host, another site's page, not JSON). */
  | "forbidden"
  /** What the request names is not here (an answer to a server request that stopped waiting, a stream that ended). */
  | "not-found"
  /**
   * This Toolscope instance is shutting down (a restart or a deploy), or is working on as many requests of this kind
   * as it takes (admission control, TOOLSCOPE_MAX_INFLIGHT_*): send again after `Retry-After`.
   */
  | "unavailable"
  | "internal";

export interface ProxyErrorBody {
  error: {
    kind: ProxyErrorKind;
    message: string;
    /** What the user can change to fix it. */
    hint?: string;
    /** The HTTP exchanges made before the failure, when any (secrets masked). */
    exchanges?: HttpExchange[];
    /** Kind `upstream-auth`: the server's challenge (its `WWW-Authenticate`, parsed). */
    auth?: OAuthChallenge;
    /** Kind `oauth-flow`: the step that failed and the steps before it. */
    oauth?: OAuthFailureDetail;
  };
}

/** HTTP status our API answers with for each kind. */
export const PROXY_ERROR_STATUS: Record<ProxyErrorKind, number> = {
  "bad-request": 400,
  "blocked-target": 403,
  "upstream-unreachable": 502,
  "upstream-timeout": 504,
  "upstream-protocol": 502,
  // The upstream's refusal, so the upstream family's 502: 429 is Toolscope's own limit (rate-limited) and 503 its own
  // unavailability. The message and hint say when to retry (and the API adds the upstream's Retry-After when it has it).
  "upstream-rate-limited": 502,
  // Not 401: our API needs no credentials; the upstream does, and the body says what it asked for.
  "upstream-auth": 502,
  "oauth-flow": 502,
  "stream-broken": 502,
  "too-large": 413,
  "request-timeout": 408,
  "rate-limited": 429,
  forbidden: 403,
  "not-found": 404,
  unavailable: 503,
  internal: 500,
};
