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

/** Resolves a host name to every address it has (injectable so tests can point names anywhere). */
export type Resolver = (hostname: string, family: number) => Promise<dns.LookupAddress[]>;

const systemResolver: Resolver = (hostname, family) => dns.promises.lookup(hostname, { all: true, family: family as 0 | 4 | 6 });

export interface EgressPolicy {
  /** Allow loopback/private/reserved targets (local mode). */
  allowPrivate: boolean;
  /**
   * Exceptions for on-premise deployments: CIDR ranges (`10.1.0.0/16`) and `host:port` pairs
   * (`127.0.0.1:8080`, `mcp.internal:443`) that may be reached although private.
   */
  allow: readonly string[];
}

/** Whether an address (on a port, reached by a host name) is allowed by the policy. */
export function allowedTarget(ip: string, port: number, hostname: string, policy: EgressPolicy): boolean {
  if (policy.allowPrivate || isPublicAddress(ip)) return true;
  const parsed = ipaddr.isValid(ip) ? ipaddr.process(ip) : undefined;
  return policy.allow.some((entry) => {
    if (entry.includes("/")) {
      try {
        const [range, bits] = ipaddr.parseCIDR(entry);
        return parsed !== undefined && parsed.kind() === range.kind() && parsed.match(range, bits);
      } catch {
        return false;
      }
    }
    const at = entry.lastIndexOf(":");
    const host = entry.slice(0, at).replace(/^\[|\]$/g, "").toLowerCase();
    return Number(entry.slice(at + 1)) === port && (host === hostname.toLowerCase() || host === ip);
  });
}

function refuse(host: string, ip: string): BlockedTargetError {
  return new BlockedTargetError(
    `${host} resolves to ${ip}, a private, loopback or reserved address. The hosted proxy only reaches public servers; run Toolscope locally to test servers on your own network.`,
  );
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(policy: EgressPolicy, resolve: Resolver, port: () => number) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolve(hostname, typeof options.family === "number" ? options.family : 0).then(
      (addresses) => {
        // Every answer must pass: a record set mixing public and private addresses is a rebinding trick.
        const bad = addresses.find((a) => !allowedTarget(a.address, port(), hostname, policy));
        if (bad) return callback(refuse(hostname, bad.address), []);
        if (addresses.length === 0) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), []);
        if (options.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (err) => callback(err, []),
    );
  };
}

function createAgent(policy: EgressPolicy, connectTimeoutMs: number, resolve: Resolver): Agent {
  return new Agent({
    connections: 64,
    headersTimeout: connectTimeoutMs,
    // SSE streams stay open; each request is bounded by its own AbortSignal instead.
    bodyTimeout: 0,
    connect(opts, cb) {
      const host = opts.hostname.replace(/^\[|\]$/g, "");
      const port = Number(opts.port) || (opts.protocol === "https:" ? 443 : 80);
      // net.connect skips `lookup` for IP literals, so literals are checked here (redirects included).
      if (net.isIP(host) && !allowedTarget(host, port, host, policy)) return cb(refuse(host, host), null);
      // The connector resolves through our lookup, and connects to the very address that was checked.
      const connector = buildConnector({ lookup: guardedLookup(policy, resolve, () => port) as never, timeout: connectTimeoutMs });
      connector(opts, (err, socket) => {
        if (err || !socket) return cb(err ?? new Error("connect failed"), null);
        const remote = socket.remoteAddress;
        if (remote && !allowedTarget(remote, port, host, policy)) {
          socket.destroy();
          return cb(refuse(host, remote), null);
        }
        cb(null, socket);
      });
    },
  });
}

const agents = new Map<string, Agent>();

/** One pooled Agent per policy (no user state lives in its connections). */
function agentFor(policy: EgressPolicy, connectTimeoutMs: number, resolve?: Resolver): Agent {
  if (resolve) return createAgent(policy, connectTimeoutMs, resolve);
  const key = JSON.stringify([policy.allowPrivate, policy.allow, connectTimeoutMs]);
  let agent = agents.get(key);
  if (!agent) agents.set(key, (agent = createAgent(policy, connectTimeoutMs, systemResolver)));
  return agent;
}

export interface SafeFetchOptions extends Partial<EgressPolicy> {
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** Tests only: resolve names without DNS. */
  resolve?: Resolver;
}

/**
 * The one egress path for user-supplied targets: http(s) only, every address checked at connect time
 * (DNS answers, IP literals and redirect targets alike), and the connection made to the checked address.
 */
export function createSafeFetch(options: SafeFetchOptions): typeof fetch {
  const policy: EgressPolicy = { allowPrivate: options.allowPrivate, allow: options.allow ?? [] };
  const dispatcher = agentFor(policy, options.connectTimeoutMs, options.resolve);
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new BlockedTargetError(`Only http and https URLs can be reached, not ${url.protocol}`);
    }
    return undiciFetch(url, { ...(init as object), dispatcher } as never) as unknown as Response;
  }) as typeof fetch;
}
