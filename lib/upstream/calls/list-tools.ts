import type { CacheScope, ConnectionDescriptor, ExcludedTool, HttpExchange, Tool, ToolsResponse } from "@/lib/mcp/contract";
import { clientCapabilities, stampMessage } from "@/lib/mcp/meta";
import { scanHeaderDeclarations } from "@/lib/mcp/x-mcp-header";
import { ExchangeFailure, runExchange } from "../exchange/exchange-core.ts";
import { unattendedAsker } from "../exchange/server-request-asker.ts";
import type { SessionIo, Upstream } from "../upstream.ts";
import { log } from "../../log/log.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { checkToolOrder } from "./list-order.ts";
import { guardToolSchemas } from "./schema-guard.ts";
import type { SchemaLimits } from "@/lib/schema/schema-size";
import { isObject } from "@/lib/json/guards";
import { maskText } from "@/lib/mcp/mask-text";
import { requestSecrets } from "../errors/request-secrets.ts";
import { capToolTexts } from "@/lib/mcp/tool-text-caps";
import { UpstreamBudgetError } from "../egress/upstream-budget.ts";

/** A "tool excluded" line's fields: the server chose the name (and the reason quotes it), so the user's secrets are masked. */
function logged(name: string, reason: string): { tool: string; reason: string } {
  const secrets = requestSecrets();
  return { tool: maskText(name, secrets).slice(0, 200), reason: maskText(reason, secrets) };
}

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
      log.warn("tool excluded", logged(tool.name, problem));
      excluded.push({ tool, reason: problem });
      continue;
    }
    const { problems } = scanHeaderDeclarations(tool.inputSchema);
    if (problems.length === 0) ok.push(tool);
    else {
      log.warn("tool excluded", logged(tool.name, problems.join("; ")));
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
  /** Declared in a modern request's `_meta` (CLIENT_CAPABILITIES). */
  capabilities: Record<string, unknown>;
  /** TOOLSCOPE_MAX_DESCRIPTION_CHARS: longer descriptions and titles are cut as each page arrives. */
  maxDescriptionChars: number;
  /** When the whole walk must be over (ms since the epoch, TOOLSCOPE_LIST_DEADLINE_MS from its start). */
  deadline: number;
  /** The deadline's length, for the warning. */
  deadlineMs: number;
  /** TOOLSCOPE_MAX_SCHEMA_BYTES / _DEPTH: a tool whose schema is larger or deeper is excluded. */
  schemaLimits: SchemaLimits;
  now?: () => number;
}

function deadlineWarning(pages: number, deadlineMs: number): string {
  return `Stopped after ${pages} pages: listing took longer than ${deadlineMs} ms in all (TOOLSCOPE_LIST_DEADLINE_MS); the list is cut there.`;
}

/** The request's upstream budget ran out (not the pool: that is the instance's state, and fails the request). */
function budgetRanOut(err: unknown): UpstreamBudgetError | undefined {
  let cur: unknown = err instanceof ExchangeFailure ? err.cause : err;
  for (let i = 0; i < 6 && cur; i++) {
    if (cur instanceof UpstreamBudgetError) return cur.kind === "too-large" ? cur : undefined;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
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
  let textsCut = 0;
  const now = opts.now ?? Date.now;
  do {
    if (pages > 0 && now() >= opts.deadline) {
      warnings.push(deadlineWarning(pages, opts.deadlineMs));
      break;
    }
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
      // Pages already read are a list that says it is cut, as at the page and tool caps; no page at all is a failure.
      // A page cut short by the walk's deadline (its exchange was given only the time left).
      if (pages > 0 && now() >= opts.deadline) {
        if (err instanceof ExchangeFailure) exchanges.push(...err.exchanges);
        warnings.push(deadlineWarning(pages, opts.deadlineMs));
        break;
      }
      const ranOut = pages > 0 ? budgetRanOut(err) : undefined;
      if (ranOut) {
        if (err instanceof ExchangeFailure) exchanges.push(...err.exchanges);
        warnings.push(
          `Stopped after ${pages} pages: the server's answers reached ${ranOut.limit} bytes for this request (TOOLSCOPE_MAX_CALL_UPSTREAM_BYTES); the list is cut there.`,
        );
        break;
      }
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
      if (!isObject(t) || typeof t.name !== "string") {
        warnings.push(`Page ${pages} holds an entry that is not a tool definition (no string "name"); it was skipped.`);
        continue;
      }
      const { tool, cut } = capToolTexts(t as Tool, opts.maxDescriptionChars);
      if (cut) textsCut++;
      all.push(tool);
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

  if (textsCut > 0)
    warnings.push(
      `${textsCut} tool${textsCut === 1 ? " has" : "s have"} a description or title longer than ${opts.maxDescriptionChars} characters (TOOLSCOPE_MAX_DESCRIPTION_CHARS); shown cut.`,
    );
  const names = new Map<string, number>();
  for (const t of all) names.set(t.name, (names.get(t.name) ?? 0) + 1);
  for (const [name, count] of names) if (count > 1) warnings.push(`Tool name ${JSON.stringify(name)} appears ${count} times across pages.`);

  const reshuffled = checkToolOrder(
    opts.orderKey,
    all.map((t) => t.name),
  );
  if (reshuffled) warnings.push(reshuffled);

  const { tools, excluded } = partitionTools(all, opts.schemaLimits);
  return { tools, excluded, ttlMs, cacheScope, fetchedAt: new Date().toISOString(), pages, warnings, exchanges };
}

/** Caps and bounds of one list walk. */
export interface ListCaps {
  timeoutMs: number;
  maxPages: number;
  maxTools: number;
  maxDescriptionChars: number;
  /** TOOLSCOPE_LIST_DEADLINE_MS: the whole walk, every page. */
  deadlineMs: number;
  schemaLimits: SchemaLimits;
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
    capabilities: clientCapabilities(descriptor.apps !== false),
    maxDescriptionChars: caps.maxDescriptionChars,
    deadline: Date.now() + caps.deadlineMs,
    deadlineMs: caps.deadlineMs,
    schemaLimits: caps.schemaLimits,
  };
  const asker = unattendedAsker("Toolscope was listing tools, with no one to ask");
  return upstream.withSession(descriptor, io, (open) =>
    walkToolPages(async (message) => {
      const { response, exchanges } = await runExchange({
        open: open(),
        message,
        era: descriptor.era,
        // One deadline for the walk: a page gets what is left of it, at most the per-exchange timeout.
        timeoutMs: Math.max(1, Math.min(caps.timeoutMs, walk.deadline - Date.now())),
        signal: io.signal,
        asker,
      });
      return { response, exchanges };
    }, walk),
  );
}
