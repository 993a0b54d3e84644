// Several listening sockets on the app's port (SO_REUSEPORT), all feeding one node:http server. Node takes at most
// one new connection from a listening socket per turn of its event loop, and a loaded instance's turn lasts as long
// as the work it runs (a fifth of a second while shedding holds the loop there): a burst of 200 connections then
// waited up to 20 s in the kernel's accept queue, and the connections opened last got nothing at all (issue 25,
// finding 6). With N sockets the kernel spreads new connections over N queues and a turn takes up to N of them.
// `reusePort` came with Node 22.12 and 23.1; on older Node there is one socket, and TOOLSCOPE_LISTENERS above 1 is
// a start-up error that says so.
import { createServer as createNetServer, Server as NetServer } from "node:net";
import { int } from "./settings.mjs";

const SETTING = ["TOOLSCOPE_LISTENERS", 8, 1, 64];

/** Whether this Node can bind several sockets to one port (net.Server#listen's `reusePort`). */
export function reusePortSupported(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

/**
 * How many listening sockets: TOOLSCOPE_LISTENERS, by default 8 where Node supports `reusePort` and 1 elsewhere.
 * Throws naming the variable when it is invalid or asks for more than one where it cannot be had.
 */
export function listenerCount(env, version = process.versions.node) {
  const supported = reusePortSupported(version);
  if (env[SETTING[0]] === undefined || env[SETTING[0]] === "") return supported ? SETTING[1] : 1;
  const n = int(env, SETTING);
  if (n > 1 && !supported)
    throw new Error(
      `${SETTING[0]}=${n} needs Node 22.12 or later (several sockets on one port, reusePort); this is Node ${version}. Set it to 1, or run a newer Node.`,
    );
  return n;
}

/**
 * Listen on `port` and `host` with `count` sockets: the http server's own, and count − 1 more whose connections are
 * handed to it (its 'connection' listeners, limits included, see every one). Resolves once all are listening, with
 * close(), which stops every socket from listening (open connections are left to the caller); rejects on the first
 * error, having closed the rest.
 */
export async function listenAll(server, { port, host, count }) {
  const reusePort = count > 1;
  const listen = (target, on) =>
    new Promise((resolve, reject) => {
      target.once("error", reject);
      target.listen({ port: on, host, ...(reusePort ? { reusePort } : {}) }, () => {
        target.off("error", reject);
        resolve(target.address().port);
      });
    });
  const chosen = await listen(server, port);
  // Every connection without Nagle's algorithm, as http.Server sets up the ones its own socket accepts: a connection
  // handed over from one of the extra sockets would otherwise hold each response's last segment until the client's
  // delayed ACK, about 40 ms a keep-alive request (issue 28's bench on Node 24: +42 ms on every call).
  server.on("connection", (socket) => socket.setNoDelay(true));
  const extra = Array.from({ length: count - 1 }, () => createNetServer((socket) => server.emit("connection", socket)));
  try {
    // Port 0 picks a free port once; the others join it.
    for (const l of extra) await listen(l, chosen);
  } catch (err) {
    for (const l of [server, ...extra]) if (l.listening) l.close();
    throw err;
  }
  return {
    port: chosen,
    /** Stop taking new connections on every socket (not http.Server#close: that also closes idle kept-alive ones). */
    close() {
      for (const l of [server, ...extra]) if (l.listening) NetServer.prototype.close.call(l);
    },
  };
}
