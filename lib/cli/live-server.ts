/**
 * A live server for the command line, through the MCP client core (lib/upstream) the web service uses: connect,
 * list everything a snapshot keeps, send one message, disconnect. Every step is bounded by the flags' timeout and
 * the core's byte limits; a stdio process is always stopped at the end.
 */
import type { ConnectionDescriptor, ConnectResponse, Tool, ToolsResponse, UserHeaders } from "../mcp/contract.ts";
import { isObject } from "../json/guards.ts";
import {
  listAllTools,
  sendRpc,
  SKILL_LIMIT_DEFAULTS,
  upstreamFor,
  type ServerRequestAsker,
  type Upstream,
  type UpstreamSettings,
} from "@/lib/upstream";

/** How the command line bounds its work (flags). */
export interface LiveLimits {
  /** Each network step (connect, one page, one call), in ms: --timeout. */
  timeoutMs: number;
  /** The largest answer read, in bytes. */
  maxResponseBytes: number;
  /** Pages of one list walked at most. */
  maxPages: number;
  /** Tools kept at most. */
  maxTools: number;
}

export const DEFAULT_LIMITS: LiveLimits = { timeoutMs: 30_000, maxResponseBytes: 16 * 1024 * 1024, maxPages: 100, maxTools: 10_000 };

/** The client core's settings for a command line on this machine: local mode (stdio allowed, loopback allowed). */
export function cliSettings(limits: LiveLimits, stdioConfigPath: string): UpstreamSettings {
  return {
    mode: "local",
    allowPrivateNetwork: true,
    egressAllow: [],
    requestTimeoutMs: limits.timeoutMs,
    maxResponseBytes: limits.maxResponseBytes,
    maxToolPages: limits.maxPages,
    maxTools: limits.maxTools,
    eraCacheTtlMs: 0,
    sessionWelcomeMs: 0,
    maxSessionWelcomes: 0,
    stdioConfigPath,
    stdioIdleMs: 10 * 60_000,
    stdioMaxProcesses: 2,
    maxConnectionsPerOrigin: 8,
    ...SKILL_LIMIT_DEFAULTS,
  };
}

/** The other lists a snapshot keeps (tools come through listAllTools, which applies the client rules). */
export interface OtherLists {
  prompts: Record<string, unknown>[];
  resources: Record<string, unknown>[];
  resourceTemplates: Record<string, unknown>[];
  warnings: string[];
}

const OTHER_LISTS = [
  { method: "prompts/list", key: "prompts", capability: "prompts" },
  { method: "resources/list", key: "resources", capability: "resources" },
  { method: "resources/templates/list", key: "resourceTemplates", capability: "resources" },
] as const;

export class LiveServer {
  private constructor(
    private readonly upstream: Upstream,
    private descriptor: ConnectionDescriptor,
    readonly connected: ConnectResponse,
    private readonly headers: UserHeaders,
    private readonly limits: LiveLimits,
  ) {}

  /** Connect to `url` (an http(s) URL or `stdio:<name>` of the settings' config file). */
  static async connect(url: string, headers: UserHeaders, limits: LiveLimits, stdioConfigPath: string): Promise<LiveServer> {
    const ctx = { config: cliSettings(limits, stdioConfigPath), origin: "http://127.0.0.1" };
    const upstream = await upstreamFor(url, ctx);
    const connected = await upstream.connect({ url, era: "auto", userHeaders: headers, interactive: false });
    return new LiveServer(await upstreamFor(connected.connection, ctx), connected.connection, connected, headers, limits);
  }

  private get io() {
    return { userHeaders: this.headers, timeoutMs: this.limits.timeoutMs, maxBodyBytes: this.limits.maxResponseBytes, interactive: false };
  }

  /** Every tool, all pages, with the client rules the web docs apply (exclusions, schema limits). */
  async tools(): Promise<ToolsResponse> {
    const list = await listAllTools(this.upstream, this.descriptor, this.io, {
      timeoutMs: this.limits.timeoutMs,
      maxPages: this.limits.maxPages,
      maxTools: this.limits.maxTools,
      maxDescriptionChars: 16_384,
      deadlineMs: this.limits.timeoutMs * 4,
      schemaLimits: { maxBytes: 262_144, maxDepth: 64 },
    });
    if (list.connection) this.descriptor = list.connection;
    const { exchanges: _exchanges, ...rest } = list;
    return rest;
  }

  /** Prompts, resources and resource templates, each only when the server declares the capability. */
  async otherLists(): Promise<OtherLists> {
    const out: OtherLists = { prompts: [], resources: [], resourceTemplates: [], warnings: [] };
    const capabilities = this.connected.server.capabilities ?? {};
    for (const list of OTHER_LISTS) {
      if (!isObject(capabilities[list.capability])) continue;
      let cursor: string | undefined;
      for (let page = 1; ; page++) {
        const answer = await this.send({
          jsonrpc: "2.0",
          id: `${list.key}-${page}`,
          method: list.method,
          ...(cursor ? { params: { cursor } } : {}),
        });
        const result = isObject(answer?.result) ? answer.result : undefined;
        if (!result) {
          out.warnings.push(`${list.method} answered with an error: ${JSON.stringify(answer?.error ?? null).slice(0, 300)}`);
          break;
        }
        const items = Array.isArray(result[list.key]) ? (result[list.key] as unknown[]).filter(isObject) : [];
        out[list.key].push(...items);
        cursor = typeof result.nextCursor === "string" && result.nextCursor !== cursor ? result.nextCursor : undefined;
        if (!cursor) break;
        if (page >= this.limits.maxPages) {
          out.warnings.push(`${list.method}: stopped after ${page} pages (the page limit).`);
          break;
        }
      }
    }
    return out;
  }

  /**
   * One JSON-RPC message; resolves with the server's response (null when none came). `findTool` gives a tools/call
   * its definition (the `Mcp-Param-*` headers a 2026-07-28 call mirrors, and the exclusion rules).
   */
  async send(
    message: Record<string, unknown>,
    findTool: (name: string) => Promise<Tool | undefined> = async () => undefined,
    /** A bound and a cancel of this message alone (a collection call's timeout). */
    options: { timeoutMs?: number; signal?: AbortSignal; asker?: ServerRequestAsker } = {},
  ) {
    const answer = await sendRpc({
      upstream: this.upstream,
      descriptor: this.descriptor,
      message,
      userHeaders: this.headers,
      findTool,
      timeoutMs: options.timeoutMs ?? this.limits.timeoutMs,
      maxBodyBytes: this.limits.maxResponseBytes,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.asker ? { asker: options.asker } : {}),
    });
    if (answer.connection) this.descriptor = answer.connection;
    return answer.response;
  }

  /** End the session (a legacy session's DELETE) and stop a stdio process; never throws. */
  async close(): Promise<void> {
    await this.upstream.disconnect(this.descriptor, this.headers).catch(() => undefined);
  }
}
