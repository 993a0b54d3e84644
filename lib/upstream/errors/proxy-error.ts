import { SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { PROXY_ERROR_STATUS, type HttpExchange, type ProxyErrorBody, type ProxyErrorKind } from "@/lib/mcp/contract";
import type { OAuthChallenge, OAuthFailureDetail } from "@/lib/mcp/oauth-contract";
import { ContractError } from "@/lib/mcp/contract-guards";
import { redactServerUrl } from "@/lib/mcp/secrets";
import { maskJson, maskServerText, maskText, mergeSecrets, secretValues } from "@/lib/mcp/mask-text";
import { BlockedTargetError, ConnectionWaitTimeout } from "../egress/egress.ts";
import { challengeFrom } from "./oauth-challenge.ts";
import { requestSecrets } from "./request-secrets.ts";
import { UpstreamBudgetError } from "../egress/upstream-budget.ts";

/**
 * "We couldn't ask": a failure of the proxy, the network or the request to our API, never the server's answer. Its
 * message, hint and challenge are shown, logged and kept in history, and are often built from the server's text,
 * which may echo the user's headers: they are masked with the request's secrets here, whoever builds the error.
 */
export class ProxyError extends Error {
  constructor(
    readonly kind: ProxyErrorKind,
    message: string,
    readonly hint?: string,
    /** The upstream HTTP status behind the failure, when there was one (tells an outage from a refusal). */
    readonly upstreamStatus?: number,
    /** When to ask again, in seconds (an upstream's `Retry-After`; Toolscope's own limits): for a `Retry-After` header. */
    readonly retryAfterSeconds?: number,
    /** Kind `upstream-auth`: the challenge; kind `oauth-flow`: the steps. */
    readonly detail?: { auth?: OAuthChallenge; oauth?: OAuthFailureDetail },
  ) {
    const secrets = requestSecrets();
    super(maskText(message, secrets));
    this.name = "ProxyError";
    if (!secrets.pattern) return;
    if (hint) this.hint = maskText(hint, secrets);
    if (detail?.auth) this.detail = { ...detail, auth: maskJson(detail.auth, secrets) };
  }
}

function causeChain(err: unknown): unknown[] {
  const out: unknown[] = [];
  let cur: unknown = err;
  for (let i = 0; i < 6 && cur; i++) {
    out.push(cur);
    cur = (cur as { cause?: unknown }).cause;
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------------------------
 * The server's own words. A failing server often says why (a JSON-RPC error message, a line of text, an error page's
 * title): a bounded, cleaned excerpt of it goes into our message. It is shown, logged and kept in history, so it is
 * one line, without control or bidi characters, and without anything that looks like a credential (servers echo
 * requests, headers included, in debug pages).
 * ---------------------------------------------------------------------------------------------------------------- */

/** Longest excerpt of a server's error text kept in a message. */
export const MAX_SERVER_TEXT_CHARS = 300;

/** One line of visible text: control, format (bidi, zero-width) and separator characters become spaces. */
function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  return `${/[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head}…`;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" || e[1] === "X" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : " ";
    }
    return named[e.toLowerCase()] ?? m;
  });
}

/** The readable part of an HTML error page: its title and first heading, else its text. */
function htmlText(html: string): string {
  const pick = (re: RegExp) => re.exec(html)?.[1]?.replace(/<[^>]*>/g, " ");
  const title = pick(/<title[^>]*>([\s\S]*?)<\/title>/i);
  const h1 = pick(/<h1[^>]*>([\s\S]*?)<\/h1>/i);
  const parts = [title, h1].map((p) => (p ? oneLine(decodeEntities(p)) : "")).filter(Boolean);
  const unique = parts.filter((p, i) => parts.indexOf(p) === i && !parts.some((q, j) => j !== i && q.length > p.length && q.includes(p)));
  if (unique.length) return unique.join(" — ");
  return decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " "));
}

/** The message a JSON error body carries (a JSON-RPC error, or the usual `error`/`message`/`detail` fields), and its code. */
function jsonErrorText(value: unknown): { text: string; code?: number } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const error = v.error;
  if (typeof error === "object" && error !== null) {
    const e = error as Record<string, unknown>;
    if (typeof e.message === "string")
      return { text: e.message, ...(typeof e.code === "number" && Number.isSafeInteger(e.code) ? { code: e.code } : {}) };
  }
  for (const key of ["error", "message", "detail", "title", "error_description"])
    if (typeof v[key] === "string" && v[key]) return { text: v[key] as string };
  return undefined;
}

/**
 * A bounded, cleaned excerpt of a response body for an error message, in quotes (undefined when there is nothing to
 * say): the JSON-RPC error message of a JSON body (and its code), an HTML page's title, or the text itself, on one
 * line, at most MAX_SERVER_TEXT_CHARS, with the request's secrets, `secrets` and credential-looking words masked
 * before it is cut (a cut secret is no longer the value that is looked for).
 */
export function serverText(body: string | null | undefined, secrets: readonly string[] = []): string | undefined {
  if (!body) return undefined;
  const head = body.slice(0, 20_000);
  let text: string;
  let code: number | undefined;
  const trimmed = head.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      const found = jsonErrorText(JSON.parse(body.length > 20_000 ? "" : body));
      text = found?.text ?? trimmed;
      code = found?.code;
    } catch {
      text = trimmed;
    }
  } else if (/^<(!doctype|html|head|body|title|h1|p|div)\b/i.test(trimmed)) {
    text = htmlText(head);
  } else {
    text = head;
  }
  const clean = clip(maskServerText(oneLine(text), mergeSecrets(requestSecrets(), secretValues(secrets))), MAX_SERVER_TEXT_CHARS);
  if (!clean) return undefined;
  return code === undefined ? `“${clean}”` : `“${clean}” (JSON-RPC error ${code})`;
}

/* ------------------------------------------------------------------------------------------------------------------
 * Rate limits (HTTP 429, or 503 with Retry-After): the server answered, and asked to be asked later.
 * ---------------------------------------------------------------------------------------------------------------- */

/** The longest wait a `Retry-After` is believed for (a year-long one is a typo or hostile; the message says so). */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

/**
 * A `Retry-After` value (RFC 9110 §10.2.3: delta-seconds or an HTTP-date) as seconds from `now`, or undefined when
 * absent or unreadable. A date in the past is 0 s.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Math.min(Number(v), Number.MAX_SAFE_INTEGER);
  const at = Date.parse(v);
  if (!Number.isFinite(at) || !/[a-z]/i.test(v)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** "30 s", "5 min", "2 h 5 min", "3 days". */
export function formatWait(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) {
    const h = Math.floor(seconds / 3600);
    const m = Math.round((seconds % 3600) / 60);
    return m ? `${h} h ${m} min` : `${h} h`;
  }
  return `${Math.round(seconds / 86400)} days`;
}

/** "14:05:03 UTC" (today) or "2026-12-03 14:05 UTC". */
function clockTime(at: Date, now: Date): string {
  const iso = at.toISOString();
  return iso.slice(0, 10) === now.toISOString().slice(0, 10) ? `${iso.slice(11, 19)} UTC` : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** True when a response status (and its Retry-After) means "rate-limited, ask later": 429, or 503 with Retry-After. */
export function isRateLimitStatus(status: number, retryAfter: string | null | undefined): boolean {
  return status === 429 || (status === 503 && parseRetryAfter(retryAfter) !== undefined);
}

export interface RateLimitDetails {
  status: number;
  /** The raw `Retry-After` header; null: the answer had none; undefined: not known (the headers were not at hand). */
  retryAfter?: string | null;
  /** The response body (an excerpt is quoted). */
  body?: string | null;
  /** Values to mask in the quoted body (the user's header values). */
  secrets?: readonly string[];
  /** Set when Toolscope sent nothing because an earlier answer's wait has not passed yet (see ./era-cache.ts). */
  heldSince?: number;
  now?: number;
}

/** The `upstream-rate-limited` error for a 429 (or 503 + Retry-After) from `rawUrl`: what it said, and when to retry. */
export function upstreamRateLimited(rawUrl: string, d: RateLimitDetails): ProxyError {
  const url = redactServerUrl(rawUrl);
  const now = d.now ?? Date.now();
  const seconds = parseRetryAfter(d.retryAfter, now);
  const what = d.status === 429 ? "HTTP 429 (Too Many Requests)" : `HTTP ${d.status}${d.status === 503 ? " (Service Unavailable)" : ""}`;
  let when: string;
  let hint: string;
  if (seconds === undefined) {
    if (d.retryAfter) when = ` Its Retry-After (${JSON.stringify(clip(oneLine(d.retryAfter), 60))}) is not a number of seconds or a date.`;
    else when = d.retryAfter === null ? " It did not say when to retry (no Retry-After)." : "";
    hint = "Wait a minute or so before connecting or sending again; Toolscope sent nothing more to it.";
  } else if (seconds > MAX_RETRY_AFTER_SECONDS) {
    when = ` It asks to wait ${formatWait(seconds)} (Retry-After), which is longer than a rate limit usually lasts.`;
    hint = "Check the server's status or contact its operator; Toolscope sent nothing more to it.";
  } else {
    const at = new Date(now + seconds * 1000);
    when =
      seconds === 0
        ? " It allows a retry now (Retry-After: 0)."
        : ` Retry in ${formatWait(seconds)} (at ${clockTime(at, new Date(now))}), as its Retry-After asks.`;
    hint =
      d.heldSince !== undefined
        ? "Toolscope keeps to the server's Retry-After for anonymous connects and did not contact it again; try again after that time."
        : "Wait until then before connecting or sending again; Toolscope sent nothing more to it.";
  }
  const lead =
    d.heldSince !== undefined
      ? `${url} answered ${what} ${formatWait(Math.max(0, Math.round((now - d.heldSince) / 1000)))} ago: it is rate-limiting Toolscope.`
      : `${url} is rate-limiting Toolscope: it answered ${what}.`;
  const said = serverText(d.body, d.secrets);
  return new ProxyError(
    "upstream-rate-limited",
    `${lead}${when}${said ? ` It said: ${said}.` : ""}`,
    hint,
    d.status,
    seconds !== undefined ? Math.min(seconds, MAX_RETRY_AFTER_SECONDS) : undefined,
  );
}

/* ------------------------------------------------------------------------------------------------------------------
 * Redirects. The SDK follows a redirect only within the server's origin, at most five times; anything else comes back
 * as the redirect response itself, which must be named for what it is (a loop, too many hops, another origin).
 * ---------------------------------------------------------------------------------------------------------------- */

/** Redirects the SDK follows for one request (its fetchWithinOrigin's MAX_REDIRECTS). */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Where a redirect response points (resolved against the request URL), or undefined when it is not one. */
export function redirectTarget(status: number, location: string | null | undefined, requestUrl: string): URL | undefined {
  if (!REDIRECT_STATUSES.has(status) || !location) return undefined;
  try {
    return new URL(location, requestUrl);
  } catch {
    return undefined;
  }
}

const REDIRECT_HINT =
  "Use the address the redirects should end at as the server URL (open it in a browser or `curl -I` it to see where it goes), or fix the server's redirect rules.";

/** A chain of redirects that comes back to an address it already visited. `chain` is every URL requested, in order. */
export function redirectLoop(rawUrl: string, chain: readonly string[], status: number): ProxyError {
  const shown = chain.map((u) => redactServerUrl(u));
  const path = shown
    .map((u) => {
      try {
        const p = new URL(u);
        return `${p.pathname}${p.search}`;
      } catch {
        return u;
      }
    })
    .join(" → ");
  return new ProxyError(
    "upstream-protocol",
    `${redactServerUrl(rawUrl)} redirects in a loop: ${path} (HTTP ${status}), so it never answers.`,
    `The server's redirect rules send requests round in a circle (often a trailing-slash or http/https rule fighting another one). ${REDIRECT_HINT}`,
    status,
  );
}

/** A chain of more than MAX_REDIRECTS redirects within the server's origin. */
export function tooManyRedirects(rawUrl: string, hops: number, last: string, status: number): ProxyError {
  return new ProxyError(
    "upstream-protocol",
    `${redactServerUrl(rawUrl)} redirected ${hops} times (HTTP ${status}; last to ${redactServerUrl(last)}); Toolscope follows at most ${MAX_REDIRECTS} redirects per request.`,
    REDIRECT_HINT,
    status,
  );
}

/** A redirect the SDK does not follow: to another origin, from https to http, or one that would change the method. */
export function redirectNotFollowed(rawUrl: string, status: number, target: URL, method: string): ProxyError {
  const from = new URL(rawUrl);
  const to = redactServerUrl(target.href);
  let why: string;
  if (from.protocol === "https:" && target.protocol === "http:") why = "from https to plain http, which Toolscope never follows";
  else if (target.origin !== from.origin)
    why = "to another origin, which Toolscope does not follow (the request and your headers would go to another server)";
  else if (method !== "GET" && status !== 307 && status !== 308) why = `with HTTP ${status}, which would turn the ${method} into a GET`;
  else why = "with credentials in the new address";
  return new ProxyError(
    "upstream-protocol",
    `${redactServerUrl(rawUrl)} redirects to ${to} (HTTP ${status}) ${why}.`,
    `If ${to} is the MCP server you meant, use it as the server URL.`,
    status,
  );
}

/**
 * What a tail of redirect exchanges says (the SDK returned a redirect response it did not follow): a loop, too many
 * hops, or a redirect it will not follow. Undefined when the last exchange is not a redirect.
 */
export function describeRedirects(rawUrl: string, exchanges: readonly HttpExchange[]): ProxyError | undefined {
  const last = exchanges.at(-1);
  const target = last?.response && redirectTarget(last.response.status, headerOf(last.response.headers, "location"), last.request.url);
  if (!last?.response || !target) return undefined;
  // The chain: consecutive redirect exchanges, each requested where the one before pointed.
  const chain = [last];
  for (let i = exchanges.length - 2; i >= 0; i--) {
    const e = exchanges[i];
    const next = e.response && redirectTarget(e.response.status, headerOf(e.response.headers, "location"), e.request.url);
    if (!next || next.href !== chain[0].request.url || e.request.method !== last.request.method) break;
    chain.unshift(e);
  }
  const urls = chain.map((e) => e.request.url);
  const seq = [...urls, target.href];
  // The loop as first walked: from the first address that comes back, to where it comes back.
  const again = seq.findIndex((u, i) => seq.indexOf(u) < i);
  if (again >= 0) return redirectLoop(rawUrl, seq.slice(seq.indexOf(seq[again]), again + 1), last.response.status);
  if (chain.length > MAX_REDIRECTS) return tooManyRedirects(rawUrl, chain.length, target.href, last.response.status);
  return redirectNotFollowed(urls[0], last.response.status, target, last.request.method);
}

function headerOf(pairs: readonly [string, string][] | undefined, name: string): string | undefined {
  return pairs?.find(([n]) => n.toLowerCase() === name)?.[1];
}

/* ------------------------------------------------------------------------------------------------------------------
 * HTTP failures and everything else.
 * ---------------------------------------------------------------------------------------------------------------- */

/** The last recorded response with this status (the one an SdkHttpError describes). */
function responseWith(exchanges: readonly HttpExchange[] | undefined, status: number): NonNullable<HttpExchange["response"]> | undefined {
  for (let i = (exchanges?.length ?? 0) - 1; i >= 0; i--) if (exchanges![i].response?.status === status) return exchanges![i].response;
  return undefined;
}

/**
 * A 401 (any), or a 403 whose challenge says `insufficient_scope`: the server wants (more) authorization. The
 * browser runs the OAuth flow with what the challenge names and sends again.
 */
function authRequired(challenge: OAuthChallenge, said: string | undefined): ProxyError {
  const wants = challenge.status === 403 ? "a token with more scope" : "authorization";
  const scope = challenge.scope ? ` (scope "${oneLine(challenge.scope).slice(0, 200)}")` : "";
  return new ProxyError(
    "upstream-auth",
    `The server answered HTTP ${challenge.status}: it needs ${wants}${scope}.${said ? ` It said: ${said}.` : ""}`,
    challenge.status === 403
      ? "Sign in again to grant the wider scope, then send again."
      : "Sign in to it in the playground (docs pages and links carry no credentials; a signed-in Share keeps its definitions), or add an Authorization header.",
    challenge.status,
    undefined,
    { auth: challenge },
  );
}

/**
 * The error for an HTTP failure status from the server. `body` is its response body (an excerpt is quoted),
 * `exchanges` (when known) give the headers: Retry-After, Location.
 */
export function describeHttpFailure(status: number, rawUrl: string, body?: string | null, exchanges?: readonly HttpExchange[]): ProxyError {
  const url = redactServerUrl(rawUrl);
  const response = responseWith(exchanges, status);
  const text = body ?? response?.body;
  const retryAfter = response ? (headerOf(response.headers, "retry-after") ?? null) : undefined;
  if (isRateLimitStatus(status, retryAfter)) return upstreamRateLimited(rawUrl, { status, retryAfter, body: text });
  if (REDIRECT_STATUSES.has(status)) {
    const described = exchanges && describeRedirects(rawUrl, exchanges);
    if (described) return described;
    return new ProxyError(
      "upstream-protocol",
      `${url} answered with a redirect (HTTP ${status}) that Toolscope did not follow.`,
      REDIRECT_HINT,
      status,
    );
  }
  const said = serverText(text);
  const challenge = response ? challengeFrom(status, response.headers) : undefined;
  if (challenge) return authRequired(challenge, said);
  if (status === 401 || status === 403) {
    return new ProxyError(
      "upstream-protocol",
      `The server answered HTTP ${status}: it needs credentials.${said ? ` It said: ${said}.` : ""}`,
      "Add an Authorization header (e.g. Bearer <token>) and connect again.",
      status,
    );
  }
  if (status === 404 || status === 405) {
    return new ProxyError(
      "upstream-protocol",
      `${url} answered HTTP ${status}: there is no MCP endpoint at this address.`,
      "Check the path: MCP servers are often served at /mcp.",
      status,
    );
  }
  if (status >= 500) {
    return new ProxyError(
      "upstream-protocol",
      `The server failed with HTTP ${status}${said ? `: ${said}` : ", without saying why"}.`,
      "The server failed; try again later or check its logs (the exchanges show its whole answer).",
      status,
    );
  }
  return new ProxyError(
    "upstream-protocol",
    `The server answered HTTP ${status}${said ? `: ${said}` : ""}.`,
    "The server refused the request; the exchanges show its whole answer.",
    status,
  );
}

/** A body that should have been JSON was not (or was JSON but not a JSON-RPC message). */
/** One exchange of a connect attempt, for a message: `POST initialize → HTTP 405 (text/html)`. */
function attemptLine(e: HttpExchange): string {
  let method: unknown;
  try {
    method = (JSON.parse(e.request.body ?? "") as { method?: unknown }).method;
  } catch {
    method = undefined;
  }
  const type = headerOf(e.response?.headers, "content-type")?.split(";")[0];
  const answer = e.response ? `HTTP ${e.response.status}${type ? ` (${type})` : ""}` : "no answer";
  return `${e.request.method}${typeof method === "string" ? ` ${method}` : ""} → ${answer}`;
}

/**
 * Both transports failed on a URL (Streamable HTTP, then the HTTP+SSE fallback): what was tried, what came back, and
 * what to check. The usual cause is a URL that is not the MCP endpoint (a web page, another API, a path without /mcp),
 * which a message about the HTTP+SSE fallback alone does not make clear. `primary` is the failure that says the most
 * (its kind and status are kept); `sse` the fallback's own reason.
 */
export function noMcpTransport(
  rawUrl: string,
  primary: ProxyError,
  sse: ProxyError,
  streamableExchanges: readonly HttpExchange[],
  sseExchanges: readonly HttpExchange[],
): ProxyError {
  const url = redactServerUrl(rawUrl);
  const gets = sseExchanges.filter((e) => e.request.method === "GET");
  const sseTried = gets.length ? gets.map(attemptLine).join(", ") : "no answer";
  const streamable =
    streamableExchanges
      .filter((e) => e.request.method === "POST")
      .map(attemptLine)
      .join(", ") || "no answer";
  // The SSE reason names the URL again; only its explanation (in parentheses, or after the URL) is worth repeating.
  const reason = sse.message.startsWith(url) ? sse.message.slice(url.length).trim() : sse.message;
  return new ProxyError(
    primary.kind,
    `${url} did not answer like an MCP server on either transport. Streamable HTTP: ${streamable}. Then HTTP+SSE: ${sseTried}; it ${reason.replace(/\.$/, "")}.`,
    "Check the URL path: it must be the MCP endpoint itself, not a web page or another API. Streamable HTTP servers usually serve it at /mcp, older HTTP+SSE servers at /sse.",
    primary.upstreamStatus,
  );
}

function notJson(url: string, detail: string): ProxyError {
  return new ProxyError(
    "upstream-protocol",
    `${url} did not answer like an MCP server: its answer is not valid JSON (${clip(oneLine(detail), 200)}).`,
    "Check that the URL is the MCP endpoint itself, not a web page or another API; the exchanges show what came back.",
  );
}

/** A JSON body that is not a JSON-RPC message. */
function notJsonRpc(url: string): ProxyError {
  return new ProxyError(
    "upstream-protocol",
    `${url} did not answer like an MCP server: its answer is JSON, but not a JSON-RPC message.`,
    "Check that the URL is the MCP endpoint itself, not another JSON API; the exchanges show what came back.",
  );
}

/**
 * Turn anything thrown while talking upstream into a ProxyError with a kind, a message and a hint. `exchanges` (the
 * recorded traffic of the failed attempt, when the caller has it) let HTTP failures name what the headers say: when
 * to retry after a 429, where a redirect went.
 */
export function classifyError(err: unknown, rawUrl: string, timeoutMs: number, exchanges?: readonly HttpExchange[]): ProxyError {
  // Messages are shown, logged and kept in history: never with the URL's credentials or secret query parameters.
  const url = redactServerUrl(rawUrl);
  // Whatever the SDK made of it (an HTTP error, its own insufficient-scope error), a refusal that carries an
  // authorization challenge is the server asking for a sign-in.
  const last = exchanges?.at(-1)?.response;
  const challenge = last && !(err instanceof ProxyError) ? challengeFrom(last.status, last.headers) : undefined;
  if (challenge) return authRequired(challenge, serverText(last?.body));
  for (const e of causeChain(err)) {
    if (e instanceof ProxyError) return e;
    if (e instanceof ContractError)
      return new ProxyError("bad-request", e.message, "Fix the request as the message says and send it again.");
    if (e instanceof BlockedTargetError)
      return new ProxyError(
        "blocked-target",
        e.message,
        "Use a public https:// server, or run Toolscope locally (npm start) to reach private addresses.",
      );
    if (e instanceof ConnectionWaitTimeout) return new ProxyError("upstream-timeout", e.message, e.hint);
    if (e instanceof UpstreamBudgetError) return new ProxyError(e.kind, e.message, e.hint, undefined, e.retryAfterSeconds);
    if (e instanceof SdkHttpError) {
      const text = (e.data as { text?: unknown } | undefined)?.text;
      return describeHttpFailure(e.status, rawUrl, typeof text === "string" ? text : undefined, exchanges);
    }
    if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return timeout(url, timeoutMs);
    if (e instanceof SdkError && e.code === SdkErrorCode.ClientHttpUnexpectedContent) return unexpectedContent(url, e);
    const name = (e as { name?: string })?.name;
    const code = (e as { code?: string })?.code;
    if (name === "TimeoutError" || name === "AbortError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT")
      return timeout(url, timeoutMs);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN")
      return new ProxyError(
        "upstream-unreachable",
        `The host of ${url} could not be found (DNS lookup failed).`,
        "Check the spelling of the host name.",
      );
    if ((e as Error)?.message === "bad port")
      return new ProxyError(
        "upstream-unreachable",
        `${url} uses a port that fetch refuses (a well-known non-HTTP port).`,
        "Serve the MCP endpoint on another port.",
      );
    if (code === "ECONNREFUSED")
      return new ProxyError(
        "upstream-unreachable",
        `Nothing is listening at ${url} (connection refused).`,
        "Is the server running, and on this port?",
      );
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") {
      return new ProxyError(
        "upstream-unreachable",
        `The connection to ${url} was closed unexpectedly (${code === "UND_ERR_SOCKET" ? "the server closed the socket" : code}) before an answer arrived.`,
        "The server (or a proxy in front of it) dropped the connection: it may have crashed or restarted, or it does not speak HTTP on this port. Try again; if it keeps happening, check the server's logs.",
      );
    }
    if (code?.startsWith?.("ERR_TLS") || code?.includes?.("CERT"))
      return new ProxyError(
        "upstream-unreachable",
        `TLS failed with ${url}: ${(e as Error).message}`,
        "The server's certificate is not trusted.",
      );
    if (name === "SyntaxError") return notJson(url, (e as Error).message);
    if (name === "ZodError") return notJsonRpc(url);
  }
  // The SDK's message may quote the server (a JSON-RPC error's message): masked before it is cut.
  const message = maskText(err instanceof Error ? err.message : String(err), requestSecrets());
  if (isPinRefusal(err)) {
    // A pinned (modern) probe that met a redirect or a rate limit: that is the story, not the protocol version.
    const refused = exchanges?.find(
      (x) =>
        x.request.method === "POST" &&
        x.response &&
        (REDIRECT_STATUSES.has(x.response.status) || isRateLimitStatus(x.response.status, headerOf(x.response.headers, "retry-after"))),
    );
    if (refused?.response) return describeHttpFailure(refused.response.status, rawUrl, refused.response.body, exchanges);
    return new ProxyError(
      "upstream-protocol",
      `The exchange with ${url} failed: ${clip(oneLine(message), 500)}`,
      "Era modern pins 2026-07-28 and never falls back: connect with era auto (or legacy) to reach an older server.",
    );
  }
  return new ProxyError(
    "upstream-protocol",
    `The exchange with ${url} failed: ${clip(oneLine(message), 500)}`,
    "The exchanges show what was sent and what came back; check the server's logs for its side.",
  );
}

/**
 * The SDK's answer to a probe that gave no modern verdict where no fallback is allowed: `EraNegotiationFailed`
 * raised by the negotiation itself, so with neither an HTTP status (SdkHttpError: the probe was refused) nor a cause
 * (a network failure or an unusable reply, classified by that cause). With the legacy versions always offered and the
 * SDK's own stdio transport, pin mode (era modern) is the only way Toolscope meets it.
 */
function isPinRefusal(err: unknown): boolean {
  return (
    err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && !(err instanceof SdkHttpError) && err.cause === undefined
  );
}

/** A reply that is neither JSON nor an event stream (the SDK's ClientHttpUnexpectedContent). */
function unexpectedContent(url: string, err: SdkError): ProxyError {
  const contentType = (err.data as { contentType?: unknown } | undefined)?.contentType;
  const what = typeof contentType === "string" && contentType ? `Content-Type ${clip(oneLine(contentType), 100)}` : "no Content-Type";
  return new ProxyError(
    "upstream-protocol",
    `${url} did not answer like an MCP server: its answer has ${what}, not JSON or an event stream.`,
    "Check that the URL is the MCP endpoint itself, not a web page.",
  );
}

function timeout(url: string, timeoutMs: number): ProxyError {
  return new ProxyError(
    "upstream-timeout",
    `${url} did not answer within ${timeoutMs} ms.`,
    "The server may be down or slow; raise TOOLSCOPE_REQUEST_TIMEOUT_MS when running locally.",
  );
}

/** The JSON body our API answers with for a failure. */
export function errorBody(err: ProxyError, exchanges?: HttpExchange[]): ProxyErrorBody {
  return {
    error: {
      kind: err.kind,
      message: err.message,
      ...(err.hint ? { hint: err.hint } : {}),
      ...(exchanges?.length ? { exchanges } : {}),
      ...(err.detail?.auth ? { auth: err.detail.auth } : {}),
      ...(err.detail?.oauth ? { oauth: err.detail.oauth } : {}),
    },
  };
}

/** Headers that go with a failure's status: `Retry-After` when the failure says when to ask again. */
export function errorHeaders(err: ProxyError): Record<string, string> {
  return err.retryAfterSeconds !== undefined ? { "retry-after": String(err.retryAfterSeconds) } : {};
}

/** The JSON response (body, honest status and Retry-After) for a failure. */
export function errorResponse(err: ProxyError, exchanges?: HttpExchange[]): Response {
  return Response.json(errorBody(err, exchanges), { status: PROXY_ERROR_STATUS[err.kind], headers: errorHeaders(err) });
}
