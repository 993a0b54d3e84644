import "server-only";
import { SdkError, SdkHttpError } from "@modelcontextprotocol/client";
import { PROXY_ERROR_STATUS, type HttpExchange, type ProxyErrorBody, type ProxyErrorKind } from "@/lib/mcp/contract";
import { ContractError } from "@/lib/mcp/contract-guards";
import { redactServerUrl } from "@/lib/mcp/secrets";
import { BlockedTargetError } from "./egress.ts";

/** "We couldn't ask": a failure of the proxy, the network or the request to our API, never the server's answer. */
export class ProxyError extends Error {
  constructor(
    readonly kind: ProxyErrorKind,
    message: string,
    readonly hint?: string,
    /** The upstream HTTP status behind the failure, when there was one (tells an outage from a refusal). */
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = "ProxyError";
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

function describeHttpFailure(status: number, url: string): ProxyError {
  if (status === 401 || status === 403) {
    return new ProxyError("upstream-protocol", `The server answered HTTP ${status}: it needs credentials.`, "Add an Authorization header (e.g. Bearer <token>) and connect again.", status);
  }
  if (status === 404 || status === 405) {
    return new ProxyError("upstream-protocol", `${url} answered HTTP ${status}: there is no MCP endpoint at this address.`, "Check the path: MCP servers are often served at /mcp.", status);
  }
  return new ProxyError("upstream-protocol", `The server answered HTTP ${status}.`, status >= 500 ? "The server failed; try again later or check its logs." : undefined, status);
}

/** Turn anything thrown while talking upstream into a ProxyError with a kind, a message and a hint. */
export function classifyError(err: unknown, rawUrl: string, timeoutMs: number): ProxyError {
  // Messages are shown, logged and kept in history: never with the URL's credentials or secret query parameters.
  const url = redactServerUrl(rawUrl);
  for (const e of causeChain(err)) {
    if (e instanceof ProxyError) return e;
    if (e instanceof ContractError) return new ProxyError("bad-request", e.message);
    if (e instanceof BlockedTargetError) return new ProxyError("blocked-target", e.message, "Use a public https:// server, or run Toolscope locally (npm start) to reach private addresses.");
    if (e instanceof SdkHttpError) return describeHttpFailure(e.status, url);
    if (e instanceof SdkError && e.code === "REQUEST_TIMEOUT") return timeout(url, timeoutMs);
    const name = (e as { name?: string })?.name;
    const code = (e as { code?: string })?.code;
    if (name === "TimeoutError" || name === "AbortError" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return timeout(url, timeoutMs);
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new ProxyError("upstream-unreachable", `The host of ${url} could not be found (DNS lookup failed).`, "Check the spelling of the host name.");
    if ((e as Error)?.message === "bad port") return new ProxyError("upstream-unreachable", `${url} uses a port that fetch refuses (a well-known non-HTTP port).`, "Serve the MCP endpoint on another port.");
    if (code === "ECONNREFUSED") return new ProxyError("upstream-unreachable", `Nothing is listening at ${url} (connection refused).`, "Is the server running, and on this port?");
    if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return new ProxyError("upstream-unreachable", `The connection to ${url} was closed unexpectedly.`);
    if (code?.startsWith?.("ERR_TLS") || code?.includes?.("CERT")) return new ProxyError("upstream-unreachable", `TLS failed with ${url}: ${(e as Error).message}`, "The server's certificate is not trusted.");
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/content.type|unexpected content|not valid JSON|Unexpected token/i.test(message)) {
    return new ProxyError("upstream-protocol", `${url} did not answer like an MCP server: ${message}`, "Check that the URL is the MCP endpoint itself, not a web page.");
  }
  return new ProxyError("upstream-protocol", `The exchange with ${url} failed: ${message}`);
}

function timeout(url: string, timeoutMs: number): ProxyError {
  return new ProxyError("upstream-timeout", `${url} did not answer within ${timeoutMs} ms.`, "The server may be down or slow; raise TOOLSCOPE_REQUEST_TIMEOUT_MS when running locally.");
}

/** The JSON body our API answers with for a failure. */
export function errorBody(err: ProxyError, exchanges?: HttpExchange[]): ProxyErrorBody {
  return { error: { kind: err.kind, message: err.message, ...(err.hint ? { hint: err.hint } : {}), ...(exchanges?.length ? { exchanges } : {}) } };
}

/** The JSON response (body and honest status) for a failure. */
export function errorResponse(err: ProxyError, exchanges?: HttpExchange[]): Response {
  return Response.json(errorBody(err, exchanges), { status: PROXY_ERROR_STATUS[err.kind] });
}
