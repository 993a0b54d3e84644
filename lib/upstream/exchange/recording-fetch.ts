import type { HttpExchange, SseEvent } from "@/lib/mcp/contract";
import { maskHeaders } from "@/lib/mcp/secrets";
import { SseParser } from "@/lib/mcp/sse-parser";
import { headersView } from "./headers-view.ts";

/** Bodies longer than this are cut in the recorded exchange (the SDK still reads the whole response). */
export const MAX_RECORDED_BODY_CHARS = 200_000;
/**
 * The recorded events of one event stream share a budget of the same size (their data, names and ids, plus a
 * per-event overhead). Later events still reach the SDK and `onSseEvent`; the record only counts them.
 */
export const MAX_RECORDED_SSE_CHARS = MAX_RECORDED_BODY_CHARS;
/** What a recorded event costs besides its fields (its JSON shape), so a flood of empty events is bounded too. */
const RECORDED_EVENT_OVERHEAD_CHARS = 32;

export interface Recorder {
  fetch: typeof fetch;
  exchanges: HttpExchange[];
}

function headerPairs(headers: HeadersInit | undefined): [string, string][] {
  return [...headersView(headers).entries()];
}

function bodyText(body: BodyInit | null | undefined): string | undefined {
  if (body === undefined || body === null) return undefined;
  return typeof body === "string" ? body : `[${Object.prototype.toString.call(body)}]`;
}

type RecordedResponse = NonNullable<HttpExchange["response"]>;

/** The first `n` characters of `text`, without splitting a surrogate pair. */
function cut(text: string, n: number): string {
  const head = text.slice(0, n);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

/**
 * Records a response's SSE events until MAX_RECORDED_SSE_CHARS is spent: the event that crosses the line is kept with
 * its data cut, later ones are only counted, so the record stays a gapless prefix of the stream.
 */
function eventLog(response: RecordedResponse): (event: SseEvent) => void {
  let left = MAX_RECORDED_SSE_CHARS;
  const omit = (count: number, bytes: number) => {
    const omitted = (response.sseEventsOmitted ??= { count: 0, bytes: 0 });
    omitted.count += count;
    omitted.bytes += bytes;
  };
  return (event) => {
    const room = left - RECORDED_EVENT_OVERHEAD_CHARS - (event.event?.length ?? 0) - (event.id?.length ?? 0);
    if (left <= 0 || room < 0) {
      left = 0;
      return omit(1, Buffer.byteLength(event.data));
    }
    if (event.data.length <= room) {
      response.sseEvents.push(event);
      left = room - event.data.length;
      return;
    }
    const kept = cut(event.data, room);
    response.sseEvents.push({ ...event, data: kept });
    left = 0;
    omit(0, Buffer.byteLength(event.data) - Buffer.byteLength(kept));
  };
}

export interface RecorderOptions {
  secretHeaderNames: string[];
  maxBodyBytes: number;
  onSseEvent?: (e: SseEvent) => void;
  /** A response turned out to be an event stream (its headers arrived). */
  onStreamOpen?: () => void;
  /** Bytes of a response body arrived (comments and keep-alives included): the stream is alive. */
  onBytes?: () => void;
}

/**
 * Wraps a fetch so every request/response pair is recorded as it crosses the wire, secrets masked.
 * Response bodies are observed through a pass-through stream, so SSE keeps streaming to the SDK.
 */
export function createRecorder(inner: typeof fetch, opts: RecorderOptions): Recorder {
  const exchanges: HttpExchange[] = [];
  const recordedFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const started = performance.now();
    const url = input instanceof Request ? input.url : String(input);
    const exchange: HttpExchange = {
      request: {
        method: init?.method ?? "GET",
        url,
        headers: maskHeaders(headerPairs(init?.headers), opts.secretHeaderNames),
        body: bodyText(init?.body),
      },
      startedAt: new Date().toISOString(),
      durationMs: 0,
    };
    exchanges.push(exchange);
    let res: Response;
    try {
      res = await inner(input, init);
    } catch (err) {
      exchange.error = (err as Error).message;
      exchange.durationMs = performance.now() - started;
      throw err;
    }
    const response: RecordedResponse = {
      status: res.status,
      statusText: res.statusText,
      headers: maskHeaders([...res.headers.entries()], opts.secretHeaderNames),
      sseEvents: [],
    };
    exchange.response = response;
    exchange.durationMs = performance.now() - started;
    if (!res.body) return res;
    const isSse = (res.headers.get("content-type") ?? "").includes("text/event-stream");
    if (isSse) opts.onStreamOpen?.();
    const record = eventLog(response);
    const parser = new SseParser((e) => {
      const event = { ...e, atMs: Math.round(performance.now() - started) };
      // Only the record is capped: the consumer gets every event whole.
      record(event);
      opts.onSseEvent?.(event);
    });
    const decoder = new TextDecoder();
    let text = "";
    let bytes = 0;
    // A pull stream over the body's reader rather than pipeThrough(TransformStream): the same chunks for one promise
    // per chunk instead of a pipe's several, on every proxied call (issue 15's profile).
    const reader = res.body.getReader();
    const observed = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value: chunk } = await reader.read();
        if (done) {
          exchange.durationMs = performance.now() - started;
          if (!isSse) response.body = text.slice(0, MAX_RECORDED_BODY_CHARS);
          return controller.close();
        }
        opts.onBytes?.();
        bytes += chunk.byteLength;
        if (bytes > opts.maxBodyBytes) {
          controller.error(new Error(`The upstream response exceeded ${opts.maxBodyBytes} bytes (TOOLSCOPE_MAX_RESPONSE_BYTES).`));
          await reader.cancel().catch(() => undefined);
          return;
        }
        const piece = decoder.decode(chunk, { stream: true });
        if (isSse) parser.push(piece);
        else if (text.length < MAX_RECORDED_BODY_CHARS) text += piece;
        controller.enqueue(chunk);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(observed, { status: res.status, statusText: res.statusText, headers: res.headers });
  }) as typeof fetch;
  return { fetch: recordedFetch, exchanges };
}
