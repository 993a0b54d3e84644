/**
 * The built-in demo MCP server ("embedded default"): an issue tracker served over Streamable HTTP
 * to both protocol eras from one endpoint.
 *
 * - 2026-07-28 traffic (per-request `_meta` envelope, `server/discover`) goes to the SDK's
 *   `createMcpHandler` in strict mode: stateless, one fresh server per request.
 * - 2025-era traffic (`initialize` + `Mcp-Session-Id`) is recognised with `isLegacyRequest` and
 *   served by a bounded pool of sessionful transports (see legacy-sessions.ts).
 *
 * Both legs build their servers with {@link createDemoMcpServer}, so the eras cannot drift apart.
 * The data lives in a process-wide store (issue-store.ts), not on any server instance.
 * Beside its tools it serves three skills through the skills extension (skills.ts), one of them generated.
 */
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  type CacheHint,
  type RegisteredTool,
  type Tool,
} from "@modelcontextprotocol/server";
import { LegacySessionPool } from "./legacy-sessions.ts";
import type { DemoToolContext } from "./tool-kit.ts";
import { registerBasketTools } from "./tools-baskets.ts";
import { onBetaToolsChanged, registerBetaTools, syncBetaTools } from "./tools-beta.ts";
import { registerContentTools } from "./tools-content.ts";
import { purgeStateCodec, registerFlowTools } from "./tools-flows.ts";
import { registerIssueTools } from "./tools-issues.ts";
import { registerSqlTools } from "./tools-sql.ts";
import { attachDemoSkills } from "./skills.ts";

export const DEMO_SERVER_INFO = { name: "toolscope-demo", title: "Toolscope demo issue tracker", version: "1.0.0" } as const;

export const DEMO_INSTRUCTIONS = [
  "A small shared issue tracker for trying out MCP tools; its data is in memory and resets on restart.",
  "Find issues with search_issues (or execute_sql for ad-hoc filters) before acting on ids; prefer close_issue over delete_issue.",
  "purge_closed_issues asks the user for confirmation; baskets (open_basket, add_to_basket, checkout_basket) expire after 10 minutes.",
].join(" ");

/** `tools/list` may be cached for five minutes by anyone: the list is the same for every caller. */
export const TOOLS_LIST_CACHE_HINT: CacheHint = { ttlMs: 300_000, cacheScope: "public" };

export const DEFAULT_PAGE_SIZE = 5;

export interface DemoServerOptions {
  /** Tools per `tools/list` page (default 5, so the demo shows pagination). */
  pageSize?: number;
  /** Clock for expiring state (baskets); tests inject a fake one. */
  now?: () => number;
  /** Out-of-band errors and rejected requests (reporting only). */
  onerror?: (error: Error) => void;
}

export interface DemoServerHandler {
  fetch(req: Request): Promise<Response>;
  /** Aborts in-flight modern exchanges and closes every legacy session. */
  close(): Promise<void>;
}

function normalisePageSize(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return DEFAULT_PAGE_SIZE;
  return Math.min(1_000, Math.max(1, Math.trunc(value)));
}

// Cursors are opaque to clients; here they are the base64url of "tools:<offset>".
function encodeCursor(offset: number): string {
  return Buffer.from(`tools:${offset}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined, total: number): number {
  if (cursor === undefined) return 0;
  const m = /^tools:(\d{1,6})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  const offset = m ? Number(m[1]) : NaN;
  if (!Number.isInteger(offset) || offset <= 0 || offset >= total) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "Invalid cursor: pass back a nextCursor from an earlier tools/list result, or omit it to start over.",
    );
  }
  return offset;
}

function outputSchemaJson(tool: RegisteredTool): Record<string, unknown> | undefined {
  if (!tool.outputSchema) return undefined;
  if (tool.outputSchemaJson) return tool.outputSchemaJson;
  const json = tool.outputSchema["~standard"].jsonSchema.output({ target: "draft-2020-12" });
  return json.type === undefined ? { type: "object", ...json } : json;
}

/**
 * Replaces McpServer's single-page `tools/list` with a paged one over the same registered tools,
 * in registration order (deterministic, as the spec asks). The handler still goes through the
 * server's wrapper, so the configured cache hint (`ttlMs`/`cacheScope`) is stamped on every page.
 */
function installPagedToolsList(server: McpServer, tools: ReadonlyArray<readonly [string, RegisteredTool]>, pageSize: number): void {
  server.server.setRequestHandler("tools/list", (request) => {
    const listed: Tool[] = tools
      .filter(([, tool]) => tool.enabled)
      .map(([name, tool]) => {
        const definition = {
          name,
          title: tool.title,
          description: tool.description,
          inputSchema: server.toolInputSchemaJson(name) ?? { type: "object", properties: {} },
          annotations: tool.annotations,
          icons: tool.icons,
          execution: tool.execution,
          _meta: tool._meta,
          ...(tool.outputSchema ? { outputSchema: outputSchemaJson(tool) } : {}),
        };
        return definition as Tool;
      });
    const start = decodeCursor(request.params?.cursor, listed.length);
    const end = start + pageSize;
    return { tools: listed.slice(start, end), ...(end < listed.length ? { nextCursor: encodeCursor(end) } : {}) };
  });
}

export interface CreateDemoMcpServerOptions {
  era: DemoToolContext["era"];
  pageSize?: number;
  now?: () => number;
}

/** One demo server instance with every tool registered (one per modern request, one per legacy session). */
export function createDemoMcpServer({ era, pageSize, now = Date.now }: CreateDemoMcpServerOptions): McpServer {
  const server = new McpServer(DEMO_SERVER_INFO, {
    instructions: DEMO_INSTRUCTIONS,
    capabilities: { tools: { listChanged: true }, resources: { listChanged: false }, logging: {} },
    cacheHints: { "tools/list": TOOLS_LIST_CACHE_HINT, "resources/list": TOOLS_LIST_CACHE_HINT, "server/discover": TOOLS_LIST_CACHE_HINT },
    // MRTR: the purge confirmation's requestState is HMAC-sealed; forged or stale state is refused.
    requestState: { verify: (state, ctx) => purgeStateCodec().verify(state, ctx) },
  });
  const tools: Array<readonly [string, RegisteredTool]> = [];
  const context: DemoToolContext = { server, era, now, track: (name, tool) => tools.push([name, tool]) };
  registerIssueTools(context);
  registerSqlTools(context);
  registerContentTools(context);
  registerFlowTools(context);
  registerBasketTools(context);
  registerBetaTools(context);
  installPagedToolsList(server, tools, normalisePageSize(pageSize));
  // Declares io.modelcontextprotocol/skills (with directoryRead) and serves skills/list, skills/get and the files.
  attachDemoSkills(server, now);
  return server;
}

/** The demo endpoint: one web-standard `fetch` serving modern and legacy clients alike. */
export function createDemoServerHandler(options: DemoServerOptions = {}): DemoServerHandler {
  const pageSize = normalisePageSize(options.pageSize);
  const now = options.now ?? Date.now;
  const { onerror } = options;

  const modern = createMcpHandler(({ era }) => createDemoMcpServer({ era, pageSize, now }), { legacy: "reject", onerror });
  const legacy = new LegacySessionPool({
    createServer: () => createDemoMcpServer({ era: "legacy", pageSize, now }),
    stateless: legacyStatelessFallback(() => createDemoMcpServer({ era: "legacy", pageSize, now }), onerror),
    onerror,
  });

  // toggle_beta_tools changes the list for everyone: open subscriptions/listen streams hear it from the bus,
  // legacy sessions from their own server instance (on the session's GET stream, when one is open).
  const stopFollowingBeta = onBetaToolsChanged(() => {
    modern.notify.toolsChanged();
    legacy.forEachServer(syncBetaTools);
  });

  return {
    async fetch(req: Request): Promise<Response> {
      return (await isLegacyRequest(req)) ? legacy.handle(req) : modern.fetch(req);
    },
    async close(): Promise<void> {
      stopFollowingBeta();
      await Promise.all([modern.close(), legacy.closeAll()]);
    },
  };
}
