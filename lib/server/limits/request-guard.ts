import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { ProxyErrorKind } from "@/lib/mcp/contract";
import { contentSecurityPolicy, newNonce, SECURITY_HEADERS, strictTransportSecurity } from "@/lib/security/csp";
import { APP_RELAY_PATH } from "@/lib/docs/apps/sandbox-relay";
import {
  checkApiCall,
  checkHost,
  checkSandboxHost,
  checkMcpEndpoint,
  checkPageLoad,
  pageReachesUpstream,
  type RequestHeaders,
} from "@/lib/security/request-rules";
import { consumeRate, consumeSnapshotQuota, LimitError, rateStore as configuredRateStore, type RateStore } from "./abuse-limits.ts";
import { admission, AdmissionError } from "./admission.ts";
import { clientIdentity } from "./client-identity.ts";
import { DOCS_LOAD_HEADER, preloadDocsPage, type DocsPreload } from "../docs/docs-load.ts";
import { config, type Config, type RateClass } from "../platform/config.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { isShuttingDown } from "../../runtime/lifecycle.ts";
import { log, REQUEST_ID_HEADER } from "../../log/log.ts";
import { publicOrigin } from "../platform/public-origin.ts";
import { routeClass } from "./route-classes.ts";

/** The MCP endpoints of builtin servers: for any MCP client, so only the Origin rule of the MCP transport applies. */
const MCP_ENDPOINTS = new Set(["/api/demo/mcp"]);

/** Memory for one process; Redis (REDIS_URL) when several instances must count together. */
const rateStore = () => processSingleton<RateStore>("rateStore", () => configuredRateStore(config()));

function fetchHeaders(req: Request): RequestHeaders {
  const h = req.headers;
  return {
    method: req.method,
    origin: h.get("origin"),
    secFetchSite: h.get("sec-fetch-site"),
    secFetchMode: h.get("sec-fetch-mode"),
    secFetchDest: h.get("sec-fetch-dest"),
    contentType: h.get("content-type"),
  };
}

/**
 * A refusal in the shape of our API's errors (pages get the same JSON: a refused page load has no one to show HTML
 * to). Logged as one line without query or headers (they may hold secrets): refusals are what an operator watches.
 */
function refuse(
  req: Request,
  status: number,
  kind: ProxyErrorKind,
  message: string,
  extra: Record<string, string> = {},
  hint?: string,
): NextResponse {
  log.warn("request refused", {
    requestId: req.headers.get(REQUEST_ID_HEADER),
    method: req.method,
    route: new URL(req.url).pathname,
    status,
    kind,
    reason: message.slice(0, 160),
  });
  return NextResponse.json(
    { error: { kind, message, ...(hint ? { hint } : {}) } },
    { status, headers: { "cache-control": "no-store", ...SECURITY_HEADERS, ...extra } },
  );
}

function limited(req: Request, err: LimitError): NextResponse {
  return refuse(req, 429, "rate-limited", err.message, { "retry-after": String(err.retryAfterSeconds) }, err.hint);
}

/** Rate limits of this request, when limits are on: throws a LimitError. */
async function countRequest(req: Request, path: string, cfg: Config, pageRate: RateClass | undefined): Promise<void> {
  if (!cfg.limits.enabled) return;
  // API routes by their class (route-classes.ts); a method the route does not serve is answered 405, unmetered.
  const rate = pageRate ?? routeClass(path, req.method);
  if (!rate) return;
  const client = clientIdentity(req.headers, cfg.trustProxy);
  await consumeRate(rateStore(), cfg.limits, rate, client);
  if (rate === "snapshots") await consumeSnapshotQuota(rateStore(), cfg.limits, client);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page shown instead of contacting a server when a link from another site led to a local Toolscope. */
function confirmPage(req: NextRequest, message: string): NextResponse {
  const nonce = newNonce();
  const target = `${req.nextUrl.pathname}${req.nextUrl.search}`;
  const server = req.nextUrl.searchParams.get("server") ?? req.nextUrl.searchParams.get("url");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Continue? · Toolscope</title>
<style nonce="${nonce}">body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#18181b}@media(prefers-color-scheme:dark){body{background:#09090b;color:#e4e4e7}a{color:#a5b4fc}}code{word-break:break-all}a.button{display:inline-block;margin:1rem 1rem 0 0;padding:.4rem .9rem;border:1px solid currentColor;border-radius:.4rem}</style></head>
<body><h1>Continue to this page?</h1><p>${escapeHtml(message)}</p>${server ? `<p>Server: <code>${escapeHtml(server)}</code></p>` : ""}
<p>Continue only if you meant to open it. A local Toolscope can reach your private network and the stdio servers in your config.</p>
<a class="button" data-testid="confirm-continue" href="${escapeHtml(target)}">Continue</a> <a href="/">Go to the home page</a></body></html>`;
  const res = new NextResponse(html, { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
  res.headers.set("content-security-policy", contentSecurityPolicy({ nonce }));
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

/** Where pages may frame from besides themselves: the MCP App relay's own origin, when it has one. */
function frameSources(): string[] {
  const sandbox = config().sandboxOrigin;
  return sandbox ? [sandbox] : [];
}

/** Snapshot exports: files with their own, stricter policy (an exported page runs nothing), set by their route. */
const EXPORT_PATH = /^\/s\/[^/]+\/export\.(md|json|html)$/;

function fileWithHeaders(): NextResponse {
  const res = NextResponse.next();
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  return res;
}

/**
 * Let a page through with a fresh CSP nonce (on the request, where Next.js finds it, and on the response). A docs
 * page arrives with its docs already loaded (`docs`): the response takes the load's status (a 502 for a server
 * that failed, not a 200 error page), and the page gets the same load by a one-time token.
 */
function pageWithHeaders(req: NextRequest, docs?: DocsPreload): NextResponse {
  const nonce = newNonce();
  const csp = contentSecurityPolicy({ nonce, frameSources: frameSources() });
  const requestHeaders = new Headers(req.headers);
  // Only the guard names a docs load: whatever a client sent under this name is dropped.
  requestHeaders.delete(DOCS_LOAD_HEADER);
  if (docs?.token) requestHeaders.set(DOCS_LOAD_HEADER, docs.token);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const res = NextResponse.next({ request: { headers: requestHeaders }, ...(docs ? { status: docs.status } : {}) });
  res.headers.set("content-security-policy", csp);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.headers.set(k, v);
  for (const [k, v] of Object.entries(docs?.headers ?? {})) res.headers.set(k, v);
  return res;
}

/**
 * What every guarded request passes first: not shutting down, a valid configuration, our Host. A refusal, or the
 * configuration to go on with.
 */
function guardBasics(req: Request): NextResponse | Config {
  if (isShuttingDown())
    return refuse(req, 503, "unavailable", "Toolscope is shutting down; try again in a moment.", {
      "retry-after": "2",
      connection: "close",
    });
  let cfg: Config;
  try {
    cfg = config();
  } catch (err) {
    return refuse(req, 500, "internal", `Toolscope is misconfigured: ${(err as Error).message}`);
  }
  const hostHeader = req.headers.get("host");
  const host = checkHost(hostHeader, {
    mode: cfg.mode,
    allowedHosts: cfg.allowedHosts,
    publicOrigin: cfg.publicUrl,
    sandboxOrigin: cfg.sandboxOrigin,
  });
  if (!host.ok) return refuse(req, host.status, "forbidden", host.message);
  const sandbox = checkSandboxHost(hostHeader, new URL(req.url).pathname, { origin: cfg.sandboxOrigin, relayPath: APP_RELAY_PATH });
  if (!sandbox.ok) return refuse(req, sandbox.status, "not-found", sandbox.message);
  return cfg;
}

/**
 * The guard of an API call (`/api/*` but health): Host, same-origin calls with JSON bodies (the MCP endpoints of
 * builtin servers: the MCP transport's Origin rule), rate limits. A refusal, or undefined to go on. API routes run
 * it themselves (lib/server/api/guarded-route.ts), not through proxy.ts: Next.js's request hook cost a request more
 * CPU than the route it guards (issue 28).
 */
export async function guardApiRequest(req: Request, path = new URL(req.url).pathname): Promise<NextResponse | undefined> {
  const cfg = guardBasics(req);
  if (cfg instanceof NextResponse) return cfg;
  // The MCP App relay is a static page framed by our pages, also from the sandbox origin (a cross-site navigation):
  // it reads nothing, changes nothing and may be framed only by Toolscope (frame-ancestors), so no API call rule.
  if (path === APP_RELAY_PATH) return undefined;
  const h = fetchHeaders(req);
  const verdict = MCP_ENDPOINTS.has(path)
    ? checkMcpEndpoint(h, publicOrigin(req.headers, cfg))
    : checkApiCall(h, publicOrigin(req.headers, cfg));
  if (!verdict.ok) return refuse(req, verdict.status, verdict.status === 415 ? "bad-request" : "forbidden", verdict.message);
  try {
    await countRequest(req, path, cfg, undefined);
  } catch (err) {
    if (err instanceof LimitError) return limited(req, err);
    throw err;
  }
  return undefined;
}

/**
 * The one guard in front of every route and page: Host, then same-origin API calls with JSON bodies, fetch
 * metadata for pages that reach MCP servers, rate limits (when on), and security headers on every page.
 */
export async function guardRequest(req: NextRequest): Promise<NextResponse> {
  // Health checks come from load balancers and supervisors, by IP and without a browser's headers: they reveal
  // nothing and change nothing, so no Host or Origin rule applies.
  const path = req.nextUrl.pathname;
  if (path === "/api/health") return NextResponse.next();
  if (path.startsWith("/api/")) {
    const refused = await guardApiRequest(req, path);
    if (refused) return refused;
    const res = NextResponse.next();
    res.headers.set("x-content-type-options", "nosniff");
    return res;
  }
  const cfg = guardBasics(req);
  if (cfg instanceof NextResponse) return cfg;
  const h = fetchHeaders(req);
  try {
    if (EXPORT_PATH.test(path)) return fileWithHeaders();
    const upstream = pageReachesUpstream(path, req.nextUrl.searchParams);
    const verdict = checkPageLoad(h, upstream, cfg.mode);
    if (!verdict.ok) {
      if ("confirm" in verdict) return confirmPage(req, verdict.message);
      return refuse(req, verdict.status, "forbidden", verdict.message);
    }
    const live = upstream && path !== "/playground";
    if (live) await countRequest(req, path, cfg, "docs");
    // The docs load runs here, in the guard (docs-load.ts): it is admitted here too.
    const leave = live ? admission(cfg).admit("docs") : () => {};
    try {
      return pageWithHeaders(req, await preloadDocsPage(req));
    } finally {
      leave();
    }
  } catch (err) {
    if (err instanceof LimitError) return limited(req, err);
    if (err instanceof AdmissionError)
      return refuse(req, 503, "unavailable", err.message, { "retry-after": String(err.retryAfterSeconds) }, err.hint);
    throw err;
  }
}

/** The HSTS value of this instance's config (none while the config is invalid: the guard already refuses then). */
export function transportSecurity(): string | undefined {
  try {
    const c = config();
    return strictTransportSecurity({ mode: c.mode, publicUrl: c.publicUrl, maxAgeSeconds: c.hstsMaxAgeSeconds });
  } catch {
    return undefined;
  }
}
