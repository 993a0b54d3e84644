import "server-only";
import { BlockedTargetError } from "@/lib/upstream/policy";
import { IconCache, type IconCacheLimits } from "./icon-cache.ts";
import { looksLikeSvg, RASTER_TYPES, sniffRasterType, type RasterType } from "./image-sniff.ts";

/**
 * Tool and server icons from other hosts, fetched by Toolscope and served from our own origin, so a viewer's
 * browser never contacts the host an untrusted MCP server named (a tracking pixel otherwise). Raster images
 * only, recognised by their bytes: SVG can carry script, and no Content-Type from upstream is believed.
 */

/** Sent upstream instead of anything about the viewer (no cookies, no referrer, no browser User-Agent). */
export const ICON_USER_AGENT = "Toolscope-IconProxy/1";
/** How long a failed icon is remembered, so a broken or hostile host is not asked again on every page view. */
export const FAILED_ICON_CACHE_MS = 60_000;
/** Longest `src` accepted. */
export const MAX_ICON_SRC_CHARS = 2_048;

const ACCEPT = `${RASTER_TYPES.join(",")};q=1, */*;q=0.1`;

/** The proxy's verdict on one `src`: an image to serve, or a status with a short reason. */
export type IconAnswer =
  | { ok: true; status: 200; type: RasterType; bytes: Uint8Array<ArrayBuffer>; maxAgeSeconds: number }
  | { ok: false; status: 400 | 403 | 413 | 415 | 502 | 504; message: string; maxAgeSeconds: number };

/** What the proxy needs, passed in so tests can run it against a local server and a fake clock. */
export interface IconProxyOptions {
  /** The SSRF-guarded fetch (`createSafeFetch`): every address, redirects included, is checked at connect time. */
  fetch: typeof fetch;
  /** Accept `http:` sources as well as `https:` (local mode: icons of servers on the developer's own network). */
  allowHttp: boolean;
  /** Largest icon body read, in bytes (TOOLSCOPE_ICON_MAX_BYTES). */
  maxBytes: number;
  /** Upper bound for the whole fetch, body included, in ms. */
  timeoutMs: number;
  /** How long a fetched icon is kept, here and by browsers, in ms (TOOLSCOPE_ICON_CACHE_MS). */
  cacheMs: number;
  cacheLimits?: IconCacheLimits;
  now?: () => number;
}

/** The icon proxy: `get` never rejects; concurrent calls for one URL share one upstream fetch. */
export interface IconProxy {
  get(src: string | null | undefined): Promise<IconAnswer>;
}

type Failure = Extract<IconAnswer, { ok: false }>;

function fail(status: Failure["status"], message: string, maxAgeSeconds = FAILED_ICON_CACHE_MS / 1000): Failure {
  return { ok: false, status, message, maxAgeSeconds };
}

/** The URL to fetch for `src`, or a 400 answer (never cached: nothing was fetched). */
export function parseIconSrc(src: string | null | undefined, allowHttp: boolean): URL | Failure {
  if (!src) return fail(400, "Missing src: pass the icon's https URL as ?src=.", 0);
  if (src.length > MAX_ICON_SRC_CHARS) return fail(400, `src is longer than ${MAX_ICON_SRC_CHARS} characters.`, 0);
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return fail(400, "src is not an absolute URL.", 0);
  }
  const schemes = allowHttp ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(url.protocol)) return fail(400, `Only ${schemes.join(" and ")} icons are fetched, not ${url.protocol}`, 0);
  if (url.username || url.password) return fail(400, "src must not carry credentials.", 0);
  url.hash = "";
  return url;
}

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err; e && out.length < 10; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

function classify(err: unknown, timeoutMs: number): Failure {
  for (const e of causes(err)) {
    if (e instanceof BlockedTargetError) return fail(403, `Blocked target: ${e.message}`);
    const { name, code } = e as { name?: string; code?: string };
    if (name === "TimeoutError" || name === "AbortError" || /^UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT$/.test(code ?? "")) {
      return fail(504, `The icon host did not answer within ${timeoutMs} ms.`);
    }
  }
  const last = causes(err).at(-1) as { code?: string; message?: string } | undefined;
  return fail(502, `The icon could not be fetched (${last?.code ?? last?.message ?? "network error"}).`);
}

/** The body, or undefined as soon as it passes `max` bytes (whatever Content-Length said, if anything). */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (body) {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return bytes;
}

async function fetchIcon(url: URL, o: IconProxyOptions): Promise<IconAnswer> {
  try {
    const res = await o.fetch(url, {
      headers: { "user-agent": ICON_USER_AGENT, accept: ACCEPT },
      credentials: "omit",
      // Redirects stay inside the guarded fetch: its dispatcher checks every hop's address again.
      redirect: "follow",
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    const discard = () => void res.body?.cancel().catch(() => undefined);
    if (!o.allowHttp && res.url && !res.url.startsWith("https:")) {
      discard();
      return fail(502, "The icon host redirected to a non-https URL.");
    }
    if (!res.ok) {
      discard();
      return fail(502, `The icon host answered ${res.status}.`);
    }
    const declared = Number(res.headers.get("content-length"));
    const bytes = declared > o.maxBytes ? undefined : await readCapped(res.body, o.maxBytes);
    if (!bytes) {
      discard();
      return fail(413, `The icon is larger than ${o.maxBytes} bytes (TOOLSCOPE_ICON_MAX_BYTES).`);
    }
    const type = sniffRasterType(bytes);
    if (!type) {
      return fail(
        415,
        looksLikeSvg(bytes)
          ? "SVG icons are not served (SVG can carry script); use PNG, JPEG, GIF, WebP or ICO."
          : "Not a raster image (PNG, JPEG, GIF, WebP or ICO).",
      );
    }
    return { ok: true, status: 200, type, bytes, maxAgeSeconds: Math.floor(o.cacheMs / 1000) };
  } catch (err) {
    return classify(err, o.timeoutMs);
  }
}

/** An icon proxy with its own bounded cache (successes for `cacheMs`, failures for {@link FAILED_ICON_CACHE_MS}). */
export function createIconProxy(options: IconProxyOptions): IconProxy {
  const cache = new IconCache<IconAnswer>(options.cacheLimits, options.now);
  const inflight = new Map<string, Promise<IconAnswer>>();
  return {
    async get(src) {
      const url = parseIconSrc(src, options.allowHttp);
      if (!(url instanceof URL)) return url;
      const key = url.href;
      const hit = cache.get(key) ?? inflight.get(key);
      if (hit) return hit;
      const pending = fetchIcon(url, options).then((answer) => {
        const size = answer.ok ? answer.bytes.byteLength : answer.message.length;
        cache.set(key, answer, size, answer.ok ? options.cacheMs : FAILED_ICON_CACHE_MS);
        return answer;
      });
      inflight.set(key, pending);
      // Removed once settled, whatever the outcome; the cache answers from then on.
      void pending.finally(() => inflight.delete(key));
      return pending;
    },
  };
}

/** The HTTP response for an answer: the sniffed type, never sniffed again by the browser, and inert if opened directly. */
export function iconResponse(answer: IconAnswer): Response {
  const headers: Record<string, string> = {
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    // Our pages may show it; other sites may not hotlink Toolscope as an anonymising image proxy.
    "cross-origin-resource-policy": "same-origin",
    "cache-control": answer.maxAgeSeconds > 0 ? `public, max-age=${answer.maxAgeSeconds}` : "no-store",
  };
  if (!answer.ok)
    return new Response(`${answer.message}\n`, {
      status: answer.status,
      headers: { ...headers, "content-type": "text/plain; charset=utf-8" },
    });
  return new Response(answer.bytes, {
    status: 200,
    headers: {
      ...headers,
      "content-type": answer.type,
      "content-length": String(answer.bytes.byteLength),
      "content-disposition": "inline",
    },
  });
}
