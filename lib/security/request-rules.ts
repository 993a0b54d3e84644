/**
 * The request guard's rules as pure functions: which Host names we answer to, which API calls count as our own
 * page's, and which page loads may make Toolscope contact an MCP server. No Node, no framework: the proxy
 * (`proxy.ts`) feeds them the request's headers and turns a refusal into a response.
 */

/** What a rule decided: go on, or refuse with a status and a message that says what to change. */
export type Verdict = { ok: true } | { ok: false; status: number; message: string };

const OK: Verdict = { ok: true };

/** Host names a local Toolscope always answers to (any port). */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

export interface HostPolicy {
  mode: "local" | "hosted";
  /** Local mode: extra names (TOOLSCOPE_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** The configured public origin (TOOLSCOPE_PUBLIC_URL), if any. */
  publicOrigin?: string;
  /** The origin that serves only the MCP App relay (TOOLSCOPE_SANDBOX_ORIGIN), if any: its host is ours too. */
  sandboxOrigin?: string;
}

/**
 * A request to the sandbox origin's host: only the relay is served there (no page, no API, no build output), so a view
 * that reached that origin finds nothing of Toolscope's. OK for any other host.
 */
export function checkSandboxHost(hostHeader: string | null, path: string, sandbox: { origin?: string; relayPath: string }): Verdict {
  if (!sandbox.origin || !hostHeader || hostHeader.trim().toLowerCase() !== new URL(sandbox.origin).host) return OK;
  if (path === sandbox.relayPath) return OK;
  return { ok: false, status: 404, message: "This host serves only the relay MCP App views run under." };
}

/** The host part of a Host header value, lower-cased, without the port (IPv6 literals keep their brackets). */
export function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

/**
 * Host must name us. A foreign Host is how DNS rebinding reaches a local server (a page of evil.example whose name
 * now resolves to 127.0.0.1), and how a hosted instance is fooled into printing someone else's address.
 */
export function checkHost(hostHeader: string | null, policy: HostPolicy): Verdict {
  if (!hostHeader) return { ok: false, status: 400, message: "The request has no Host header." };
  // A name (or bracketed IPv6 literal) and an optional numeric port, nothing else: the value ends up in links.
  if (!/^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(hostHeader.trim())) {
    return { ok: false, status: 400, message: `The Host header "${clip(hostHeader)}" is not a host name with an optional port.` };
  }
  const name = hostName(hostHeader);
  if (policy.sandboxOrigin && hostHeader.trim().toLowerCase() === new URL(policy.sandboxOrigin).host) return OK;
  if (policy.mode === "hosted") {
    const expected = policy.publicOrigin ? new URL(policy.publicOrigin).host : undefined;
    if (expected && hostHeader.trim().toLowerCase() === expected) return OK;
    return {
      ok: false,
      status: 403,
      message: `This Toolscope answers only to ${expected ?? "its TOOLSCOPE_PUBLIC_URL"}, not to Host "${clip(hostHeader)}". Set TOOLSCOPE_PUBLIC_URL to the address people use, and have your reverse proxy pass the Host header through.`,
    };
  }
  if ((LOOPBACK_HOSTS as readonly string[]).includes(name) || policy.allowedHosts.includes(name)) return OK;
  if (policy.publicOrigin && hostHeader.trim().toLowerCase() === new URL(policy.publicOrigin).host) return OK;
  return {
    ok: false,
    status: 403,
    message: `A local Toolscope answers only to localhost, 127.0.0.1 and [::1], not to Host "${clip(hostHeader)}" (this is how DNS-rebinding attacks look). To reach it under another name, add that name to TOOLSCOPE_ALLOWED_HOSTS.`,
  };
}

/** The headers an API rule looks at (lower-case names; null when absent). */
export interface RequestHeaders {
  method: string;
  origin: string | null;
  secFetchSite: string | null;
  secFetchMode: string | null;
  secFetchDest: string | null;
  contentType: string | null;
}

/** How to call our API from outside a browser: the one header a script needs (documented in docs/security.md). */
export const SCRIPT_HEADER_HINT =
  'From a script, send "Origin: <this Toolscope\'s origin>" or "Sec-Fetch-Site: same-origin" with the request.';

/**
 * An API call must come from our own pages: `Origin` (when present) equal to ours, or `Sec-Fetch-Site` same-origin
 * (or none: typed by the user). Browsers always send one of them and a page cannot forge either. A POST must be JSON,
 * so a cross-site page cannot send it without a CORS preflight, which we never grant.
 */
export function checkApiCall(h: RequestHeaders, ourOrigin: string): Verdict {
  if (h.origin !== null && h.origin !== "null" && sameOrigin(h.origin, ourOrigin)) return checkJsonBody(h);
  if (h.origin !== null) {
    return {
      ok: false,
      status: 403,
      message: `Cross-origin calls to Toolscope's API are refused (Origin "${clip(h.origin)}" is not ${ourOrigin}).`,
    };
  }
  if (h.secFetchSite === "same-origin" || h.secFetchSite === "none") return checkJsonBody(h);
  if (h.secFetchSite)
    return {
      ok: false,
      status: 403,
      message: `Calls to Toolscope's API from other sites are refused (Sec-Fetch-Site: ${clip(h.secFetchSite)}).`,
    };
  return { ok: false, status: 403, message: `Toolscope's API answers only its own pages. ${SCRIPT_HEADER_HINT}` };
}

function checkJsonBody(h: RequestHeaders): Verdict {
  if (h.method === "GET" || h.method === "HEAD" || h.method === "OPTIONS") return OK;
  const type = (h.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return OK;
  return {
    ok: false,
    status: 415,
    message: `Send the request body as JSON with "Content-Type: application/json" (got ${h.contentType ? `"${clip(h.contentType)}"` : "none"}).`,
  };
}

/**
 * The MCP endpoint of the built-in demo server is for any MCP client, but a browser page of another origin must not
 * drive it (the MCP transport spec: servers validate Origin against DNS rebinding). Clients without Origin pass.
 */
export function checkMcpEndpoint(h: RequestHeaders, ourOrigin: string): Verdict {
  if (h.origin === null || sameOrigin(h.origin, ourOrigin)) return OK;
  return { ok: false, status: 403, message: `Browser pages of other origins may not call this MCP server (Origin "${clip(h.origin)}").` };
}

/** What a page load may do, judged from fetch metadata. */
export type PageVerdict = Verdict | { ok: false; status: 200; confirm: true; message: string };

/**
 * Pages that make Toolscope contact an MCP server (live docs, the playground, a live diff) are loaded only as a
 * document, never as another site's image, script or frame: an `<img src=…/docs?server=…>` must not start a
 * connect. A link followed from another site to a local Toolscope asks first (`confirm`): a local instance can
 * reach your private network and your configured stdio servers.
 */
export function checkPageLoad(h: RequestHeaders, reachesUpstream: boolean, mode: "local" | "hosted"): PageVerdict {
  const site = h.secFetchSite;
  if (site === null || site === "same-origin" || site === "none") return OK;
  // "same-site" is another port or sub-domain of the same site: not us, so treated as any other site.
  const dest = h.secFetchDest ?? "";
  if (dest === "iframe" || dest === "frame" || dest === "embed" || dest === "object" || dest === "fencedframe") {
    return { ok: false, status: 403, message: "Toolscope pages cannot be framed by other sites." };
  }
  if (dest !== "document" && reachesUpstream) {
    return {
      ok: false,
      status: 403,
      message: `Other sites cannot load this page as a subresource (Sec-Fetch-Dest: ${clip(dest || "empty")}).`,
    };
  }
  if (reachesUpstream && mode === "local" && dest === "document") {
    return {
      ok: false,
      status: 200,
      confirm: true,
      message: "You followed a link from another site to a page that makes your local Toolscope contact an MCP server.",
    };
  }
  return OK;
}

/** The server a page would contact, from its query (`server` or `url`); undefined when none. */
export function pageServer(pathname: string, search: URLSearchParams): string | undefined {
  if (pathname === "/diff") return search.get("a") && (search.get("b") ?? "live") === "live" ? "live" : undefined;
  // The playground may also name its server in the URL fragment (share links), which the server never sees.
  if (pathname === "/playground") return "playground";
  if (pathname === "/docs" || pathname.startsWith("/docs/tools/")) return search.get("server") ?? search.get("url") ?? "builtin:demo";
  return undefined;
}

/** Whether loading this page makes Toolscope contact a server other than the built-in demo. */
export function pageReachesUpstream(pathname: string, search: URLSearchParams): boolean {
  const server = pageServer(pathname, search);
  return server !== undefined && !server.startsWith("builtin:");
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
