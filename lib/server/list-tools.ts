import "server-only";
import type { CacheScope, ConnectionDescriptor, ExcludedTool, HttpExchange, Tool, ToolsResponse } from "@/lib/mcp/contract";
import { clientCapabilities, stampMessage } from "@/lib/mcp/meta";
import { scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { ExchangeFailure, runExchange } from "./exchange-core.ts";
import { refusingAsker } from "./server-request-asker.ts";
import type { SessionIo, Upstream } from "./upstream.ts";
import { log } from "./log.ts";
import { ProxyError } from "./proxy-error.ts";
import { checkToolOrder } from "./list-order.ts";
import { configuredSchemaLimits, guardToolSchemas } from "./schema-guard.ts";
import type { SchemaLimits } from "@/lib/schema/schema-size";
import { isObject } from "@/lib/json/guards";

/**
 * Split tools into callable ones and excluded ones, keeping the reason: a schema over the size/depth limits (never
 * compiled or walked; it is replaced by a stub naming why), or invalid x-mcp-header declarations (the client rules).
 */
export function partitionTools(tools: Tool[], limits: SchemaLimits): { tools: Tool[]; excluded: ExcludedTool[] } {
  const ok: Tool[] = [];
  const excluded: ExcludedTool[] = [];
  for (const listed of tools) {
    const { tool, problem } = guardToolSchemas(listed, limits);
    if (problem) {
      log.warn("tool excluded", { tool: tool.name.slice(0, 200), reason: problem });
      excluded.push({ tool, reason: problem });
      continue;
    }
    const { problems } = scanHeaderDeclarations(tool.inputSchema);
    if (problems.length === 0) ok.push(tool);
    else {
      log.warn("tool excluded", { tool: tool.name.slice(0, 200), reason: problems.join("; ") });
      excluded.push({ tool, reason: problems.join("; ") });
    }
  }
  return { tools: ok, excluded };
}

/** Sends one stamped tools/list page request; throws ExchangeFailure (with its own exchanges) when it fails. */
export type PageSender = (
  message: Record<string, unknown>,
) => Promise<{ response: Record<string, unknown> | null; exchanges: HttpExchange[] }>;

export interface WalkOptions {
  era: ConnectionDescriptor["era"];
  maxPages: number;
  maxTools: number;
  /** Identifies the server for the "same tools, other order" check. */
  orderKey: string;
  /** Declared in a modern request's `_meta` (see clientCapabilities). */
  capabilities: Record<string, unknown>;
}

/**
 * Follow `nextCursor` to the end, within caps, over any transport, and report anything odd as a warning rather
 * than failing: too many pages or tools, a cursor that repeats, non-tool entries, duplicate names, a reshuffled order.
 */
export async function walkToolPages(send: PageSender, opts: WalkOptions): Promise<ToolsResponse & { exchanges: HttpExchange[] }> {
  const all: Tool[] = [];
  const warnings: string[] = [];
  const exchanges: HttpExchange[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  let ttlMs: number | undefined;
  let cacheScope: CacheScope | undefined;
  do {
    if (pages >= opts.maxPages) {
      warnings.push(`Stopped after ${opts.maxPages} pages (TOOLSCOPE_MAX_TOOL_PAGES); the server has more.`);
      break;
    }
    const { message } = stampMessage(
      {
        jsonrpc: "2.0",
        id: `list-${Date.now().toString(36)}-${pages + 1}`,
        method: "tools/list",
        ...(cursor !== undefined ? { params: { cursor } } : {}),
      },
      opts.era,
      () => 0,
      opts.capabilities,
    );
    let result;
    try {
      result = await send(message);
    } catch (err) {
      if (err instanceof ExchangeFailure) throw new ExchangeFailure(err.cause, [...exchanges, ...err.exchanges]);
      throw err;
    }
    exchanges.push(...result.exchanges);
    pages++;
    const response = result.response;
    if (response && isObject(response.error)) {
      throw new ExchangeFailure(
        new ProxyError("upstream-protocol", `tools/list failed: ${String(response.error.message)} (code ${String(response.error.code)})`),
        exchanges,
      );
    }
    const page = response && isObject(response.result) ? response.result : undefined;
    if (!page || !Array.isArray(page.tools)) {
      throw new ExchangeFailure(new ProxyError("upstream-protocol", "tools/list returned no tools array."), exchanges);
    }
    for (const t of page.tools) {
      if (isObject(t) && typeof t.name === "string") all.push(t as Tool);
      else warnings.push(`Page ${pages} holds an entry that is not a tool definition (no string "name"); it was skipped.`);
    }
    // The whole list is as fresh as its least fresh page, and public only if every page is.
    const pageTtl = typeof page.ttlMs === "number" ? page.ttlMs : undefined;
    const pageScope = page.cacheScope === "public" || page.cacheScope === "private" ? page.cacheScope : undefined;
    if (pages === 1) {
      ttlMs = pageTtl;
      cacheScope = pageScope;
    } else {
      ttlMs = ttlMs === undefined || pageTtl === undefined ? undefined : Math.min(ttlMs, pageTtl);
      if (cacheScope !== pageScope) cacheScope = cacheScope === undefined || pageScope === undefined ? undefined : "private";
    }
    const next = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    // Exactly at the cap with no page left is a complete list, not a cut one.
    if (all.length > opts.maxTools || (all.length === opts.maxTools && next !== undefined)) {
      warnings.push(`Stopped at ${opts.maxTools} tools (TOOLSCOPE_MAX_TOOLS); the server has more.`);
      all.length = opts.maxTools;
      break;
    }
    if (next !== undefined && (seenCursors.has(next) || next === cursor)) {
      warnings.push(`The server returned cursor ${JSON.stringify(next.slice(0, 60))} again; stopped to avoid a loop.`);
      break;
    }
    if (next !== undefined) seenCursors.add(next);
    cursor = next;
  } while (cursor !== undefined);

  const names = new Map<string, number>();
  for (const t of all) names.set(t.name, (names.get(t.name) ?? 0) + 1);
  for (const [name, count] of names) if (count > 1) warnings.push(`Tool name ${JSON.stringify(name)} appears ${count} times across pages.`);

  const reshuffled = checkToolOrder(
    opts.orderKey,
    all.map((t) => t.name),
  );
  if (reshuffled) warnings.push(reshuffled);

  const { tools, excluded } = partitionTools(all, configuredSchemaLimits());
  return { tools, excluded, ttlMs, cacheScope, fetchedAt: new Date().toISOString(), pages, warnings, exchanges };
}

/** Caps and bounds of one list walk. */
export interface ListCaps {
  timeoutMs: number;
  maxPages: number;
  maxTools: number;
}

/** Every tool of a server, all pages on one upstream session; the server's own requests meanwhile are refused. */
export function listAllTools(
  upstream: Upstream,
  descriptor: ConnectionDescriptor,
  io: SessionIo,
  caps: ListCaps,
): Promise<ToolsResponse & { exchanges: HttpExchange[] }> {
  const walk: WalkOptions = {
    era: descriptor.era,
    maxPages: caps.maxPages,
    maxTools: caps.maxTools,
    orderKey: `${descriptor.url}|${descriptor.era}`,
    capabilities: clientCapabilities(descriptor.interactive),
  };
  const asker = refusingAsker("Toolscope was listing tools, with no one to ask");
  return upstream.withSession(descriptor, io, (open) =>
    walkToolPages(async (message) => {
      const { response, exchanges } = await runExchange({
        open: open(),
        message,
        era: descriptor.era,
        timeoutMs: caps.timeoutMs,
        signal: io.signal,
        asker,
      });
      return { response, exchanges };
    }, walk),
  );
}
