import "server-only";
import { headers } from "next/headers";
import { PROXY_ERROR_STATUS, type ProxyErrorBody } from "@/lib/mcp/contract";
import { parseServerUrl } from "@/lib/mcp/contract-guards";
import { takeSlot } from "../api/api-route.ts";
import { config } from "../platform/config.ts";
import { docsSnapshot, freshDocsSnapshot, type DocsSnapshot } from "./docs-snapshot.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { publicOrigin } from "../platform/public-origin.ts";
import { errorHeaders, ProxyError } from "@/lib/upstream/policy";

export type DocsLoad =
  | { ok: true; url: string; snap: DocsSnapshot }
  | {
      ok: false;
      url: string;
      error: ProxyErrorBody["error"];
      /** The HTTP status the page answers with (the error's, as our API would). */
      status: number;
      /** Response headers that go with it (Retry-After for a rate limit). */
      headers: Record<string, string>;
    };

type HeaderSource = { get(name: string): string | null };

/** The failure of a docs load as a page shows it, with the status our API would answer. */
function failed(url: string, e: ProxyError): DocsLoad {
  return {
    ok: false,
    url,
    error: { kind: e.kind, message: e.message, ...(e.hint ? { hint: e.hint } : {}) },
    status: PROXY_ERROR_STATUS[e.kind],
    headers: errorHeaders(e),
  };
}

/**
 * Loads in progress, per server, process-wide: requests for one server's docs that arrive together (a navigation and
 * a refresh, several viewers) share one load and its outcome, the stale copy standing in for an outage included.
 */
function inFlight(): Map<string, Promise<DocsLoad>> {
  return processSingleton("docs-load.in-flight", () => new Map<string, Promise<DocsLoad>>());
}

/**
 * Load the docs snapshot of `raw` (a `server` query value) for a request with these headers. Never rejects.
 * `fresh`: the list as the server has it now, past every cache (Compare with live); fresh loads are shared only with
 * other fresh loads, never with one that may have been served from a cache.
 */
function loadFor(raw: string, requestHeaders: HeaderSource, fresh = false): Promise<DocsLoad> {
  let url: string;
  try {
    url = parseServerUrl(raw);
  } catch (err) {
    return Promise.resolve(
      failed(raw, new ProxyError("bad-request", (err as Error).message, "Docs links look like /docs?server=https://example.com/mcp.")),
    );
  }
  const loads = inFlight();
  const key = `${fresh ? "fresh" : "cached"}\n${url}`;
  const running = loads.get(key);
  if (running) return running;
  const load = loadOnce(url, requestHeaders, fresh).finally(() => {
    if (loads.get(key) === load) loads.delete(key);
  });
  loads.set(key, load);
  return load;
}

async function loadOnce(url: string, requestHeaders: HeaderSource, fresh: boolean): Promise<DocsLoad> {
  let release = () => {};
  try {
    const cfg = config();
    // A live docs page is an upstream request like an API call: the same concurrency caps hold.
    if (!url.startsWith("builtin:")) release = takeSlot({ headers: requestHeaders }, cfg, "request");
    const origin = publicOrigin(requestHeaders, cfg);
    return { ok: true, url, snap: await (fresh ? freshDocsSnapshot(url, origin) : docsSnapshot(url, origin)) };
  } catch (err) {
    return failed(
      url,
      err instanceof ProxyError
        ? err
        : new ProxyError("internal", (err as Error).message, "This is a Toolscope bug or misconfiguration; its log has the details."),
    );
  } finally {
    release();
  }
}

/* ------------------------------------------------------------------------------------------------------------------
 * The HTTP status of a docs page. App Router pages cannot set their status, and the request guard (proxy.ts) runs
 * before the page, so the guard loads the docs itself (preloadDocsPage), answers with the load's status through
 * `NextResponse.next({ status })`, and hands the load to the page by a one-time token in a request header: the page
 * renders that very load (no second fetch upstream) with the same banner as before. Without a token (client-side
 * navigations, `next dev` without the guard) the page loads on its own and answers 200, as before.
 * ---------------------------------------------------------------------------------------------------------------- */

/** The request header carrying the token of a load the guard made for this page (the guard drops any a client sent). */
export const DOCS_LOAD_HEADER = "x-toolscope-docs-load";
/** How long a handed-over load waits for its page (a page that never renders, e.g. the client went away). */
const HANDOFF_TTL_MS = 60_000;
const MAX_HANDOFFS = 1_000;

interface Handoff {
  /** The parsed server URL the load is for (a page only takes a load for the server it renders). */
  url: string;
  load: Promise<DocsLoad>;
  expires: number;
}

/** Process-wide: the guard and the pages are separate module graphs of one process. */
function handoffs(): Map<string, Handoff> {
  return processSingleton("docs-load.handoffs", () => new Map<string, Handoff>());
}

function handOver(url: string, load: Promise<DocsLoad>): string {
  const map = handoffs();
  const now = Date.now();
  // Oldest first (one TTL for all): drop the expired ones, and the oldest while the map is full.
  for (const [token, h] of map) {
    if (h.expires > now && map.size < MAX_HANDOFFS) break;
    map.delete(token);
  }
  const token = crypto.randomUUID();
  map.set(token, { url, load, expires: now + HANDOFF_TTL_MS });
  return token;
}

/** The load handed over for this request and server, once (undefined when there is none). */
function takeOver(token: string | null, url: string): Promise<DocsLoad> | undefined {
  if (!token) return undefined;
  const map = handoffs();
  const h = map.get(token);
  if (!h || h.url !== url || h.expires <= Date.now()) return undefined;
  map.delete(token);
  return h.load;
}

/**
 * Load the docs snapshot for the `server` query value (the load the request guard handed over, when there is one);
 * every failure becomes a displayable error with its status. `requestHeaders`: tests only (pages use the request's).
 */
export async function loadDocs(
  server: string | string[] | undefined,
  requestHeaders?: HeaderSource,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<DocsLoad> {
  const raw = typeof server === "string" ? server : "builtin:demo";
  const h = requestHeaders ?? (await headers());
  let parsed: string | undefined;
  try {
    parsed = parseServerUrl(raw);
  } catch {
    // loadFor reports it.
  }
  return (parsed !== undefined ? takeOver(h.get(DOCS_LOAD_HEADER), parsed) : undefined) ?? loadFor(raw, h, fresh);
}

/** The live side of "Compare with live": the server's list fetched now, past every cache (loadDocs with `fresh`). */
export function loadLiveDocs(server: string, requestHeaders?: HeaderSource): Promise<DocsLoad> {
  return loadDocs(server, requestHeaders, { fresh: true });
}

/** The status a docs page answers with: the load's error, or 404 for a tool the server does not list. */
export function docsPageStatus(load: DocsLoad, toolName?: string): number {
  if (!load.ok) return load.status;
  if (toolName === undefined) return 200;
  const { tools, excluded } = load.snap.list;
  return tools.some((t) => t.name === toolName) || excluded.some((e) => e.tool.name === toolName) ? 200 : 404;
}

/** What the request guard applies to a docs page: its status, response headers, and the token naming the load. */
export interface DocsPreload {
  status: number;
  headers: Record<string, string>;
  /** For DOCS_LOAD_HEADER on the forwarded request; absent when nothing is handed over. */
  token?: string;
}

/** Which docs page a path is: the server docs, one tool's page, or the diff. */
function docsRoute(pathname: string): { page: "docs" } | { page: "tool"; name: string } | { page: "diff" } | undefined {
  if (pathname === "/docs" || pathname === "/docs/") return { page: "docs" };
  if (pathname === "/diff" || pathname === "/diff/") return { page: "diff" };
  const tool = /^\/docs\/tools\/([^/]+)\/?$/.exec(pathname);
  if (!tool) return undefined;
  try {
    return { page: "tool", name: decodeURIComponent(tool[1]) };
  } catch {
    return undefined;
  }
}

/** A query value as a page's `searchParams` gives it: a string when it occurs once, an array when more often. */
function param(search: URLSearchParams, name: string): string | string[] | undefined {
  const all = search.getAll(name);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

/** The server a docs page shows, read exactly as the pages read it (`sp.server ?? sp.url`, then loadDocs' default). */
function serverParam(search: URLSearchParams): string {
  const value = param(search, "server") ?? param(search, "url");
  return typeof value === "string" ? value : "builtin:demo";
}

/**
 * For the request guard: load what a docs page (`/docs`, `/docs/tools/<name>`, `/diff` against a live server)
 * needs before it renders, and say which status it answers with. Undefined for other paths, other methods and
 * prefetches (the page renders on its own then, as before).
 *
 * A client-side navigation or refresh (an RSC request) is loaded here too, so every docs load of a page happens in
 * one place (the guard's copies of the docs caches, stale copies included, stay the ones that are current), but it
 * answers 200: the status is for documents (crawlers, link checkers, monitors, `curl`), and the router would turn a
 * non-2xx RSC answer into a second, full page load.
 */
export async function preloadDocsPage(req: { nextUrl: URL; headers: Headers; method?: string }): Promise<DocsPreload | undefined> {
  const route = docsRoute(req.nextUrl.pathname);
  if (!route || (req.method && req.method !== "GET" && req.method !== "HEAD")) return undefined;
  if (req.headers.has("next-router-prefetch") || req.headers.has("next-router-segment-prefetch")) return undefined;
  const rsc = req.headers.get("rsc") === "1";
  const search = req.nextUrl.searchParams;
  let preload: DocsPreload | undefined;
  try {
    preload =
      route.page === "diff"
        ? await preloadDiff(search, req.headers)
        : await preloadServer(serverParam(search), req.headers, route.page === "tool" ? route.name : undefined);
  } catch {
    // A failure of our own (the snapshot store): the page renders on its own and shows it, as before.
    return undefined;
  }
  return preload && rsc ? { status: 200, headers: {}, ...(preload.token ? { token: preload.token } : {}) } : preload;
}

/** Load one server's docs, hand the load over, and say the status (404 for a tool it does not list). */
async function preloadServer(raw: string, requestHeaders: Headers, toolName: string | undefined): Promise<DocsPreload> {
  const load = loadFor(raw, requestHeaders);
  const result = await load;
  return { status: docsPageStatus(result, toolName), headers: result.ok ? {} : result.headers, token: handOver(result.url, load) };
}

/** `/diff?a=<id>&b=<id|live>`: 404 for an unknown snapshot, the live load's status for a live side. */
async function preloadDiff(search: URLSearchParams, requestHeaders: Headers): Promise<DocsPreload | undefined> {
  // As app/diff/page.tsx reads them.
  const rawA = param(search, "a");
  const rawB = param(search, "b");
  const a = typeof rawA === "string" ? rawA.trim() : "";
  if (!a) return undefined;
  const b = typeof rawB === "string" && rawB.trim() ? rawB.trim() : "live";
  // Loaded only here: the snapshot store (SQLite or PostgreSQL) is not needed for any other path the guard sees.
  const { loadSnapshot } = await import("../snapshots/snapshot-store.ts");
  const before = await loadSnapshot(a);
  if (!before) return { status: 404, headers: {} };
  if (b !== "live") return (await loadSnapshot(b)) ? undefined : { status: 404, headers: {} };
  // Compare with live compares against the list as it is now, never a cached one.
  const load = loadFor(before.source, requestHeaders, true);
  const result = await load;
  return { status: docsPageStatus(result), headers: result.ok ? {} : result.headers, token: handOver(result.url, load) };
}
