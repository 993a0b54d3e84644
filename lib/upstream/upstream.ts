import type {
  ConnectionDescriptor,
  ConnectResponse,
  DisconnectResponse,
  EraChoice,
  HttpExchange,
  RootEntry,
  SseEvent,
  UserHeaders,
} from "@/lib/mcp/contract";
import type { UpstreamSettings } from "./settings.ts";
import type { ExchangeOptions } from "./exchange/exchange-core.ts";
import type { TargetConfig } from "./egress/targets.ts";

/**
 * An upstream MCP server as the proxy services see it, whatever carries the messages. One implementation per
 * transport (./transports/upstream-http.ts, upstream-sse.ts, upstream-stdio.ts); `upstreamFor` (./upstream-for.ts) picks it from the URL and the
 * descriptor, so nothing above this line branches on the transport.
 */
export interface Upstream {
  readonly transport: "streamable-http" | "http+sse" | "stdio";
  /** Lists may be kept across calls (a stdio process's list is its own, and it has a process-local life). */
  readonly cachesLists: boolean;
  /** HTTP headers reach the wire (`Mcp-Param-*` mirroring, header overrides); not over stdio. */
  readonly hasHeaders: boolean;
  /** Can hold a `subscriptions/listen` stream open (not HTTP+SSE: the proxy keeps no session between calls). */
  readonly listens: boolean;
  connect(input: ConnectInput): Promise<ConnectResponse & { exchanges?: HttpExchange[] }>;
  /**
   * Run exchanges on one upstream session (an HTTP+SSE stream for its whole life; nothing to hold for Streamable HTTP
   * and stdio). `open(extra)` makes the channel for one exchange (runExchange's `open`).
   */
  withSession<T>(descriptor: ConnectionDescriptor, io: SessionIo, run: (open: ChannelOpener) => Promise<T>): Promise<T>;
  /** End what the descriptor holds (a legacy session, a stdio process). */
  disconnect(descriptor: ConnectionDescriptor, userHeaders: UserHeaders): Promise<DisconnectResponse & { exchanges?: HttpExchange[] }>;
  /** What this transport adds to any answer (stdio: the stderr lines since the last one). */
  extras(descriptor: ConnectionDescriptor): { stderr?: string[] };
}

export interface ConnectInput {
  url: string;
  era: EraChoice;
  userHeaders: UserHeaders;
  /** A person answers the server's requests: declare elicitation, sampling and roots. */
  interactive: boolean;
  /** The roots this browser set (ConnectRequest.roots): answered on a legacy session's GET stream right after connecting. */
  roots?: RootEntry[];
  /** false: connect without declaring the MCP Apps extension (ConnectRequest.apps). */
  apps?: boolean;
}

/** What one session needs besides the messages. */
export interface SessionIo {
  userHeaders: UserHeaders;
  /** Bound for a session handshake (HTTP+SSE). */
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
  onSseEvent?: (e: SseEvent) => void;
  /** A person answers server requests during this call (a streamed /api/rpc). */
  interactive: boolean;
  /** `Mcp-Name` / `Mcp-Param-*` values to send on POSTs instead of the derived ones (experiments; HTTP only). */
  headerOverrides?: Record<string, string>;
}

export type ChannelOpener = (extra?: { headers?: Record<string, string> }) => ExchangeOptions["open"];

/** The settings the upstreams read. */
export type UpstreamConfig = TargetConfig &
  Pick<
    UpstreamSettings,
    | "requestTimeoutMs"
    | "maxResponseBytes"
    | "eraCacheTtlMs"
    | "mode"
    | "stdioConfigPath"
    | "stdioMaxProcesses"
    | "stdioIdleMs"
    | "maxToolPages"
    | "maxTools"
    | "sessionWelcomeMs"
    | "maxSessionWelcomes"
  >;

export function isStdioUrl(url: string): boolean {
  return url.startsWith("stdio:");
}
