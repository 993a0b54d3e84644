import type { EraChoice, HttpExchange } from "@/lib/mcp/contract";
import { ProxyError } from "../errors/proxy-error.ts";

/**
 * The rules around the deprecated HTTP+SSE transport (2024-11-05), kept apart from the session code so they can be
 * tested without a network: when a connect falls back to it, and where its `endpoint` event may send our POSTs.
 */

/** The statuses that, per the 2025-11-25 backwards-compatibility rules, mean "no Streamable HTTP endpoint here". */
const NOT_STREAMABLE_STATUSES = new Set([400, 404, 405]);

/** True when a body is a JSON-RPC error: a Streamable HTTP server that answered (it just did not like the request). */
function isJsonRpcError(body: string | undefined): boolean {
  if (!body) return false;
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return parsed?.jsonrpc === "2.0" && typeof parsed.error === "object" && parsed.error !== null;
  } catch {
    return false;
  }
}

function postedMethod(exchange: HttpExchange): string | undefined {
  try {
    return (JSON.parse(exchange.request.body ?? "") as { method?: string }).method;
  } catch {
    return undefined;
  }
}

/**
 * Whether a failed Streamable HTTP connect should try HTTP+SSE next (client checklist HTTP-18, HTTP-21, §2.1):
 * never for a modern pin; otherwise only when every POST failed with 400/404/405 and a body that is not a JSON-RPC
 * error (a `404` + `-32601` is a modern server answering), and the last of them was `initialize`, so the modern probe
 * (in `auto`) and the legacy handshake both failed. A timeout, a 5xx, a 401 or a refused connection is a failure, not
 * a hint that the server is older.
 */
export function wantsSseFallback(era: EraChoice, exchanges: readonly HttpExchange[]): boolean {
  if (era === "modern") return false;
  const posts = exchanges.filter((e) => e.request.method === "POST");
  const last = posts.at(-1);
  if (!last || postedMethod(last) !== "initialize") return false;
  return posts.every((e) => e.response !== undefined && NOT_STREAMABLE_STATUSES.has(e.response.status) && !isJsonRpcError(e.response.body));
}

/**
 * Where the server's `endpoint` event tells us to POST: resolved against the URL of the event stream, and refused on
 * any other origin. The user named one server; an event must not redirect our messages (and the user's headers) to
 * another host. The address itself is still checked by the egress at connect time, like every request.
 */
export function resolveSseEndpoint(data: string, streamUrl: URL): URL {
  let endpoint: URL;
  try {
    endpoint = new URL(data.trim(), streamUrl);
  } catch {
    throw new ProxyError(
      "upstream-protocol",
      `The HTTP+SSE endpoint event holds ${JSON.stringify(data.slice(0, 200))}, which is not a URL.`,
    );
  }
  if (endpoint.origin !== streamUrl.origin) {
    throw new ProxyError(
      "upstream-protocol",
      `The HTTP+SSE endpoint event points to ${endpoint.origin}, another origin than the server's (${streamUrl.origin}); Toolscope only sends messages to the server you named.`,
      "A legacy SSE server must name a message endpoint on its own origin (usually a path such as /message?sessionId=…).",
    );
  }
  return endpoint;
}
