/**
 * The Content-Security-Policy and the other security headers of every HTML page. Pure: the proxy adds a fresh
 * nonce per request and sets these on the response (and the CSP on the request, where Next.js finds the nonce
 * for its own scripts).
 */

export interface CspOptions {
  nonce: string;
  /** Where the browser reports violations (our own endpoint). */
  reportUri?: string;
  /** Origins pages may frame besides their own: the MCP App relay's sandbox origin, when one is configured. */
  frameSources?: readonly string[];
}

/**
 * `default-src 'self'` with nonce'd scripts (`'strict-dynamic'` lets Next.js's loader add its chunks), images only
 * from us or `data:` (remote tool icons go through /api/icon), connections only to us, workers from us (Monaco's are
 * same-origin module workers), no plugins, no `<base>`, forms only to us, never framed.
 */
export function contentSecurityPolicy({ nonce, reportUri, frameSources = [] }: CspOptions): string {
  const directives: [string, string][] = [
    ["default-src", "'self'"],
    // One policy for every page: a client-side navigation keeps the first document's policy, and any page can
    // lead to the playground. There ajv compiles tool schemas with `new Function` ('unsafe-eval'); scripts still
    // run only with the nonce or when loaded by a script that has it ('strict-dynamic'), so injected markup cannot.
    ["script-src", `'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`],
    // Monaco adds its own `<style>` elements (no nonce support) and React sets `style` attributes. Inline CSS
    // cannot run script, and img-src/font-src/connect-src keep it from sending anything to another host.
    ["style-src", "'self' 'unsafe-inline'"],
    ["img-src", "'self' data:"],
    ["font-src", "'self' data:"],
    ["connect-src", "'self'"],
    ["worker-src", "'self' blob:"],
    ["manifest-src", "'self'"],
    ["media-src", "'self' data:"],
    ["object-src", "'none'"],
    ["base-uri", "'none'"],
    ["form-action", "'self'"],
    // Only the MCP App relay (/api/apps/sandbox), whose views run at opaque origins; every other page of ours refuses
    // to be framed (frame-ancestors 'none').
    ["frame-src", ["'self'", ...frameSources].join(" ")],
    ["frame-ancestors", "'none'"],
  ];
  if (reportUri) directives.push(["report-uri", reportUri]);
  return directives.map(([k, v]) => `${k} ${v}`).join("; ");
}

/** Headers every HTML response carries besides the CSP. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  // URLs carry server addresses (and sometimes what a user typed): never send them to another site.
  "Referrer-Policy": "no-referrer",
  "X-Frame-Options": "DENY",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  // Only features Chromium knows: each unknown one (bluetooth, the retired interest-cohort) logs a console warning on
  // every page, which hides real ones.
  "Permissions-Policy":
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), midi=(), display-capture=(), browsing-topics=()",
};

/**
 * The Strict-Transport-Security value of an instance, or undefined when it sends none: only a hosted instance whose
 * public URL is https (a local one is plain http on loopback, and HSTS on localhost would break every other local
 * app on that name), and not with a max-age of 0 (TOOLSCOPE_HSTS_MAX_AGE=0: a reverse proxy sets its own). No
 * `includeSubDomains` or `preload`: they bind every other host of the domain, which is the operator's decision.
 */
export function strictTransportSecurity(o: { mode: "local" | "hosted"; publicUrl?: string; maxAgeSeconds: number }): string | undefined {
  if (o.mode !== "hosted" || o.maxAgeSeconds <= 0 || !o.publicUrl?.startsWith("https://")) return undefined;
  return `max-age=${o.maxAgeSeconds}`;
}

/** A nonce for one response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
