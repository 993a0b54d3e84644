import "server-only";
import type { HeaderLimits } from "@/lib/mcp/contract-guards";
import { findUnsafeIntegers, unsafeIntegerMessage } from "@/lib/mcp/safe-integers";
import { PROXY_ERROR_STATUS, type ProxyErrorBody, type RpcStreamEvent } from "@/lib/mcp/contract";
import { ConcurrencySlots, LimitError, type SlotKind } from "../limits/abuse-limits.ts";
import { admission, AdmissionError } from "../limits/admission.ts";
import { clientIdentity } from "../limits/client-identity.ts";
import { config, type Config } from "../platform/config.ts";
import { onShutdown } from "../../runtime/lifecycle.ts";
import { log } from "../../log/log.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";
import { publicOrigin } from "../platform/public-origin.ts";
import { classifyError, errorBody, errorHeaders, errorResponse, ProxyError } from "@/lib/upstream/policy";
import { ExchangeFailure } from "@/lib/upstream";
import { openCall } from "./rpc-control.ts";
import { readCapped } from "./read-capped.ts";
import { routeClass } from "../limits/route-classes.ts";
import type { ServerRequestAsker } from "@/lib/upstream";
import { requestSecretValues, type SecretValues } from "@/lib/mcp/mask-text";
import { withRequestSecrets } from "@/lib/upstream/policy";
import { budgetLimits, withUpstreamBudget } from "@/lib/upstream/policy";

export interface ApiContext {
  config: Config;
  /** Our own origin, for display URLs of builtin servers. */
  origin: string;
  /** Aborts when the browser goes away (or cancels). */
  signal: AbortSignal;
  /** Set when the caller asked for a stream: progress and upstream events go out as they happen. */
  emit?: (event: RpcStreamEvent) => void;
  /** Set on a streamed call: the server's requests go to the browser on the stream and its answers come back. */
  asker?: ServerRequestAsker;
}

/** UTF-8 text as TextDecoder gives it (a leading byte-order mark dropped), without making a decoder per request. */
function utf8Text(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function readJson(req: Request, maxBytes: number, timeoutMs: number): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes)
    throw new ProxyError("too-large", `The request body is ${declared} bytes; the limit is ${maxBytes} (TOOLSCOPE_MAX_REQUEST_BYTES).`);
  if (!req.body) throw new ProxyError("bad-request", "The request has no body; send a JSON object.");
  const bytes = await readCapped(
    req.body,
    maxBytes,
    () => new ProxyError("too-large", `The request body exceeds ${maxBytes} bytes (TOOLSCOPE_MAX_REQUEST_BYTES).`),
    {
      ms: timeoutMs,
      tooSlow: () =>
        new ProxyError(
          "request-timeout",
          `The request body did not arrive within ${timeoutMs} ms (TOOLSCOPE_BODY_READ_TIMEOUT_MS).`,
          "Send the whole body at once. On a slow link, an operator can raise TOOLSCOPE_BODY_READ_TIMEOUT_MS.",
        ),
    },
  );
  const text = utf8Text(bytes);
  // JSON.parse would round them silently: a tool argument would change without a word.
  const unsafe = findUnsafeIntegers(text);
  if (unsafe.length) throw new ProxyError("bad-request", unsafeIntegerMessage(unsafe));
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ProxyError("bad-request", `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The typed error body, status and headers (Retry-After) for anything thrown by a run; classified among the request's
 * secrets, so the message and the log line never hold the user's header values (a server may echo them).
 */
function failure(
  err: unknown,
  url: string,
  cfg: Config,
  secrets: SecretValues,
): { status: number; body: ProxyErrorBody; headers: Record<string, string> } {
  return withRequestSecrets(secrets, () => failureOf(err, url, cfg));
}

function failureOf(err: unknown, url: string, cfg: Config): { status: number; body: ProxyErrorBody; headers: Record<string, string> } {
  const cause = err instanceof ExchangeFailure ? err.cause : err;
  const exchanges = err instanceof ExchangeFailure ? err.exchanges : undefined;
  const proxyError = classifyError(cause, url, cfg.requestTimeoutMs, exchanges);
  if (proxyError.kind === "upstream-protocol" && !(cause instanceof ProxyError))
    log.warn("upstream failure", { kind: proxyError.kind, reason: proxyError.message.slice(0, 300) });
  return { status: PROXY_ERROR_STATUS[proxyError.kind], body: errorBody(proxyError, exchanges), headers: errorHeaders(proxyError) };
}

/** The last event of a stream cut short by a shutdown: the browser shows it and (live docs) reconnects elsewhere. */
const SHUTDOWN_EVENT_BODY: RpcStreamEvent = {
  type: "error",
  status: 503,
  body: errorBody(
    new ProxyError(
      "unavailable",
      "Toolscope is restarting: this stream was closed.",
      "Send the request again in a moment; live updates reconnect on their own.",
    ),
  ),
};

/**
 * Answer as Server-Sent Events: events while the run goes, then its result or error. Closing the stream cancels
 * the run (through `stop`); so does a shutdown, after a last `unavailable` event.
 */
function streamResponse(
  run: (emit: (e: RpcStreamEvent) => void) => Promise<RpcStreamEvent>,
  stop: AbortController,
  done: () => void,
  headers: Record<string, string>,
): Response {
  const encoder = new TextEncoder();
  let open = true;
  let unsubscribe = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (e: RpcStreamEvent) => {
        if (open) controller.enqueue(encoder.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
      };
      const finish = () => {
        if (open) controller.close();
        open = false;
      };
      unsubscribe = onShutdown(() => {
        send(SHUTDOWN_EVENT_BODY);
        finish();
        stop.abort();
      });
      try {
        send(await run(send));
      } finally {
        unsubscribe();
        done();
      }
      finish();
    },
    // The browser went away: later events have nowhere to go (enqueueing would throw ERR_INVALID_STATE).
    cancel() {
      open = false;
      stop.abort();
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no", ...headers },
  });
}

/** For the request's log line (scripts/server.mjs takes it off before the response goes out): which host was reached. */
function upstreamHostHeader(url: string): Record<string, string> {
  try {
    return url.startsWith("http") ? { "x-toolscope-upstream-host": new URL(url).host } : { "x-toolscope-upstream-host": url.split(":")[0] };
  } catch {
    return {};
  }
}

/**
 * The shape of every proxy route: read and validate the body, run, answer JSON (or, when `streamable` and asked
 * for with `Accept: text/event-stream`, an event stream); failures become a typed error body with an honest status.
 * Nothing about the request (headers included) is logged.
 */
export async function handleApi<T>(
  req: Request,
  parse: (body: unknown, limits: HeaderLimits) => T,
  run: (input: T, ctx: ApiContext) => Promise<unknown>,
  urlOf: (input: T) => string,
  options: { streamable?: boolean } = {},
): Promise<Response> {
  let cfg: Config;
  try {
    cfg = config();
  } catch (err) {
    return errorResponse(new ProxyError("internal", `Toolscope is misconfigured: ${(err as Error).message}`));
  }
  const streamed = options.streamable === true && (req.headers.get("accept") ?? "").includes("text/event-stream");
  // Admitted (admission.ts) and given the client's slot before the body is read, so that bodies still arriving count
  // against both: a client sending slowly holds its own slots, not memory beside them. Streamed calls are bounded
  // by the stream caps instead (a listen stream may last half an hour: it must not hold the rpc class's room).
  let release: () => void;
  try {
    release = enter(req, cfg, streamed);
  } catch (err) {
    return limitedResponse(err);
  }
  let input: T;
  try {
    input = parse(await readJson(req, cfg.maxRequestBytes, cfg.bodyReadTimeoutMs), {
      maxCount: cfg.maxUserHeaders,
      maxBytes: cfg.maxUserHeaderBytes,
    });
  } catch (err) {
    release();
    return errorResponse(classifyError(err, "", cfg.requestTimeoutMs));
  }
  const ctx: ApiContext = { config: cfg, origin: publicOrigin(req.headers, cfg), signal: req.signal };
  // The user's header values and tokens: every error made while this request runs is masked with them.
  const secrets = requestSecretValues(input);
  const upstream = upstreamHostHeader(urlOf(input));
  if (streamed) {
    // One controller for the run: aborted when the browser leaves (req.signal) or the stream is closed by a shutdown.
    const stop = new AbortController();
    const onLeave = () => stop.abort();
    req.signal.addEventListener("abort", onLeave, { once: true });
    const done = () => {
      req.signal.removeEventListener("abort", onLeave);
      release();
    };
    return streamResponse(
      async (emit) => {
        // Answerable: POST /api/rpc/answer and /api/rpc/cancel name the stream by the id of its first event.
        const call = await openCall(emit, () => stop.abort(), cfg);
        emit({ type: "stream", streamId: call.streamId });
        try {
          const body = await withRequestSecrets(secrets, () =>
            withUpstreamBudget(budgetLimits(cfg), () => run(input, { ...ctx, signal: stop.signal, emit, asker: call.asker })),
          );
          return { type: "result", body: body as never };
        } catch (err) {
          const { status, body } = failure(err, urlOf(input), cfg, secrets);
          return { type: "error", status, body };
        } finally {
          call.close();
        }
      },
      stop,
      done,
      upstream,
    );
  }
  try {
    const body = await withRequestSecrets(secrets, () => withUpstreamBudget(budgetLimits(cfg), () => run(input, ctx)));
    return Response.json(body, { headers: { "cache-control": "no-store", ...upstream } });
  } catch (err) {
    const { status, body, headers } = failure(err, urlOf(input), cfg, secrets);
    return Response.json(body, { status, headers: { ...upstream, ...headers } });
  } finally {
    release();
  }
}

/** The process's caps on upstream requests and open streams in flight (hosted mode: see LimitsConfig). */
function slots(cfg: Config, kind: SlotKind): ConcurrencySlots {
  const l = cfg.limits;
  return processSingleton(`slots.${kind}`, () =>
    kind === "stream"
      ? new ConcurrencySlots("stream", l.maxStreamsPerClient, l.maxStreamsTotal)
      : new ConcurrencySlots("request", l.maxConcurrentPerClient, l.maxConcurrentTotal),
  );
}

/** Take a concurrency slot for this request's client when limits are on; the result gives it back. */
export function takeSlot(req: { headers: { get(name: string): string | null } }, cfg: Config, kind: SlotKind): () => void {
  if (!cfg.limits.enabled) return () => {};
  return slots(cfg, kind).acquire(clientIdentity(req.headers, cfg.trustProxy));
}

/** Admission for the request's route class, then the client's slot; the result gives both back. */
function enter(req: Request, cfg: Config, streamed: boolean): () => void {
  const c = streamed ? undefined : routeClass(new URL(req.url).pathname, req.method);
  const leave = c ? admission(cfg).admit(c) : () => {};
  try {
    const giveBack = takeSlot(req, cfg, streamed ? "stream" : "request");
    return () => {
      giveBack();
      leave();
    };
  } catch (err) {
    leave();
    throw err;
  }
}

/** A 429 with Retry-After for a concurrency refusal, a 503 with Retry-After for a full instance. */
function limitedResponse(err: unknown): Response {
  if (err instanceof AdmissionError) return errorResponse(err);
  if (!(err instanceof LimitError)) throw err;
  return Response.json(errorBody(err), {
    status: 429,
    headers: { "retry-after": String(err.retryAfterSeconds), "cache-control": "no-store" },
  });
}
