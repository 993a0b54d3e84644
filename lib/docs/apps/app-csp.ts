/**
 * The Content-Security-Policy of an MCP App's view, built from the domains its resource declares (ext-apps
 * specification 2026-01-26, `_meta.ui.csp`): deny-all by default, each declared origin granted where it was declared
 * for, nothing else. Pure, so the playground's host and the docs' lints share one rule.
 *
 * Each declared value must be a plain origin source (`https://cdn.example.com`, `wss://rt.example.com:8443`, a
 * `https://*.example.com` subdomain wildcard). Anything else is dropped with the reason: CSP keywords, schemes such as
 * `data:` or `javascript:`, paths, and any character that could end a directive (`;`, `,`, spaces, quotes), so a value
 * like `"https://a.com; script-src *"` cannot widen the policy. The caller's own origins (Toolscope's and the
 * sandbox's) are never granted: an app that may reach them could call Toolscope's API. With `refusePrivate` (hosted
 * mode) loopback and private hosts are dropped too.
 */
import ipaddr from "ipaddr.js";
import { isObject } from "../../json/guards.ts";

export type CspList = "connectDomains" | "resourceDomains" | "frameDomains" | "baseUriDomains";
export const CSP_LISTS: readonly CspList[] = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"];

/** Declared values taken from each list at most; the rest are dropped as too many. */
export const MAX_CSP_SOURCES = 64;

export interface CspOptions {
  /** Origins never granted (Toolscope's own, the sandbox's), as `scheme://host[:port]`. */
  denyOrigins: readonly string[];
  /** Drop loopback and private hosts (hosted mode). */
  refusePrivate: boolean;
}

export interface DroppedSource {
  list: CspList;
  value: string;
  reason: string;
}

export interface AppCsp {
  /** The policy, for the first `<meta http-equiv="Content-Security-Policy">` of the view's document. */
  policy: string;
  /** What each list granted, as the host tells the app (`hostCapabilities.sandbox.csp`). */
  granted: Record<CspList, string[]>;
  dropped: DroppedSource[];
}

const SOURCE = /^(https?|wss?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?\/?$/i;
const DEFAULT_PORT: Record<string, string> = { http: "80", https: "443", ws: "80", wss: "443" };

/** Loopback and private names and address literals (the hosted mode refuses them, as its egress does). */
function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal") || h.endsWith(".home.arpa"))
    return true;
  const literal = h.startsWith("[") ? h.slice(1, -1) : h;
  if (!ipaddr.isValid(literal)) return false;
  return ipaddr.process(literal).range() !== "unicast";
}

function normalisedOrigin(scheme: string, host: string, port: string | undefined): string {
  const p = port?.slice(1);
  return `${scheme.toLowerCase()}://${host.toLowerCase()}${p && p !== DEFAULT_PORT[scheme.toLowerCase()] ? `:${p}` : ""}`;
}

/** One declared value as a source, or the reason it is dropped. */
function source(value: unknown, deny: ReadonlySet<string>, refusePrivate: boolean): { ok: string } | { reason: string } {
  if (typeof value !== "string") return { reason: "not a string" };
  const v = value.trim();
  if (v === "*" || /^\w+:\/\/\*\/?$/.test(v)) return { reason: "a wildcard for every host grants the whole web" };
  const m = SOURCE.exec(v);
  if (!m) return { reason: "not an origin such as https://cdn.example.com (no keywords, other schemes, paths or separators)" };
  const [, scheme, wildcard, host, port] = m;
  if (port && Number(port.slice(1)) > 65_535) return { reason: "the port is out of range" };
  const origin = normalisedOrigin(scheme, host, port);
  if (!wildcard && deny.has(origin)) return { reason: "Toolscope's own origin, which an app must never reach" };
  if (wildcard && [...deny].some((d) => hostOf(d).endsWith(`.${host.toLowerCase()}`)))
    return { reason: "a wildcard that covers Toolscope's own origin, which an app must never reach" };
  if (refusePrivate && isPrivateHost(host)) return { reason: "a loopback or private host, refused by this hosted instance" };
  return { ok: `${scheme.toLowerCase()}://${wildcard ?? ""}${host.toLowerCase()}${port ?? ""}` };
}

/** The host of a normalised origin. */
function hostOf(origin: string): string {
  return origin.replace(/^\w+:\/\//, "").replace(/:\d+$/, "");
}

/** The WebSocket scheme of the same host and port: a socket to Toolscope is as bad as a fetch. */
const SAME_HOST_SCHEME: Record<string, string> = { http: "ws", https: "wss", ws: "http", wss: "https" };

/**
 * Origins as `scheme://host[:port]`, default ports dropped, for comparing with declared values; each also under its
 * WebSocket (or HTTP) twin.
 */
function denySet(origins: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const o of origins) {
    const m = SOURCE.exec(o.trim());
    if (!m || m[2]) continue;
    const scheme = m[1].toLowerCase();
    const port = m[4] ?? `:${DEFAULT_PORT[scheme]}`;
    out.add(normalisedOrigin(scheme, m[3], port));
    out.add(normalisedOrigin(SAME_HOST_SCHEME[scheme], m[3], port === `:${DEFAULT_PORT[scheme]}` ? undefined : port));
  }
  return out;
}

/** The view's policy from its resource's `_meta.ui.csp` (anything: it comes from the server). */
export function appCsp(declared: unknown, options: CspOptions): AppCsp {
  const deny = denySet(options.denyOrigins);
  const granted: Record<CspList, string[]> = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  const dropped: DroppedSource[] = [];
  const csp = isObject(declared) ? declared : {};
  for (const list of CSP_LISTS) {
    const values = Array.isArray(csp[list]) ? (csp[list] as unknown[]) : csp[list] === undefined ? [] : [csp[list]];
    values.forEach((value, i) => {
      const shown = typeof value === "string" ? value.slice(0, 200) : (JSON.stringify(value)?.slice(0, 200) ?? String(value));
      if (i >= MAX_CSP_SOURCES) return dropped.push({ list, value: shown, reason: `more than ${MAX_CSP_SOURCES} values in one list` });
      const s = source(value, deny, options.refusePrivate);
      if ("reason" in s) dropped.push({ list, value: shown, reason: s.reason });
      else if (!granted[list].includes(s.ok)) granted[list].push(s.ok);
    });
  }
  const or = (sources: string[], fallback: string) => (sources.length ? sources.join(" ") : fallback);
  const resource = granted.resourceDomains.join(" ");
  const withResources = (base: string) => (resource ? `${base} ${resource}` : base);
  const policy = [
    "default-src 'none'",
    `script-src ${withResources("'unsafe-inline'")}`,
    `style-src ${withResources("'unsafe-inline'")}`,
    `img-src ${withResources("data: blob:")}`,
    `font-src ${withResources("data:")}`,
    `media-src ${withResources("data: blob:")}`,
    `connect-src ${or(granted.connectDomains, "'none'")}`,
    `frame-src ${or(granted.frameDomains, "'none'")}`,
    `base-uri ${or(granted.baseUriDomains, "'none'")}`,
    "form-action 'none'",
    "object-src 'none'",
  ].join("; ");
  return { policy, granted, dropped };
}
