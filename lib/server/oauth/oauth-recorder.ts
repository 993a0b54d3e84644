import "server-only";
import type { HttpExchange } from "@/lib/mcp/contract";
import type { OAuthStep } from "@/lib/mcp/oauth-contract";
import { maskHeaders, maskValue } from "@/lib/mcp/secrets";
import { readCapped } from "../api/read-capped.ts";

/**
 * Fields of OAuth requests and responses that are credentials: never shown, logged or kept, only their length.
 * (`code` and `code_verifier` are one-time, but a code caught before it is redeemed is a token.)
 */
const SECRET_FIELDS = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "code",
  "code_verifier",
  "token",
  "assertion",
  "client_assertion",
  "registration_access_token",
  "subject_token",
  "actor_token",
]);

/** Longest authorization-server answer Toolscope reads: metadata and token responses are a few KB. */
export const MAX_OAUTH_RESPONSE_BYTES = 1_000_000;

function maskJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskJson);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.has(k) && typeof v === "string" ? maskValue(v) : maskJson(v)]),
    );
  return value;
}

/** A body with its credentials masked: JSON objects field by field, form bodies parameter by parameter. */
export function maskOAuthBody(text: string | undefined): string | undefined {
  if (text === undefined || text === "") return text;
  try {
    return JSON.stringify(maskJson(JSON.parse(text)), null, 2);
  } catch {
    // Not JSON: a form body (token and registration requests) or text.
  }
  if (/^[\w.%~-]+=[^&]*(&[\w.%~-]+=[^&]*)*$/.test(text.trim())) {
    // Decoded for reading: the record is for people, not for replaying.
    return [...new URLSearchParams(text)].map(([k, v]) => `${k}=${SECRET_FIELDS.has(k) ? maskValue(v) : v}`).join("&");
  }
  return text.length > 4_000 ? `${text.slice(0, 4_000)}…` : text;
}

/** A URL with its credential-bearing query parameters masked (an authorization callback carries the code). */
export function maskOAuthUrl(raw: string): string {
  try {
    const url = new URL(raw);
    for (const k of [...url.searchParams.keys()]) if (SECRET_FIELDS.has(k)) url.searchParams.set(k, "••••");
    return url.toString();
  } catch {
    return raw;
  }
}

function bodyText(body: BodyInit | null | undefined): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof URLSearchParams) return body.toString();
  return `[${Object.prototype.toString.call(body)}]`;
}

export interface OAuthRecorder {
  fetch: typeof fetch;
  exchanges: HttpExchange[];
}

/**
 * Wraps the egress-guarded fetch for authorization-server traffic: each exchange is recorded with its credentials
 * masked (headers, JSON and form bodies, query), the answer is read whole within MAX_OAUTH_RESPONSE_BYTES, and every
 * request is bounded by `timeoutMs` and `signal` (the browser left).
 */
export function createOAuthRecorder(inner: typeof fetch, timeoutMs: number, signal: AbortSignal): OAuthRecorder {
  const exchanges: HttpExchange[] = [];
  const recorded = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const started = performance.now();
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : "GET");
    const headers = [...new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).entries()];
    const exchange: HttpExchange = {
      request: { method, url: maskOAuthUrl(url), headers: maskHeaders(headers), body: maskOAuthBody(bodyText(init?.body)) },
      startedAt: new Date().toISOString(),
      durationMs: 0,
    };
    exchanges.push(exchange);
    try {
      const res = await inner(input, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
      const text = new TextDecoder().decode(
        await readCapped(
          res.body,
          MAX_OAUTH_RESPONSE_BYTES,
          () => new Error(`The authorization server's answer exceeded ${MAX_OAUTH_RESPONSE_BYTES} bytes.`),
        ),
      );
      exchange.durationMs = performance.now() - started;
      exchange.response = {
        status: res.status,
        statusText: res.statusText,
        headers: maskHeaders([...res.headers.entries()]),
        body: maskOAuthBody(text),
        sseEvents: [],
      };
      return new Response(res.status === 204 || res.status === 304 ? null : text, {
        status: res.status,
        statusText: res.statusText,
        headers: res.headers,
      });
    } catch (err) {
      exchange.durationMs = performance.now() - started;
      exchange.error = (err as Error).message;
      throw err;
    }
  }) as typeof fetch;
  return { fetch: recorded, exchanges };
}

/** Which step of the flow an authorization-server exchange was, from its address and body. */
export function stepKindOf(exchange: HttpExchange): OAuthStep["kind"] {
  const { url, method, body } = exchange.request;
  let path = "";
  try {
    path = new URL(url).pathname;
  } catch {
    return "other";
  }
  if (path.includes("/.well-known/oauth-protected-resource")) return "resource-metadata";
  if (path.includes("/.well-known/oauth-authorization-server") || path.includes("/.well-known/openid-configuration"))
    return "authorization-server-metadata";
  if (method === "POST" && body?.includes("grant_type=refresh_token")) return "refresh";
  if (method === "POST" && body?.includes("grant_type=")) return "token";
  if (method === "POST" && /"redirect_uris"/.test(body ?? "")) return "registration";
  if (method === "POST" && /(^|&)token=/.test(body ?? "")) return "revocation";
  if (method === "GET") return "resource-metadata";
  return "other";
}
