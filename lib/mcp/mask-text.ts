/*
 * The one masking rule for text that leaves Toolscope: an error message, a log line, a stored snapshot. Servers echo
 * what they were sent (debug pages, "invalid api key <key>" errors, a JSON-RPC error quoting the request), so any
 * text built from a server's answer may hold the user's own header values: every occurrence of every value, in the
 * spellings a server is likely to echo it in, is replaced by MASK before the text is shown, logged or stored.
 * Pure (no Node APIs): the server enters the values once per request (lib/upstream/errors/request-secrets.ts).
 */
import { looksLikeSecretValue } from "./secrets.ts";

/** What replaces a secret in a message, a log line or a snapshot. */
export const MASK = "••••";

/** Values shorter than this are not masked: too short to be a credential, too common to hide (`1`, `on`, `eu`). */
export const MIN_SECRET_CHARS = 4;

/** The user's secret values in every spelling looked for; make with {@link secretValues}. */
export interface SecretValues {
  /** The values as given. */
  readonly values: readonly string[];
  /** Every spelling, longest first. */
  readonly forms: readonly string[];
  /** One case-insensitive pattern matching any of `forms` (undefined: nothing to mask). */
  readonly pattern?: RegExp;
}

export const NO_SECRETS: SecretValues = { values: [], forms: [] };

/** Authorization schemes whose credential is also looked for on its own (`Bearer <token>` echoed as `<token>`). */
const SCHEME = /^(?:Bearer|Basic|Token|DPoP|Digest|ApiKey|Key)\s+(\S.*)$/i;

/** The same normalisation serverText applies (one line, no control or format characters, single spaces). */
function oneLine(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** `user:password` and `password` of a Basic credential, when it decodes to one. */
function basicParts(credential: string): string[] {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credential)) return [];
  let decoded: string;
  try {
    decoded = atob(credential);
  } catch {
    return [];
  }
  const colon = decoded.indexOf(":");
  if (colon < 0 || /[\p{Cc}]/u.test(decoded)) return [];
  return [decoded, decoded.slice(colon + 1)];
}

/** The spellings of one value a server may echo: as sent, on one line, its bare credential, URL-, JSON- and HTML-escaped. */
function spellings(value: string): string[] {
  const base = new Set<string>([value, value.trim(), oneLine(value)]);
  for (const v of [...base]) {
    const credential = SCHEME.exec(v)?.[1];
    if (credential) {
      base.add(credential);
      for (const part of basicParts(credential)) base.add(part);
    }
  }
  const out = new Set<string>();
  for (const v of base) {
    out.add(v);
    out.add(encodeURIComponent(v));
    out.add(JSON.stringify(v).slice(1, -1));
    out.add(v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;"));
  }
  return [...out];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The values to mask (e.g. the user's header values), in every spelling {@link maskText} looks for. */
export function secretValues(values: Iterable<string | undefined | null>): SecretValues {
  const given = [...values].filter((v): v is string => typeof v === "string");
  const forms = new Set<string>();
  for (const value of given) for (const form of spellings(value)) if (form.length >= MIN_SECRET_CHARS) forms.add(form);
  if (forms.size === 0) return NO_SECRETS;
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  return { values: given, forms: sorted, pattern: new RegExp(sorted.map(escapeRegExp).join("|"), "gi") };
}

/** Both sets at once (a nested scope keeps the outer request's values). */
export function mergeSecrets(a: SecretValues, b: SecretValues): SecretValues {
  if (!b.pattern) return a;
  if (!a.pattern) return b;
  return secretValues([...a.values, ...b.values]);
}

/**
 * The start of a secret left where a clip cut it (`abc…` of `abcdef`, or the text ends there): every clip in the
 * proxy keeps a head, so the head of a secret is what a clip leaves. Masked while MIN_SECRET_CHARS of it are left;
 * compared as sent (a server echoes verbatim; the whole values are matched in any case).
 */
function maskClipped(text: string, forms: readonly string[]): string {
  const cuts: number[] = [];
  for (const m of text.matchAll(/\s?…/g)) cuts.push(m.index);
  cuts.push(text.length);
  const spans: [number, number][] = [];
  for (const cut of cuts) {
    if (cut < MIN_SECRET_CHARS) continue;
    for (const form of forms) {
      if (form.length <= MIN_SECRET_CHARS) continue;
      const head = form.slice(0, MIN_SECRET_CHARS);
      for (
        let at = text.lastIndexOf(head, cut - MIN_SECRET_CHARS);
        at >= 0 && cut - at < form.length;
        at = text.lastIndexOf(head, at - 1)
      ) {
        if (form.startsWith(text.slice(at, cut))) {
          spans.push([at, cut]);
          break;
        }
        if (at === 0) break;
      }
    }
  }
  if (spans.length === 0) return text;
  // Spans of several spellings overlap (`Bearer abc…` and `abc…`): mask their union, from the end.
  spans.sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  let out = text;
  for (const [from, to] of merged.reverse()) out = `${out.slice(0, from)}${MASK}${out.slice(to)}`;
  return out;
}

/** `text` with every spelling of every secret value replaced by MASK, whole or cut short by a clip. */
export function maskText(text: string, secrets: SecretValues): string {
  if (!secrets.pattern || !text) return text;
  return maskClipped(text.replace(secrets.pattern, MASK), secrets.forms);
}

/**
 * A server's own words for a message: {@link maskText}, and credential-looking words masked too (`Bearer …`, a
 * JWT, a long random token), whoever's they are. Only for the server's text: our own messages say "Bearer <token>".
 */
export function maskServerText(text: string, secrets: SecretValues): string {
  return maskText(text, secrets)
    .replace(/\b(Bearer|Basic|Token|DPoP)\s+\S+/gi, `$1 ${MASK}`)
    .split(" ")
    .map((word) => {
      const bare = word.replace(/^[("'“‘[{<]+|[)"'”’\]}>.,;:!?]+$/g, "");
      return bare.length >= 16 && looksLikeSecretValue(bare) ? word.replace(bare, MASK) : word;
    })
    .join(" ");
}

/** A JSON value (a snapshot's definitions) with {@link maskText} applied to every string in it, keys included. */
export function maskJson<T>(value: T, secrets: SecretValues): T {
  if (!secrets.pattern) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return maskText(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === "object" && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [maskText(k, secrets), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * The user's secrets in a request body to our API: every user header value (`headers`, `headerOverrides`) and the
 * OAuth state's tokens, client secret, PKCE verifier and authorization code. Read by field name from any route's
 * input, so a new route that carries headers is covered without saying so.
 */
export function requestSecretValues(input: unknown): SecretValues {
  const values: unknown[] = [];
  const obj = (v: unknown): Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const body = obj(input);
  for (const field of ["headers", "headerOverrides"]) values.push(...Object.values(obj(body[field])));
  const state = obj(body.state);
  const tokens = obj(state.tokens);
  values.push(tokens.access_token, tokens.refresh_token, tokens.id_token, obj(state.client).client_secret, state.codeVerifier);
  values.push(obj(body.preregistered).clientSecret, obj(body.callback).code);
  return secretValues(values.filter((v): v is string => typeof v === "string"));
}
