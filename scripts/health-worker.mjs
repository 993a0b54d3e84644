// The worker thread of health-listener.mjs: a plain node:http server that answers GET/HEAD /api/health (liveness)
// and /api/health?ready=1 (readiness) from the state the main thread publishes, and nothing else. It runs no
// request of the app, so it takes and answers a probe's connection at once however busy the main thread is.
import { createServer } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { SLOT } from "./health-listener.mjs";

const { shared, epoch, host, port, stallMs } = workerData;
const PATH = "/api/health";

function answer(req, res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    connection: "close",
  });
  res.end(req.method === "HEAD" ? undefined : text);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://health");
  if (url.pathname !== PATH || (req.method !== "GET" && req.method !== "HEAD"))
    return answer(req, res, 404, { error: { kind: "not-found", message: `This port answers GET ${PATH} and ${PATH}?ready=1 only.` } });
  const stalledMs = Date.now() - epoch - Atomics.load(shared, SLOT.beat);
  const load = {
    loopDelayMs: Atomics.load(shared, SLOT.loopDelayMs),
    inflight: Atomics.load(shared, SLOT.inflight),
    limit: Atomics.load(shared, SLOT.limit),
  };
  if (stalledMs > stallMs)
    return answer(req, res, 503, {
      status: "stalled",
      message: `The server's event loop has not turned for ${stalledMs} ms (TOOLSCOPE_HEALTH_STALL_MS is ${stallMs}).`,
    });
  if (!url.searchParams.has("ready")) return answer(req, res, 200, { status: "ok" });
  if (Atomics.load(shared, SLOT.draining)) return answer(req, res, 503, { status: "shutting-down" });
  return answer(req, res, 200, { status: "ready", ...load });
});
// Probes are short: nothing lingers on this port.
server.keepAliveTimeout = 1_000;
server.headersTimeout = 5_000;
server.requestTimeout = 5_000;
server.on("error", (err) => parentPort.postMessage({ listening: false, error: `TOOLSCOPE_HEALTH_PORT=${port}: ${err.message}` }));
server.listen(port, host, () => parentPort.postMessage({ listening: true, port: server.address().port }));
