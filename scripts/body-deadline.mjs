// The request-body deadline of Toolscope's HTTP server (scripts/server.mjs). Next.js reads a request body whole
// before any route runs (it buffers the body for the request guard's proxy step, then waits for its end), so a client
// that sends most of a body and stalls holds that memory until the socket dies, and the app never sees it: the
// deadline must be kept here, on the socket. The app keeps the same deadline on the bodies it reads (api-route.ts).
import { int } from "./settings.mjs";

const MIN_MS = 100;
const MAX_MS = 300_000;
const DEFAULT_MS = 10_000;

/** TOOLSCOPE_BODY_READ_TIMEOUT_MS, with the bounds and default of lib/server/platform/config.ts (which refuses a bad value). */
export function bodyReadTimeoutMs(env) {
  return int(env, ["TOOLSCOPE_BODY_READ_TIMEOUT_MS", DEFAULT_MS, MIN_MS, MAX_MS]);
}

/** The error body of our API for a body that did not arrive in time (kind `request-timeout`, lib/mcp/contract.ts). */
export function bodyTimeoutBody(timeoutMs) {
  return {
    error: {
      kind: "request-timeout",
      message: `The request body did not arrive within ${timeoutMs} ms (TOOLSCOPE_BODY_READ_TIMEOUT_MS).`,
      hint: "Send the whole body at once. On a slow link, an operator can raise TOOLSCOPE_BODY_READ_TIMEOUT_MS.",
    },
  };
}

/**
 * Give `req`'s body `timeoutMs` from now to arrive. When it has not, answer 408 with our error body (when nothing
 * was answered yet) and close the connection: what was buffered of the body is freed with it. Returns whether the
 * request was cut, for the caller's own error handling.
 */
export function watchBody(req, res, timeoutMs) {
  let cut = false;
  const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? "0") > 0;
  if (hasBody && !req.complete) {
    const timer = setTimeout(() => {
      cut = true;
      if (res.headersSent) return req.socket.destroy();
      const body = JSON.stringify(bodyTimeoutBody(timeoutMs));
      res.writeHead(408, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        "cache-control": "no-store",
        connection: "close",
      });
      res.end(body, () => req.socket.destroy());
    }, timeoutMs);
    const clear = () => clearTimeout(timer);
    req.once("end", clear);
    req.once("close", clear);
    // Answered without reading the body (Node discards the rest): nothing is held for it.
    res.once("finish", clear);
  }
  return { wasCut: () => cut };
}
