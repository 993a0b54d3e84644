import "server-only";
import type { HeaderLimits } from "@/lib/mcp/contract-guards";
import { config, type Config } from "./config.ts";
import { classifyError, errorResponse, ProxyError } from "./proxy-error.ts";
import { ExchangeFailure } from "./upstream-exchange.ts";

export interface ApiContext {
  config: Config;
  /** Our own origin, for display URLs of builtin servers. */
  origin: string;
  /** Aborts when the browser goes away. */
  signal: AbortSignal;
}

async function readJson(req: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ProxyError("too-large", `The request body is ${declared} bytes; the limit is ${maxBytes} (TOOLSCOPE_MAX_REQUEST_BYTES).`);
  const reader = req.body?.getReader();
  if (!reader) throw new ProxyError("bad-request", "The request has no body; send a JSON object.");
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new ProxyError("too-large", `The request body exceeds ${maxBytes} bytes (TOOLSCOPE_MAX_REQUEST_BYTES).`);
    }
    chunks.push(value);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ProxyError("bad-request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The shape of every proxy route: read and validate the body, run, answer JSON; failures become
 * a typed error body with an honest status. Nothing about the request (headers included) is logged.
 */
export async function handleApi<T>(
  req: Request,
  parse: (body: unknown, limits: HeaderLimits) => T,
  run: (input: T, ctx: ApiContext) => Promise<unknown>,
  urlOf: (input: T) => string,
): Promise<Response> {
  let cfg: Config;
  try {
    cfg = config();
  } catch (err) {
    return errorResponse(new ProxyError("internal", `Toolscope is misconfigured: ${(err as Error).message}`));
  }
  let input: T;
  try {
    input = parse(await readJson(req, cfg.maxRequestBytes), { maxCount: cfg.maxUserHeaders, maxBytes: cfg.maxUserHeaderBytes });
  } catch (err) {
    return errorResponse(classifyError(err, "", cfg.requestTimeoutMs));
  }
  try {
    const body = await run(input, { config: cfg, origin: new URL(req.url).origin, signal: req.signal });
    return Response.json(body, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    const cause = err instanceof ExchangeFailure ? err.cause : err;
    const proxyError = classifyError(cause, urlOf(input), cfg.requestTimeoutMs);
    if (proxyError.kind === "upstream-protocol" && !(cause instanceof ProxyError)) console.warn(`[toolscope] upstream failure: ${proxyError.message}`);
    return errorResponse(proxyError, err instanceof ExchangeFailure ? err.exchanges : undefined);
  }
}
