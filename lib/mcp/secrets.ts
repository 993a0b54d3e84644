/** Header names whose values are credentials, whoever sent them. */
const ALWAYS_SECRET = ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key"];
const SECRET_NAME = /(auth|token|secret|password|passwd|api[-_]?key|cookie|credential)/i;

/**
 * Challenges carry no credential, only where and how to get one (`resource_metadata`, `scope`, `error`): the user
 * needs to see them to debug a sign-in, although their names contain "auth".
 */
const NEVER_SECRET = ["www-authenticate", "proxy-authenticate"];

/** True when a header's value must never be shown, logged or shared. */
export function isSecretHeader(name: string, userSecretNames: readonly string[] = []): boolean {
  const lower = name.toLowerCase();
  if (NEVER_SECRET.includes(lower)) return false;
  return ALWAYS_SECRET.includes(lower) || SECRET_NAME.test(lower) || userSecretNames.some((n) => n.toLowerCase() === lower);
}

/** Replace a secret value with a mask that keeps its scheme (e.g. "Bearer") and length, never the value. */
export function maskValue(value: string): string {
  const scheme = /^(Bearer|Basic|Token|DPoP)\s+/i.exec(value)?.[0] ?? "";
  return `${scheme}•••• (${value.length - scheme.length} chars hidden)`;
}

/** Mask the values of secret headers in a list of [name, value] pairs. */
export function maskHeaders(pairs: [string, string][], userSecretNames: readonly string[] = []): [string, string][] {
  return pairs.map(([n, v]) => [n, isSecretHeader(n, userSecretNames) ? maskValue(v) : v]);
}

/*
 * Server URLs. People paste URLs with credentials in them (`?api_key=…`, `https://user:pw@…`, a token as a path
 * segment); such a URL must not be shown, logged, stored in a snapshot or shared with its secret. The rule is
 * deliberately eager: removing a harmless parameter from a label costs little, leaking a key costs a lot.
 */

/** Word stems that make a query parameter name secret wherever they occur in it (`x-api-key`, `clientSecret`). */
const SECRET_NAME_STEMS = [
  "auth",
  "token",
  "secret",
  "pass",
  "pwd",
  "key",
  "sig",
  "session",
  "cookie",
  "cred",
  "code",
  "jwt",
  "bearer",
  "private",
  "hmac",
  "saml",
];
/** Short names that are secret only as a whole word (`sid`, but not `side`). */
const SECRET_NAME_WORDS = new Set(["sid", "otp", "pin", "pw", "pat", "ticket", "assertion"]);

/** What replaces a path segment that looks like a credential. */
export const REDACTED_SEGMENT = "REDACTED";

/** Percent-decode repeatedly (double encoding is a cheap disguise), tolerating malformed escapes. */
function decodeRepeatedly(text: string): string {
  let current = text.replace(/\+/g, " ");
  for (let i = 0; i < 3; i += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
    if (next === current) break;
    current = next;
  }
  return current.normalize("NFKC");
}

/** True when a query parameter's name says it holds a credential (`api_key`, `X-Amz-Signature`, `apiKey`, `%74oken`). */
export function isSecretParamName(name: string): boolean {
  const decoded = decodeRepeatedly(name);
  const squashed = decoded.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (SECRET_NAME_STEMS.some((stem) => squashed.includes(stem))) return true;
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_NAME_WORDS.has(w));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Credential formats that are recognisable on their own. */
const TOKEN_SHAPES = [
  /^eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*\.?/, // JWT / JWS / JWE (base64url of `{"`)
  /^(?:bearer|basic)\s+\S{8,}/i,
  /^(?:sk|rk)[-_](?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic, Stripe secret keys
  /^(?:gh[pousr]_|github_pat_)[A-Za-z0-9_]{20,}/,
  /^xox[abposre]-[A-Za-z0-9-]{10,}/, // Slack
  /^glpat-[A-Za-z0-9_-]{20,}/, // GitLab
  /^(?:AKIA|ASIA)[0-9A-Z]{16}$/, // AWS access key id
  /^AIza[0-9A-Za-z_-]{35}$/, // Google API key
];

/** How often a string switches between letters and digits: random tokens do it a lot, words and slugs rarely. */
function letterDigitSwitches(v: string): number {
  const classes = v
    .replace(/[^A-Za-z0-9]/g, "")
    .replace(/[A-Za-z]+/g, "a")
    .replace(/[0-9]+/g, "0");
  return Math.max(0, classes.length - 1);
}

/**
 * True when a value looks like a credential whatever its name: a known token format (JWT, `sk-…`, `ghp_…`,
 * AWS, Google, Slack, GitLab keys, `Bearer …`), or a random-looking run of base64/hex characters: 32+ long, or
 * 20+ mixing upper case, lower case and digits, switching between letters and digits at least 4 times and with
 * at most 4 `-`/`_` (so slugs like `release-2024-01-notes` and words are not caught). UUIDs are treated as
 * identifiers, not secrets: they name resources in many server URLs.
 */
export function looksLikeSecretValue(value: string): boolean {
  const v = decodeRepeatedly(value).trim();
  if (TOKEN_SHAPES.some((re) => re.test(v))) return true;
  if (UUID.test(v) || !/^[A-Za-z0-9+/=_-]+$/.test(v) || (v.match(/[-_]/g) ?? []).length > 4) return false;
  if (letterDigitSwitches(v) < 4) return false;
  return v.length >= 32 || (v.length >= 20 && /[a-z]/.test(v) && /[A-Z]/.test(v));
}

/** A query string (no `?`) without its secret parameters; the others are kept byte for byte. */
function redactQuery(query: string): { query: string; changed: boolean } {
  const kept: string[] = [];
  let changed = false;
  for (const part of query.split(/[&;]/)) {
    const eq = part.indexOf("=");
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? "" : part.slice(eq + 1);
    if (part !== "" && (isSecretParamName(name) || looksLikeSecretValue(value) || (eq === -1 && looksLikeSecretValue(name))))
      changed = true;
    else if (part !== "") kept.push(part);
  }
  return { query: kept.join("&"), changed };
}

/** A path with credential-looking segments replaced by {@link REDACTED_SEGMENT}. */
function redactPath(path: string): { path: string; changed: boolean } {
  let changed = false;
  const out = path
    .split("/")
    .map((segment) => {
      if (segment === "" || !looksLikeSecretValue(segment)) return segment;
      changed = true;
      return REDACTED_SEGMENT;
    })
    .join("/");
  return { path: out, changed };
}

/**
 * A server URL safe to show, log, store or share: no `user:password@`, no fragment (never sent to a server, and
 * OAuth-style fragments carry tokens), no query parameter whose name or value looks like a credential, and no
 * path segment that looks like one (replaced by {@link REDACTED_SEGMENT}). Harmless parameters keep their exact
 * spelling. A URL with nothing to remove is returned unchanged, so `builtin:demo` and `stdio:<name>` pass as
 * they are. Text that is not a URL at all is cleaned the same way as far as it has URL parts (`?…`, `…@`).
 * Not recognised: a credential in the host name, or inside another URL carried as a parameter value.
 */
export function redactServerUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return redactText(url);
  }
  // No host: an opaque name (`builtin:demo`, `stdio:x`) or a scheme-less `user:pw@host/…` the parser misread.
  if (u.host === "") return redactText(url);
  let changed = u.username !== "" || u.password !== "" || u.hash !== "" || url.includes("#");
  u.username = "";
  u.password = "";
  u.hash = "";
  const query = redactQuery(u.search.slice(1));
  if (query.changed) u.search = query.query;
  const path = redactPath(u.pathname);
  if (path.changed) u.pathname = path.path;
  changed ||= query.changed || path.changed;
  return changed ? u.toString() : url;
}

/** The same rule on the text of something that is not a URL with a host (e.g. `host/mcp?token=…`, no scheme). */
function redactText(text: string): string {
  const [beforeHash] = text.split("#", 1);
  const q = beforeHash.indexOf("?");
  const head = (q === -1 ? beforeHash : beforeHash.slice(0, q)).replace(/^([^/?#]*\/\/)?[^/?#@]*@/, "$1");
  const path = redactPath(head).path;
  if (q === -1) return path;
  const query = redactQuery(beforeHash.slice(q + 1)).query;
  return query ? `${path}?${query}` : path;
}
