import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import type { Dispatcher } from "undici";
import { headersView } from "../exchange/headers-view.ts";

/**
 * A `fetch` for the proxy's hot path built on undici's `dispatcher.request()` instead of undici's `fetch`.
 *
 * Every MCP request the SDK transport makes goes through our fetch with `redirect: "manual"` (the SDK follows
 * same-origin redirects itself), a string body and plain headers. For those, undici's WHATWG fetch costs about three
 * times the CPU of a plain request (measured: 0.84 vs 0.28 ms per call to a local server, `scripts/bench/profile.ts`
 * and issue 15's note): it clones the request, streams a string body as chunked iterable writes, and runs the fetch
 * algorithm's bookkeeping. Requests this module cannot serve exactly as fetch would (redirects to follow, stream or
 * form bodies, a caller asking for compressed answers) are left to fetch: `leanHeaders` says which.
 *
 * Kept equal to fetch where callers can tell: the same user-agent default, errors as `TypeError("fetch failed")`
 * with the cause (classifyError reads the cause), an abort rejects with the signal's reason, no-body statuses get a
 * null body, and a compressed answer is decoded (fetch would have asked for one and decoded it).
 */

/** What undici's fetch sends when the caller names no user-agent (lib/web/fetch in undici: `defaultUserAgent`). */
const DEFAULT_USER_AGENT = "undici";
/** Statuses whose responses have no body (the Response constructor refuses one). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The request's headers as a plain object when this module can serve it exactly as fetch would; else undefined. */
export function leanHeaders(init: RequestInit | undefined): Record<string, string> | undefined {
  if (!init || init.redirect !== "manual") return undefined;
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) return undefined;
  const out: Record<string, string> = {};
  headersView(init.headers).forEach((value, name) => (out[name] = value));
  if ("accept-encoding" in out) return undefined;
  if (!("user-agent" in out)) out["user-agent"] = DEFAULT_USER_AGENT;
  return out;
}

function responseHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/** The body as fetch would hand it over: decoded when the server compressed it. */
function decoded(body: Readable, encoding: string | null): Readable {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return body.pipe(createGunzip());
    case "deflate":
      return body.pipe(createInflate());
    case "br":
      return body.pipe(createBrotliDecompress());
    default:
      return body;
  }
}

/**
 * A web stream over a source of chunks that calls `done` once, however it ends: read to the end, broken, or cancelled
 * (then the source is cancelled too). The egress uses it to free a connection slot when an answer is over.
 */
export function endObservedStream(
  next: () => Promise<IteratorResult<Uint8Array>>,
  cancelSource: (reason: unknown) => unknown,
  done: () => void,
  meter?: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let value: Uint8Array | undefined;
      try {
        const read = await next();
        if (read.done) {
          done();
          return controller.close();
        }
        value = read.value;
      } catch (err) {
        done();
        return controller.error(err);
      }
      try {
        // Over the request's budget: the chunk is not handed on, and the sender stops paying for the rest.
        meter?.(value.byteLength);
      } catch (err) {
        done();
        controller.error(err);
        await Promise.resolve(cancelSource(err)).catch(() => undefined);
        return;
      }
      controller.enqueue(value);
    },
    async cancel(reason) {
      done();
      await cancelSource(reason);
    },
  });
}

/** A Node stream's chunks (Buffers, which are Uint8Arrays) as a web stream, `done` called once it ends. */
function webBody(source: Readable, done: () => void, meter?: (bytes: number) => void): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return endObservedStream(
    () => chunks.next(),
    () => source.destroy(),
    done,
    meter,
  );
}

/**
 * One request over `dispatcher`, answered as a fetch Response. `done` runs when the answer is over: no body, the body
 * read to its end or broken, or the request failed. `meter` counts the decoded bytes as they are read and may refuse
 * them by throwing (the request's upstream budget).
 */
export async function leanFetch(
  dispatcher: Dispatcher,
  url: URL,
  init: RequestInit,
  headers: Record<string, string>,
  onDone: () => void,
  meter?: (bytes: number) => void,
): Promise<Response> {
  let over = false;
  const done = () => {
    if (!over) onDone();
    over = true;
  };
  const signal = init.signal ?? undefined;
  let answer: Dispatcher.ResponseData;
  try {
    answer = await dispatcher.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: (init.method ?? "GET").toUpperCase() as Dispatcher.HttpMethod,
      headers,
      body: (init.body as string | Uint8Array | null | undefined) ?? undefined,
      signal,
    });
  } catch (err) {
    done();
    if (signal?.aborted) throw signal.reason;
    throw new TypeError("fetch failed", { cause: err });
  }
  const received = responseHeaders(answer.headers);
  const status = answer.statusCode;
  if (NULL_BODY_STATUSES.has(status) || init.method?.toUpperCase() === "HEAD") {
    // Drained, not destroyed: destroying an undici body emits an AbortError that nothing would catch.
    await answer.body.dump().catch(() => undefined);
    done();
    return withUrl(new Response(null, { status, statusText: answer.statusText, headers: received }), url);
  }
  const source = decoded(answer.body, received.get("content-encoding"));
  if (source !== answer.body) {
    // Decoded as fetch does: what the caller reads is no longer what these headers described.
    received.delete("content-encoding");
    received.delete("content-length");
    answer.body.on("error", (err) => source.destroy(err));
  }
  return withUrl(new Response(webBody(source, done, meter), { status, statusText: answer.statusText, headers: received }), url);
}

/** fetch's Response knows where it came from (the SDK names a redirect's target from it); a constructed one does not. */
function withUrl(res: Response, url: URL): Response {
  Object.defineProperties(res, { url: { value: url.href }, redirected: { value: false } });
  return res;
}
