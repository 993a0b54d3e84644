import "server-only";
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, fetch as undiciFetch } from "undici";

/** Raised when a target address is not allowed by the egress policy. */
export class BlockedTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlockedTargetError";
  }
}

/** True when `ip` is a public unicast address (loopback, private, link-local, metadata, NAT64… are not). */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  return addr.range() === "unicast";
}

function check(ip: string, host: string, allowPrivate: boolean): void {
  if (!allowPrivate && !isPublicAddress(ip)) {
    throw new BlockedTargetError(
      `${host} resolves to ${ip}, a private, loopback or reserved address. The hosted proxy only reaches public servers; run Toolscope locally to test servers on your own network.`,
    );
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      try {
        // Every answer must pass: a DNS record set mixing public and private addresses is a rebinding trick.
        for (const a of addresses) check(a.address, hostname, allowPrivate);
      } catch (e) {
        return callback(e as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      callback(null, first.address, first.family);
    });
  };
}

const agents = new Map<boolean, Agent>();

/** One undici Agent per policy; connections are pooled across requests (no user state lives in them). */
function agentFor(allowPrivate: boolean, connectTimeoutMs: number): Agent {
  const existing = agents.get(allowPrivate);
  if (existing) return existing;
  const connector = buildConnector({ lookup: guardedLookup(allowPrivate) as never, timeout: connectTimeoutMs });
  const agent = new Agent({
    connections: 64,
    headersTimeout: connectTimeoutMs,
    // SSE streams stay open; each request is bounded by its own AbortSignal instead.
    bodyTimeout: 0,
    connect(opts, cb) {
      const host = opts.hostname.replace(/^\[|\]$/g, "");
      // net.connect skips `lookup` for IP literals, so literals are checked here (redirects included).
      if (net.isIP(host)) {
        try {
          check(host, host, allowPrivate);
        } catch (e) {
          return cb(e as Error, null);
        }
      }
      connector(opts, (err, socket) => {
        if (err || !socket) return cb(err ?? new Error("connect failed"), null);
        const remote = socket.remoteAddress;
        if (remote && !allowPrivate && !isPublicAddress(remote)) {
          socket.destroy();
          return cb(new BlockedTargetError(`Connected to ${remote}, which is not a public address.`), null);
        }
        cb(null, socket);
      });
    },
  });
  agents.set(allowPrivate, agent);
  return agent;
}

/** A fetch that only speaks http(s) and only reaches addresses the policy allows. */
export function createSafeFetch(options: { allowPrivate: boolean; connectTimeoutMs: number }): typeof fetch {
  const dispatcher = agentFor(options.allowPrivate, options.connectTimeoutMs);
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new BlockedTargetError(`Only http and https URLs can be reached, not ${url.protocol}`);
    }
    return undiciFetch(url, { ...(init as object), dispatcher } as never) as unknown as Response;
  }) as typeof fetch;
}
