/**
 * Serves a web-standard `fetch` handler from a real node:http server on 127.0.0.1 (tests, local scripts): the demo's
 * and the client core's test servers alike, so it lives in this leaf of test support (lib/testing). Streams response bodies (SSE, a
 * `subscriptions/listen` stream) as they are written and cancels them when the client goes away.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FetchHandler {
  fetch(req: Request): Promise<Response>;
}

export interface ServedHandler {
  url: URL;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

async function toWebRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const chunks: Buffer[] = [];
  if (hasBody) for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`), {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
    signal,
  });
}

async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away mid-stream.
  }
  res.end();
}

/** Listens on 127.0.0.1 (`port` 0, the default, picks a free one); `url` is the origin with `path`. */
export async function serveFetchHandler(handler: FetchHandler, path = "/mcp", port = 0): Promise<ServedHandler> {
  const server = createServer((req, res) => {
    const aborted = new AbortController();
    res.on("close", () => aborted.abort());
    void (async () => {
      try {
        await writeWebResponse(await handler.fetch(await toWebRequest(req, aborted.signal)), res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: new URL(`${origin}${path}`),
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
