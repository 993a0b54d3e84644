// Toolscope's HTTP server: Next.js's request handler behind a plain node:http server, so every request carries the
// socket's peer address (rate limits need it; Next.js route handlers never see the socket). Used by `npm start`
// and the e2e suite. HOST and PORT choose the address (127.0.0.1:3000).
import { createServer } from "node:http";
import next from "next";

/** Must match PEER_HEADER in lib/server/client-identity.ts. */
const PEER_HEADER = "x-toolscope-peer";

const host = process.env.HOST ?? "127.0.0.1";
const port = Number(process.env.PORT ?? "3000");

if ((process.env.TOOLSCOPE_MODE ?? "local").toLowerCase() === "hosted" && !process.env.TOOLSCOPE_PUBLIC_URL?.trim()) {
  console.error("[toolscope] TOOLSCOPE_PUBLIC_URL is required in hosted mode: set it to the origin people reach Toolscope at, such as https://toolscope.example.com.");
  process.exit(1);
}

const app = next({ dev: false, hostname: host, port, dir: process.cwd() });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  // Whatever a client sent under this name is dropped: only the socket says who is connected.
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown-peer";
  handle(req, res).catch((err) => {
    console.error("[toolscope] unhandled request error", err);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal error");
  });
});
server.listen(port, host, () => {
  const shown = host.includes(":") ? `[${host}]` : host;
  console.log(`[toolscope] ready on http://${shown === "127.0.0.1" ? "localhost" : shown}:${port} (${(process.env.TOOLSCOPE_MODE ?? "local").toLowerCase()} mode)`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    // Open event streams keep connections alive; don't wait for them forever.
    setTimeout(() => process.exit(0), 5_000).unref();
    server.closeAllConnections?.();
  });
}
